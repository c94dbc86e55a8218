import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { RatesService } from '../rates/index.ts';
import type { OrderService } from '../orders/index.ts';

export interface PaymentServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  rates: RatesService;
  orders: OrderService;
  /** The public origin, for the sandbox provider's pages and webhook. */
  siteUrl: () => string;
  log: Logger;
}

/** Paying orders into escrow, providers and their webhooks, balances, withdrawals (ADR 025). */
export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}
}
