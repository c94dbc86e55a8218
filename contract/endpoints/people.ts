import { defineEndpoints } from '../endpoint.ts';
import { okSchema, publicListingSchema } from '../api.ts';
import { freelancersQuerySchema, pageIdParams, publicProfileSchema, publicUserSchema } from '../catalog.ts';

const tags = ['people'];

/** The freelancers listing and a person's public page (/user/{id}); both open to everybody. */
export const peopleEndpoints = defineEndpoints({
  'people.freelancers': { access: 'public', tags, query: freelancersQuerySchema, response: publicListingSchema(publicUserSchema) },
  // A page lookup: a malformed id is a 404 like an unknown one (the service checks it), not a 400. The static
  // /api/users/me/ route wins over this one.
  'people.profile': { access: 'public', tags, params: pageIdParams, response: okSchema(publicProfileSchema) },
});
