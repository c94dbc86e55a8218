import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema, publicListingSchema } from '../api.ts';
import { keysetPageSchema, myProjectsQuerySchema, pageIdParams, projectInputSchema, projectSchema, projectsQuerySchema } from '../catalog.ts';

const tags = ['projects'];

/**
 * Customers' projects: the public listing and page, and the customer's own ones (/profile/items). Their paths'
 * ids are looked up like a page: a malformed one is a 404 like an unknown one (the service checks it), not a 400.
 */
export const projectEndpoints = defineEndpoints({
  'projects.list': { access: 'public', tags, query: projectsQuerySchema, response: publicListingSchema(projectSchema) },
  'projects.mine': { access: 'user', tags, query: myProjectsQuerySchema, response: keysetPageSchema(projectSchema) },
  'projects.get': { access: 'public', tags, params: pageIdParams, response: okSchema(projectSchema) },
  'projects.create': { access: 'confirmed', tags, body: projectInputSchema, response: okSchema(projectSchema) },
  'projects.update': { access: 'confirmed', tags, params: pageIdParams, body: projectInputSchema, response: okSchema(projectSchema) },
  'projects.remove': { access: 'user', tags, params: pageIdParams, response: okSchema(z.object({ _id: z.string() })) },
});
