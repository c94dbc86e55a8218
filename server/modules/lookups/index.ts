// Countries, cities, categories and tags.
export { LOOKUP_CACHE_CONTROL, LOOKUP_ENDPOINTS, LookupService, type LookupList } from './service.ts';
export { lookupRoutes } from './routes.ts';
export { lookupsModule } from './module.ts';
export { categoryBySlug, categoryRefs, cityExists, countryExists, subCategoryBySlug, subCategoryRefs } from './read-model.ts';
export { cityRefs, countryRefs } from './read-model.ts';
