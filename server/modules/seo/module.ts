import { defineModule } from '../../platform/module.ts';
import { seoRoutes } from './routes.ts';

export const seoModule = defineModule({
  name: 'seo',
  routes: (app, { db, services: { blog }, origin }) => app.register(seoRoutes, { db, blog, origin: (request) => origin.of(request) }),
});
