import { defineModule } from '../../platform/module.ts';
import { PaymentService } from './service.ts';
import { paymentRoutes } from './routes.ts';
import { paymentRatesRoutes } from './rates-routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    payments: PaymentService;
  }
}

export const paymentsModule = defineModule({
  name: 'payments',
  create: ({ db, env, log, siteUrl, listeningUrl, services: { platform, settings, letters, realtime, rates, orders } }) => ({
    payments: new PaymentService({
      db,
      platform,
      settings,
      letters,
      realtime,
      rates,
      orders,
      siteUrl,
      // The sandbox provider calls our webhook on this server's own address (the HTTP loopback).
      loopbackUrl: listeningUrl,
      webhookSecret: env.PAYMENTS_WEBHOOK_SECRET,
      sandbox: env.PAYMENTS_SANDBOX,
      log,
    }),
  }),
  async routes(app, { services: { payments, settings }, reads }) {
    await app.register(paymentRatesRoutes, { reads, settings });
    await app.register(paymentRoutes, { payments, reads });
  },
});
