import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ChatService } from '../chat/index.ts';
import type { OrderService } from '../orders/index.ts';

/** What the disputes module's commands and queries are given (app.ts builds it once). */
export interface DisputeServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Pick<Realtime, 'emitToUsers'>;
  chat: ChatService;
  orders: OrderService;
  limiter: RateLimiter;
  log: Logger;
}

export const DAY_MS = 86_400_000;
