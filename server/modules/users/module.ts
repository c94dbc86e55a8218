import { defineModule } from '../../platform/module.ts';
import { UserService } from './service.ts';
import { userRoutes } from './routes.ts';
import { userFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    users: UserService;
  }
}

export const usersModule = defineModule({
  name: 'users',
  create: ({ db, services: { auth, tokens, platform, letters } }) => ({
    users: new UserService({ db, auth, tokens, withTx: platform.withTx, letters }),
  }),
  routes: (app, { services: { users }, reads }) => app.register(userRoutes, { users, reads }),
  fileUses: userFileUses,
});
