// People in the catalogue: the freelancers listing and public profiles.
export { PeopleService, publicFreelancersByIds } from './service.ts';
export { peopleRoutes } from './routes.ts';
export { peopleModule } from './module.ts';
