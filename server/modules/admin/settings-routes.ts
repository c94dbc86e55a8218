import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '#contract/api';
import { settingsPatchSchema, settingsSchema } from '#contract/settings';
import type { Db } from '../../db/client.ts';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { audit } from '../../platform/audit.ts';

const security = [{ bearer: [] }];

/** The operator settings: read and change them (admins only, every change audited). */
export const adminSettingsRoutes: FastifyPluginAsyncZod<{ db: Db; settings: SettingsService }> = async (app, { db, settings }) => {
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/settings',
    { schema: { tags: ['settings'], summary: 'Operator settings', security, response: { 200: okSchema(settingsSchema) } } },
    async () => ok(await settings.all()),
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['settings'],
        summary: 'Change operator settings (any subset)',
        security,
        body: settingsPatchSchema,
        response: { 200: okSchema(settingsSchema) },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      const updated = await settings.update(request.body);
      await audit(db, { actorId: admin.id, action: 'settings.update', targetType: 'settings', targetId: 'settings', details: request.body });
      return ok(updated);
    },
  );
};
