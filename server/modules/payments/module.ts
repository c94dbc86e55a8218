import { defineModule } from '../../platform/module.ts';
import { PaymentService } from './service.ts';
import { PAYOUT_JOB } from './commands/payout.ts';
import { REFUND_JOB } from './commands/refund.ts';
import { paymentRoutes } from './routes.ts';
import { paymentRatesRoutes } from './rates-routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    payments: PaymentService;
  }
}

export const paymentsModule = defineModule({
  name: 'payments',
  create: ({ db, env, log, siteUrl, loopbackUrl, services: { platform, settings, letters, realtime, rates, orders } }) => {
    const payments = new PaymentService({
      db,
      platform,
      settings,
      letters,
      realtime,
      rates,
      orders,
      siteUrl,
      // The sandbox provider calls our webhook on this server's own address (the HTTP loopback).
      loopbackUrl,
      webhookSecret: env.PAYMENTS_WEBHOOK_SECRET,
      sandbox: env.PAYMENTS_SANDBOX,
      yookassa:
        env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY
          ? {
              shopId: env.YOOKASSA_SHOP_ID,
              secretKey: env.YOOKASSA_SECRET_KEY,
              apiUrl: env.YOOKASSA_API_URL,
              webhookIps: env.YOOKASSA_WEBHOOK_IPS,
              payouts: { agentId: env.YOOKASSA_PAYOUT_AGENT_ID, secretKey: env.YOOKASSA_PAYOUT_SECRET_KEY, widgetUrl: env.YOOKASSA_PAYOUT_WIDGET_URL },
            }
          : undefined,
      btcpay:
        env.BTCPAY_URL && env.BTCPAY_API_KEY && env.BTCPAY_STORE_ID && env.BTCPAY_WEBHOOK_SECRET
          ? { url: env.BTCPAY_URL, apiKey: env.BTCPAY_API_KEY, storeId: env.BTCPAY_STORE_ID, webhookSecret: env.BTCPAY_WEBHOOK_SECRET }
          : undefined,
      methods: { card: env.PAYMENTS_CARD, usdt: env.PAYMENTS_USDT, btc: env.PAYMENTS_BTC },
      log,
    });
    log.info(`payments: ${payments.providers.describe()}`);
    return { payments };
  },
  // A payment whose webhook never came, or whose provider's answer a crash lost, is settled from the provider.
  recurring: [
    { job: 'payments-poll', everyMs: 60_000, run: ({ services: { payments } }) => payments.pollProviders() },
    { job: 'payments-payouts', everyMs: 60_000, run: ({ services: { payments } }) => payments.pollPayouts() },
    // Refunds inside a safe deal whose provider has not answered (ADR 051).
    { job: 'payments-refunds', everyMs: 60_000, run: ({ services: { payments } }) => payments.pollRefunds() },
    // Safe deals near or past their lifetime (ADR 058): reminders, then what ЮKassa returned by itself mirrored.
    { job: 'payments-deals', everyMs: 60 * 60_000, run: ({ services: { payments } }) => payments.watchDeals() },
    // Yesterday's payments (UTC) against each provider's own list of them (issue 27): differences go to /admin/payments.
    { job: 'payments-reconcile', everyMs: 24 * 60 * 60_000, run: ({ services: { payments } }) => payments.reconcile() },
  ],
  subscribe({ services: { platform, payments } }) {
    platform.dispatcher.handle<{ withdrawalId: string }>(PAYOUT_JOB, (payload) => payments.sendPayout(payload.withdrawalId));
    platform.dispatcher.handle<{ refundId: string }>(REFUND_JOB, (payload) => payments.sendRefund(payload.refundId));
  },
  async routes(app, { services: { payments, settings, twoFactor }, reads }) {
    await app.register(paymentRatesRoutes, { reads, settings });
    await app.register(paymentRoutes, { payments, reads, stepUp: twoFactor });
  },
});
