import { defineModule } from '../../platform/module.ts';
import { ServiceCatalog } from './service.ts';
import { servicesRoutes } from './routes.ts';
import { adminServicesRoutes } from './admin-routes.ts';
import { serviceFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    serviceCatalog: ServiceCatalog;
  }
}

export const servicesModule = defineModule({
  name: 'services',
  create: ({ db, database, log, seen, services: { realtime, platform, letters, settings } }) => ({
    serviceCatalog: new ServiceCatalog({
      db,
      plannedOnce: database.plannedOnce,
      realtime,
      withTx: platform.withTx,
      letters,
      log,
      seen,
      // The search's synonym dictionary is an operator setting (ADR 028).
      synonyms: async () => (await settings.all())['search.synonyms'],
      minPrice: () => settings.get('services.minPrice'),
    }),
  }),
  async routes(app, { services: { serviceCatalog, searchSuggestions }, reads }) {
    await app.register(servicesRoutes, { catalog: serviceCatalog, suggestions: searchSuggestions, reads });
    await app.register(adminServicesRoutes, { catalog: serviceCatalog, reads });
  },
  fileUses: serviceFileUses,
  close: ({ serviceCatalog }) => serviceCatalog.flushViews(),
});
