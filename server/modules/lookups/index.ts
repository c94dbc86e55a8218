// Countries, cities, categories and tags.
export { LookupService } from './service.ts';
export { lookupRoutes } from './routes.ts';
