// Sellers' services: the listing, pages, the seller's own, and moderation.
export { ServiceCatalog } from './service.ts';
export { presentServiceCard } from './presenter.ts';
export { servicesRoutes } from './routes.ts';
export { adminServicesRoutes } from './admin-routes.ts';
export { isPublicService, publicService, servicePolicy } from './policy.ts';
