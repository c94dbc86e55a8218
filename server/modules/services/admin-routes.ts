import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceInputSchema, serviceSchema, LISTING_MAX_LIMIT } from '#contract/catalog';
import { okSchema } from '#contract/api';
import { SERVICE_STATUSES } from '../../db/schema/catalog.ts';
import { ok } from '../../lib/http.ts';
import { requireAdmin } from '../../lib/auth.ts';
import { listingAnswerSchema } from '#contract/api';
import { ADMIN_SERVICE_MESSAGES, type ServiceCatalog } from './service.ts';

// Candidates for contract/admin.ts once the admin pages (/admin/services) use them.

export const adminServicesQuerySchema = z.object({
  status: z.enum(SERVICE_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(LISTING_MAX_LIMIT).default(20),
});

/** An admin decision: approve or restore (active), reject or hide, the latter two with a reason for the seller. */
export const serviceDecisionSchema = z
  .object({
    status: z.enum(['active', 'rejected', 'hidden']),
    reason: z.string().trim().max(1000, 'Причина — до 1000 символов').optional(),
  })
  .refine((v) => v.status === 'active' || (v.reason !== undefined && v.reason.length >= 3), {
    message: ADMIN_SERVICE_MESSAGES.reasonRequired,
    path: ['reason'],
  });

const security = [{ bearer: [] }];
const tags = ['admin'];
const params = z.object({ id: z.uuid('Неверный идентификатор') });

/** Moderation of services (/admin/services): the queue, one service, decisions and edits. */
export const adminServicesRoutes: FastifyPluginAsyncZod<{ catalog: ServiceCatalog }> = async (app, { catalog }) => {
  // Before validation, so a non-admin learns nothing from a 400 (app.ts checks the /api/admin prefix as well).
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/services',
    { schema: { tags, security, querystring: adminServicesQuerySchema, response: { 200: listingAnswerSchema(serviceSchema) } } },
    async (request) => {
      const { result, total, next } = await catalog.adminList(request.query);
      return { ...ok(result, total), total, next };
    },
  );

  app.get(
    '/api/admin/services/:id',
    { schema: { tags, security, params, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.adminGet(request.params.id)),
  );

  app.patch(
    '/api/admin/services/:id',
    { schema: { tags, security, params, body: serviceDecisionSchema, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.decide(requireAdmin(request), request.params.id, request.body)),
  );

  app.put(
    '/api/admin/services/:id',
    { schema: { tags, security, params, body: serviceInputSchema, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.adminUpdate(requireAdmin(request), request.params.id, request.body)),
  );
};
