import { defineModule } from '../../platform/module.ts';
import { OfferService } from './service.ts';
import { offerRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    offers: OfferService;
  }
}

export const offersModule = defineModule({
  name: 'offers',
  create: ({ db, services: { platform, orders, chat, limiter } }) => ({
    offers: new OfferService({ db, platform, orders, chat, limiter }),
  }),
  routes: (app, { services: { offers }, reads }) => app.register(offerRoutes, { offers, reads }),
});
