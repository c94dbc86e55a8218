import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';

/** The operator settings: read and change them (admins only, every change audited in its transaction). */
export const adminSettingsRoutes: FastifyPluginAsync<{ settings: SettingsService; reads: ReadHandlers }> = async (
  app,
  { settings, reads },
) => {
  const { on } = endpointsOf(app, reads);

  on('admin.settings.get', async () => ok(await settings.all()));

  on('admin.settings.update', async ({ body, user }) => {
    return ok(await settings.update(user, body));
  });
};
