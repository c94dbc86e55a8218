import type { FastifyPluginAsync } from 'fastify';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { LookupService } from './service.ts';

// The lists are the same for everybody and change rarely: each answer is serialised once and cached
// (LookupService), then sent as it is. The contract's schemas still document the answers.
const JSON_TYPE = 'application/json; charset=utf-8';

export const lookupRoutes: FastifyPluginAsync<{ lookups: LookupService; reads: ReadHandlers }> = async (app, { lookups, reads }) => {
  const { raw } = endpointsOf(app, reads);
  raw('lookups.cities', async (_input, { reply }) => reply.type(JSON_TYPE).send(await lookups.answer('cities')));
  raw('lookups.countries', async (_input, { reply }) => reply.type(JSON_TYPE).send(await lookups.answer('countries')));
  raw('lookups.categories', async (_input, { reply }) => reply.type(JSON_TYPE).send(await lookups.answer('categories')));
  raw('lookups.subCategories', async (_input, { reply }) => reply.type(JSON_TYPE).send(await lookups.answer('subCategories')));
  raw('lookups.tags', async (_input, { reply }) => reply.type(JSON_TYPE).send(await lookups.answer('tags')));
};
