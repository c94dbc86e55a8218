import { defineModule } from '../../platform/module.ts';
import { docsRoutes } from './routes.ts';

export const docsModule = defineModule({
  name: 'docs',
  routes: (app, { env }) => app.register(docsRoutes, { brand: env.BRAND_NAME }),
});
