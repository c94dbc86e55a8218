import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { OrderService } from '../orders/index.ts';

/** What the bids module's commands and queries are given (app.ts builds it once). */
export interface BidServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  limiter: RateLimiter;
  orders: OrderService;
  log: Logger;
}

export interface Page<T> {
  result: T[];
  total: number;
  next: string | null;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
