import { defineModule } from '../../platform/module.ts';
import { DisputeService } from './service.ts';
import { DISPUTE_ANNOUNCE_JOB } from './announce.ts';
import { disputeRoutes } from './routes.ts';
import { disputeFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    disputes: DisputeService;
  }
}

export const disputesModule = defineModule({
  name: 'disputes',
  create: ({ db, log, services: { platform, settings, letters, realtime, chat, orders, limiter } }) => ({
    disputes: new DisputeService({ db, platform, settings, letters, realtime, chat, orders, limiter, log }),
  }),
  routes: (app, { services: { disputes }, reads }) => app.register(disputeRoutes, { disputes, reads }),
  // A dispute's change is told to both sides after its commit.
  subscribe({ services: { platform, disputes } }) {
    platform.dispatcher.handle<{ disputeId: string }>(DISPUTE_ANNOUNCE_JOB, ({ disputeId }) => disputes.announce(disputeId));
  },
  fileUses: disputeFileUses,
});
