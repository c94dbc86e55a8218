// People in the catalogue: freelancers, public profiles, and who the public may see.
export { PeopleService, publicFreelancersByIds, publicServiceCardsByIds } from './service.ts';
export { peopleRoutes } from './routes.ts';
export { presentPublicUser, publicUserColumns, type PublicUserRow } from './query.ts';
export { isVisiblePerson, ownedByVisiblePerson, personPolicy, visibleFreelancer, visiblePerson } from './policy.ts';
