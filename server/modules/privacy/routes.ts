import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { PrivacyService } from './service.ts';

/** The privacy endpoints (contract/endpoints/privacy.ts, ADR 052). */
export const privacyRoutes: FastifyPluginAsync<{ privacy: PrivacyService; reads: ReadHandlers }> = async (app, { privacy, reads }) => {
  const { on, raw } = endpointsOf(app, reads);
  const paged = <T>({ result, total }: { result: T[]; total: number }) => ({ ...ok(result, total), total });

  on('privacy.document', async ({ params }) => ok(await privacy.document(params.kind)));
  on('privacy.status', async ({ user }) => ok(await privacy.status(user)));
  on('privacy.accept', async ({ user, body, ip, userAgent }) => ok(await privacy.accept(user, body.version, { ip, userAgent: userAgent ?? null })));
  on('privacy.requestDeletion', async ({ user, body }) => ok(await privacy.requestDeletion(user, body.password)));
  on('privacy.cancelDeletion', async ({ user }) => ok(await privacy.cancelDeletion(user)));
  // A download: the browser saves it as a file.
  raw('privacy.export', async ({ user }, { reply }) => {
    const data = await privacy.export(user);
    const day = new Date().toISOString().slice(0, 10);
    return reply.header('content-disposition', `attachment; filename="personal-data-${day}.json"`).header('cache-control', 'no-store').send(data);
  });
  on('admin.privacy.documents', async () => ok(await privacy.documents()));
  on('admin.privacy.publish', async ({ user, params, body }) => ok(await privacy.publish(user, params.kind, body)));
  on('admin.privacy.consents', async ({ query }) => paged(await privacy.consents(query.page)));
  on('admin.privacy.deletions', async ({ query }) => paged(await privacy.deletions(query.page)));
};
