import { defineModule } from '../../platform/module.ts';
import { PrivacyService } from './service.ts';
import { privacyRoutes } from './routes.ts';
import { ANONYMISE_JOB } from './commands/anonymise.ts';

declare module '../../platform/module.ts' {
  interface Services {
    privacy: PrivacyService;
  }
}

export const privacyModule = defineModule({
  name: 'privacy',
  // Personal data under 152-ФЗ (ADR 052).
  create: ({ db, services: { platform, settings, auth, letters } }) => ({
    privacy: new PrivacyService({ db, platform, settings, passwords: auth, letters, factors: auth }),
  }),
  routes: (app, { services: { privacy }, reads }) => app.register(privacyRoutes, { privacy, reads }),
  recurring: [{ job: ANONYMISE_JOB, everyMs: 60 * 60_000, run: ({ services }) => services.privacy.anonymiseDue() }],
});
