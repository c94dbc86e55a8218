import type { Db } from '../../db/client.ts';
import type { Platform } from '../../platform/platform.ts';
import type { ChatService } from '../chat/index.ts';
import type { OrderService } from '../orders/index.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';

/** What the offers module's commands and reads are given (ADR 066). */
export interface OfferServiceDeps {
  db: Db;
  platform: Platform;
  orders: OrderService;
  chat: ChatService;
  limiter: RateLimiter;
}
