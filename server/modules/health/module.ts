import { defineModule } from '../../platform/module.ts';
import { healthRoutes } from './routes.ts';

export const healthModule = defineModule({
  name: 'health',
  routes: (app, { database, reads }) => app.register(healthRoutes, { database, reads }),
});
