// People in the catalogue: the freelancers listing and public profiles.
export { PeopleService, publicFreelancersByIds } from './service.ts';
export { peopleRoutes } from './routes.ts';
// A person's public card and visibility are the users module's; re-exported for the modules that import them from
// here, until they import them from users.
export { presentPublicUser, publicUserColumns, type PublicUserRow } from '../users/index.ts';
export { isVisiblePerson, ownedByVisiblePerson, personPolicy, visibleFreelancer, visiblePerson } from '../users/index.ts';
export { peopleModule } from './module.ts';
