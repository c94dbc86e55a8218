import { defineModule } from '../../platform/module.ts';
import { AppealService } from './service.ts';
import { appealRoutes } from './routes.ts';
import { appealFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    appeals: AppealService;
  }
}

export const appealsModule = defineModule({
  name: 'appeals',
  // Appeals to the administration (issue 14).
  create: ({ db, services: { platform, settings, letters, disputes } }) => ({ appeals: new AppealService({ db, platform, settings, letters, disputes }) }),
  routes: (app, { services: { appeals }, reads }) => app.register(appealRoutes, { appeals, reads }),
  fileUses: appealFileUses,
});
