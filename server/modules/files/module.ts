import { LocalStorage, uploadsRoot } from '../../lib/storage.ts';
import { defineModule } from '../../platform/module.ts';
import { FileService } from './service.ts';
import { filesRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    files: FileService;
  }
}

/** An upload nothing uses is deleted once it is this old (time enough to finish the form it was made for). */
export const UNUSED_UPLOAD_MS = 24 * 60 * 60_000;

export const filesModule = defineModule({
  name: 'files',
  // It keeps what the modules' declared uses name (ADR 041).
  create: ({ db, env, fileUses, services: { settings, limiter, platform } }) => ({
    files: new FileService(db, new LocalStorage(uploadsRoot(env.DATA_DIR)), { uses: fileUses, settings, limiter, withTx: platform.withTx }),
  }),
  routes: (app, { db, services: { files, tokens }, reads }) => app.register(filesRoutes, { files, tokens, db, reads }),
  recurring: [
    { job: 'uploads-cleanup', everyMs: 60 * 60_000, run: ({ services: { files } }) => files.sweepUnused(new Date(Date.now() - UNUSED_UPLOAD_MS)) },
  ],
  close: ({ files }) => files.variants.close(),
});
