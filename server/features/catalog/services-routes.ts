import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCardSchema, serviceInputSchema, serviceSchema, servicesQuerySchema, serviceStatusActionSchema } from '#contract/catalog';
import { okSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireConfirmed, requireUser } from '../../lib/auth.ts';
import type { ServiceCatalog } from './services-service.ts';
import type { SearchSuggestions } from './search-suggestions.ts';
import { searchSuggestionRoutes } from './search-suggestions-routes.ts';
import { visitorOf } from './visitors.ts';

const security = [{ bearer: [] }];
const tags = ['services'];
const params = z.object({ id: z.uuid('Неверный идентификатор') });

/** A page of a keyset listing: `next` is the cursor of the following page, null on the last one. */
export const listingAnswerSchema = <T extends z.ZodType>(item: T) =>
  okSchema(z.array(item)).extend({ total: z.number().int(), next: z.string().nullable() });

/** A page of a public listing: `total` is a count when `total_exact`, else the planner's rounded estimate. */
export const publicListingSchema = <T extends z.ZodType>(item: T) =>
  listingAnswerSchema(item).extend({ total_exact: z.boolean() });

/** The public catalogue of services and the seller's own ones (/profile/items). */
export const servicesRoutes: FastifyPluginAsyncZod<{ catalog: ServiceCatalog; suggestions: SearchSuggestions }> = async (
  app,
  { catalog, suggestions },
) => {
  await app.register(searchSuggestionRoutes, { suggestions });

  app.get(
    '/api/services',
    { schema: { tags, querystring: servicesQuerySchema, response: { 200: publicListingSchema(serviceCardSchema) } } },
    async (request) => {
      const { result, total, total_exact, next } = await catalog.list(request.query);
      // A first page that found something makes its search a candidate for the header's suggestions.
      if (request.query.q && !request.query.cursor && total > 0) await suggestions.record(request.query.q, visitorOf(request.user, request.ip));
      return { ...ok(result, total), total, total_exact, next };
    },
  );

  app.get(
    '/api/services/my',
    { schema: { tags, security, response: { 200: okSchema(z.array(serviceSchema)) } } },
    async (request) => {
      const result = await catalog.mine(requireUser(request));
      return ok(result, result.length);
    },
  );

  app.get(
    '/api/services/:id',
    { schema: { tags, params, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.get(request.user, request.params.id, visitorOf(request.user, request.ip))),
  );

  app.post(
    '/api/services',
    { schema: { tags, security, body: serviceInputSchema, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.create(requireConfirmed(request), request.body)),
  );

  app.put(
    '/api/services/:id',
    { schema: { tags, security, params, body: serviceInputSchema, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.update(requireConfirmed(request), request.params.id, request.body)),
  );

  app.delete(
    '/api/services/:id',
    { schema: { tags, security, params, response: { 200: okSchema(z.literal(true)) } } },
    async (request) => {
      await catalog.remove(requireUser(request), request.params.id);
      return ok(true as const);
    },
  );

  app.patch(
    '/api/services/:id/status',
    { schema: { tags, security, params, body: serviceStatusActionSchema, response: { 200: okSchema(serviceSchema) } } },
    async (request) => ok(await catalog.changeStatus(requireUser(request), request.params.id, request.body.action)),
  );
};
