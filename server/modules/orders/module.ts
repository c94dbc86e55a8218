import { defineModule } from '../../platform/module.ts';
import { OrderService } from './service.ts';
import { AUTO_ACCEPT_JOB, EXPIRE_DRAFT_JOB } from './jobs.ts';
import { orderRoutes } from './routes.ts';
import { orderFileUses } from './file-uses.ts';
import { remindStageFunding, STAGE_FUNDING_JOB } from './commands/stage-reminder.ts';

declare module '../../platform/module.ts' {
  interface Services {
    orders: OrderService;
  }
}

export const ordersModule = defineModule({
  name: 'orders',
  // The money loop (ADR 025).
  create: ({ db, log, services: { platform, settings, letters, realtime, chat } }) => ({
    orders: new OrderService({ db, platform, settings, letters, realtime, chat, log }),
  }),
  routes: (app, { services: { orders }, reads }) => app.register(orderRoutes, { orders, reads }),
  // The jobs its commands write: the auto-acceptance of a delivery, the expiry of an unpaid draft.
  subscribe({ services: { platform, orders } }) {
    platform.dispatcher.handle<{ orderId: string }>(AUTO_ACCEPT_JOB, (payload, job) => job.withTx((ctx) => orders.autoAccept(ctx, payload.orderId)));
    platform.dispatcher.handle<{ orderId: string }>(EXPIRE_DRAFT_JOB, (payload, job) => job.withTx((ctx) => orders.expireDraft(ctx, payload.orderId)));
  },
  // A stage left unfunded after the one before it completed (ADR 065): hourly, each reminded of once.
  recurring: [
    {
      job: STAGE_FUNDING_JOB,
      everyMs: 60 * 60_000,
      run: ({ db, services: { platform, settings, letters } }) => remindStageFunding({ db, platform, settings, letters }),
    },
  ],
  fileUses: orderFileUses,
});
