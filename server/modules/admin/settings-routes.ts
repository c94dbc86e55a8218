import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { ok } from '../../lib/http.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { audit } from '../../platform/audit.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';

/** The operator settings: read and change them (admins only, every change audited). */
export const adminSettingsRoutes: FastifyPluginAsync<{ db: Db; settings: SettingsService; reads: ReadHandlers }> = async (
  app,
  { db, settings, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('admin.settings.get', async () => ok(await settings.all()));

  on('admin.settings.update', async ({ body, user }) => {
    const updated = await settings.update(body);
    await audit(db, { actorId: user.id, action: 'settings.update', targetType: 'settings', targetId: 'settings', details: body });
    return ok(updated);
  });
};
