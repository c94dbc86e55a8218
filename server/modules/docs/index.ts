// The API's OpenAPI document and its viewer.
export { docsRoutes } from './routes.ts';
export { docsModule } from './module.ts';
