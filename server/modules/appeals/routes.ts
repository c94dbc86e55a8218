import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { AppealService } from './service.ts';

/** The appeals endpoints (contract/endpoints/appeals.ts), the admin's included (app.ts guards /api/admin). */
export const appealRoutes: FastifyPluginAsync<{ appeals: AppealService; reads: ReadHandlers }> = async (app, { appeals, reads }) => {
  const { on } = endpointsOf(app, reads);
  const listed = <T>({ result, total, next }: { result: T[]; total: number; next: string | null }) => ({ ...ok(result, total), total, next });

  on('appeals.create', async ({ body, user, ip }) => ok(await appeals.create(user, ip, body)));
  on('appeals.mine', async ({ query, user }) => listed(await appeals.mine(user, query)));
  on('appeals.target', async ({ query, user }) => ok(await appeals.target(user, query)));
  on('appeals.get', async ({ params, user }) => ok(await appeals.get(user, params.id)));
  on('admin.appeals.list', async ({ query }) => listed(await appeals.adminList(query)));
  on('admin.appeals.get', async ({ params, user }) => ok(await appeals.adminGet(user, params.id)));
  on('admin.appeals.take', async ({ params, user }) => ok(await appeals.take(user, params.id)));
  on('admin.appeals.answer', async ({ params, body, user }) => ok(await appeals.answer(user, params.id, body)));
};
