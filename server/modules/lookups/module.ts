import { routeOf } from '#contract/routes';
import { endpoints } from '#contract/endpoints';
import { defineModule } from '../../platform/module.ts';
import { LOOKUP_CACHE_CONTROL, LOOKUP_ENDPOINTS, LookupService, type LookupList } from './service.ts';
import { lookupRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    lookups: LookupService;
  }
}

export const lookupsModule = defineModule({
  name: 'lookups',
  create: ({ db }) => ({ lookups: new LookupService(db) }),
  async routes(app, { services: { lookups }, reads, fast }) {
    await app.register(lookupRoutes, { lookups, reads });
    // Only what anybody may read, from memory before Fastify: a list behind sign-in (tags) goes through the guard.
    for (const [name, list] of Object.entries(LOOKUP_ENDPOINTS) as [keyof typeof LOOKUP_ENDPOINTS, LookupList][]) {
      if (endpoints[name].access === 'public') fast.add(routeOf(name).path, () => lookups.peek(list), LOOKUP_CACHE_CONTROL);
    }
  },
});
