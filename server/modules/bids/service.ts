import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { OrderService } from '../orders/index.ts';

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

/** Sellers' bids on customers' projects; accepting one opens an order (ADR 025). */
export class BidService {
  constructor(private readonly deps: BidServiceDeps) {}
}
