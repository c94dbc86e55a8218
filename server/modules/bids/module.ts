import { defineModule } from '../../platform/module.ts';
import { BidService } from './service.ts';
import { bidRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    bids: BidService;
  }
}

export const bidsModule = defineModule({
  name: 'bids',
  create: ({ db, log, services: { platform, settings, letters, realtime, limiter, orders } }) => ({
    bids: new BidService({ db, platform, settings, letters, realtime, limiter, orders, log }),
  }),
  routes: (app, { services: { bids }, reads }) => app.register(bidRoutes, { bids, reads }),
});
