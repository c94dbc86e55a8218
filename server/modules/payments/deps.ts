import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { OrderPaymentPort, OrderService } from '../orders/index.ts';
import type { RatesService } from '../rates/index.ts';
import type { ProviderRegistry, ProviderRegistryDeps } from './providers/registry.ts';

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
  /** This server's own address: the sandbox sends its webhook there (the HTTP loopback); null while it does not listen. */
  loopbackUrl?: () => string | null;
  /** The providers' webhook signing secret (env PAYMENTS_WEBHOOK_SECRET or DATA_DIR/payments-webhook-secret). */
  webhookSecret: string;
  /** ЮKassa's shop and the operator's choice of provider per method (ADR 048). */
  yookassa?: ProviderRegistryDeps['yookassa'];
  btcpay?: ProviderRegistryDeps['btcpay'];
  methods?: ProviderRegistryDeps['methods'];
  /** The sandbox provider is on (development, tests, the demo, or a production that chose it: env.ts). */
  sandbox?: boolean;
  log: Logger;
}

/** What the payments commands and queries are given (the PaymentService builds it once). */
export interface PaymentContext {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  rates: RatesService;
  log: Logger;
  /** The time quotes are made and checked by (the service's, which tests move). */
  clock: Clock;
  /** The public origin: where a provider sends the customer back. */
  siteUrl: () => string;
  /** The orders module's port: the order's facts, its lock and its step to paid. */
  orders: OrderPaymentPort;
  providers: ProviderRegistry;
}
