import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { ok } from '../../lib/http.ts';
import { auditPage } from '../../platform/audit.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { OverviewService } from './overview-service.ts';

/** The admin home's figures and the audit log (admins only, ADR 036). */
export const adminOverviewRoutes: FastifyPluginAsync<{ overview: OverviewService; db: Db; reads: ReadHandlers }> = async (app, { overview, db, reads }) => {
  const { on } = endpointsOf(app, reads);
  on('admin.overview', async ({ query }) => ok(await overview.overview(query)));
  on('admin.audit.list', async ({ query }) => {
    const { rows, next } = await auditPage(db, query);
    return { ...ok(rows), next };
  });
};
