import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { ChatService } from '../chat/index.ts';
import { markOrderPaid, openOrder, type OpenOrderInput } from './open.ts';
import type { TxContext } from '../../platform/tx.ts';

export interface OrderServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  chat: ChatService;
  log: Logger;
}

/** Orders: made from a service or an accepted bid, paid into escrow, delivered, accepted or cancelled (ADR 025). */
export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {}

  /** A new order awaiting payment, in the caller's transaction (the service page, an accepted bid). */
  open(ctx: TxContext, input: OpenOrderInput) {
    return openOrder(ctx, this.deps, input);
  }

  /** awaiting_payment → in_progress, in the payment's transaction; 409 when it is not awaiting payment. */
  markPaid(ctx: TxContext, orderId: string) {
    return markOrderPaid(ctx, orderId);
  }
}
