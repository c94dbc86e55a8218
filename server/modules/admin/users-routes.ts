import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoleSchema, adminUserSchema, adminUsersQuerySchema, auditEntrySchema, blockUserSchema } from '#contract/admin';
import { okSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import type { AdminUserService } from './users-service.ts';

const security = [{ bearer: [] }];
const params = z.object({ id: z.uuid('Неверный идентификатор') });

export const adminUserRoutes: FastifyPluginAsyncZod<{ adminUsers: AdminUserService }> = async (app, { adminUsers }) => {
  // Before validation, so a non-admin learns nothing from a 400; app.ts checks by URL prefix as well,
  // this also covers a path that reaches these routes spelled differently (percent-encoded).
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/users',
    { schema: { tags: ['admin'], security, querystring: adminUsersQuerySchema, response: { 200: okSchema(z.array(adminUserSchema)) } } },
    async (request) => {
      requireAdmin(request);
      const { result, total } = await adminUsers.list(request.query);
      return ok(result, total);
    },
  );

  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        security,
        params,
        response: { 200: okSchema(z.object({ user: adminUserSchema, audit: z.array(auditEntrySchema) })) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return ok(await adminUsers.get(request.params.id));
    },
  );

  app.patch(
    '/api/admin/users/:id/block',
    { schema: { tags: ['admin'], security, params, body: blockUserSchema, response: { 200: okSchema(adminUserSchema) } } },
    async (request) =>
      ok(await adminUsers.setBlocked(requireAdmin(request), request.params.id, request.body.blocked, request.body.reason)),
  );

  app.patch(
    '/api/admin/users/:id/admin',
    { schema: { tags: ['admin'], security, params, body: adminRoleSchema, response: { 200: okSchema(adminUserSchema) } } },
    async (request) => ok(await adminUsers.setAdmin(requireAdmin(request), request.params.id, request.body.admin)),
  );
};
