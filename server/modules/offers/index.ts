// Custom offers in an order chat (ADR 066).
export { OfferService } from './service.ts';
export { offerPolicy } from './policy.ts';
export { offersModule } from './module.ts';
export { offersOfPerson, eraseOffersOf } from './personal-data.ts';
