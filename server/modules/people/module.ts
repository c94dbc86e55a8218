import { defineModule } from '../../platform/module.ts';
import { PeopleService } from './service.ts';
import { peopleRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    people: PeopleService;
  }
}

export const peopleModule = defineModule({
  name: 'people',
  create: ({ db, services: { realtime } }) => ({ people: new PeopleService({ db, presence: realtime }) }),
  routes: (app, { services: { people }, reads }) => app.register(peopleRoutes, { people, reads }),
});
