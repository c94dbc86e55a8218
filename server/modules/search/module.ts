import { defineModule } from '../../platform/module.ts';
import { SearchSuggestions } from './service.ts';
import { searchSuggestionRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    searchSuggestions: SearchSuggestions;
  }
}

export const searchModule = defineModule({
  name: 'search',
  create: ({ db, log, seen, services }) => ({
    searchSuggestions: new SearchSuggestions(db, services.platform.withTx, log, seen, (queries) => services.serviceCatalog.findsSomething(queries)),
  }),
  routes: (app, { services: { searchSuggestions }, reads }) => app.register(searchSuggestionRoutes, { suggestions: searchSuggestions, reads }),
  close: ({ searchSuggestions }) => searchSuggestions.flush(),
});
