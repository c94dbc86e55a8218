// The header's search suggestions and their moderation.
export { SearchSuggestions } from './service.ts';
export { searchSuggestionRoutes } from './routes.ts';
export { searchModule } from './module.ts';
