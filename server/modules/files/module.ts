import { storageFor } from '../../lib/storage-for.ts';
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
  // It keeps what the modules' declared uses name (ADR 041), in the data folder or the S3 bucket (ADR 060).
  create: ({ db, env, fileUses, services: { settings, limiter, platform } }) => ({
    files: new FileService(db, storageFor(env), { uses: fileUses, settings, limiter, withTx: platform.withTx }),
  }),
  routes: (app, { db, services: { files, tokens }, reads }) => app.register(filesRoutes, { files, tokens, db, reads }),
  recurring: [
    { job: 'uploads-cleanup', everyMs: 60 * 60_000, run: ({ services: { files } }) => files.sweepUnused(new Date(Date.now() - UNUSED_UPLOAD_MS)) },
  ],
  close: async ({ files }) => {
    await files.variants.close();
    await files.storage.close?.();
  },
});
