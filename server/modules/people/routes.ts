import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { PeopleService } from './service.ts';

/** The freelancers listing and a person's public page (/user/{id}); both open to everybody. */
export const peopleRoutes: FastifyPluginAsync<{ people: PeopleService; reads: ReadHandlers }> = async (app, { people, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('people.freelancers', async ({ query }) => {
    const { result, total, total_exact, next } = await people.freelancers(query);
    return { ...ok(result, total), total, total_exact, next };
  });

  // A malformed id is a 404 like an unknown one (the service checks it). The static /api/users/me/ route wins.
  on('people.profile', async ({ params, user }) => ok(await people.profile(params.id, user)));
};
