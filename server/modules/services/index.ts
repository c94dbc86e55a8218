// Sellers' services: the listing, pages, the seller's own, and moderation.
export { ServiceCatalog } from './service.ts';
export { offersServices, publicServiceCardsByIds, recentlyViewedCards, sellerServiceCards } from './ports.ts';
export { servicesRoutes } from './routes.ts';
export { adminServicesRoutes } from './admin-routes.ts';
export { isPublicService, isPublicServiceId, publicService, servicePolicy } from './policy.ts';
export { serviceFileUses } from './file-uses.ts';
export { servicesModule } from './module.ts';
export { countServiceOrder, setServiceRating } from './counters.ts';
export { serviceRefs, type ServiceRefs } from './read-model.ts';
export { sellerViewsByDay } from './stats.ts';
export { publicServiceCount, publicServiceLinks } from './sitemap.ts';
export { serviceForOrder, type ServiceForOrder } from './order-terms.ts';
export { countServicesAwaitingModeration } from './admin-stats.ts';
export { servicesOfPerson, hideServicesOf } from './personal-data.ts';
