import { defineModule } from '../../platform/module.ts';
import { ProjectService } from './service.ts';
import { archiveStaleProjects } from './jobs.ts';
import { projectRoutes } from './routes.ts';
import { adminProjectRoutes } from './admin-routes.ts';
import { projectFileUses } from './file-uses.ts';

declare module '../../platform/module.ts' {
  interface Services {
    projects: ProjectService;
  }
}

export const projectsModule = defineModule({
  name: 'projects',
  create: ({ db, log, seen, services: { realtime, platform, letters, settings } }) => ({
    projects: new ProjectService({
      db,
      presence: realtime,
      withTx: platform.withTx,
      letters,
      log,
      seen,
      synonyms: async () => (await settings.all())['search.synonyms'],
    }),
  }),
  async routes(app, { services: { projects }, reads }) {
    await app.register(projectRoutes, { projects, reads });
    await app.register(adminProjectRoutes, { projects, reads });
  },
  recurring: [{ job: 'archive-stale-projects', everyMs: 60 * 60_000, run: ({ db }) => archiveStaleProjects(db) }],
  fileUses: projectFileUses,
});
