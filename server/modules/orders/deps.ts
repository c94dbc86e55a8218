import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ChatService } from '../chat/index.ts';
import type { RefundRoute } from './refund-route.ts';
import type { ReleaseRoute } from './release-route.ts';

/** What the orders module's commands and queries are given (app.ts builds it once). */
export interface OrderServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  chat: ChatService;
  log: Logger;
  /** Where escrow goes back to when not the balance (the payments module's, ADR 051). */
  refundRoute?: RefundRoute;
  /** Where a seller's share goes when not the balance (the payments module's, ADR 053). */
  releaseRoute?: ReleaseRoute;
}
