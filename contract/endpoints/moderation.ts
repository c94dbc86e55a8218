import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, listingAnswerSchema, okSchema } from '../api.ts';
import {
  adminSearchSuggestionSchema,
  adminSearchSuggestionsQuerySchema,
  keysetPageSchema,
  projectInputSchema,
  serviceInputSchema,
  serviceSchema,
} from '../catalog.ts';
import {
  adminProjectDetailSchema,
  adminProjectSchema,
  adminProjectsQuerySchema,
  adminServicesQuerySchema,
  projectDecisionSchema,
  serviceDecisionSchema,
} from '../moderation.ts';

// The admin area's moderation of the catalogue: services (/admin/services), projects (/admin/projects) and the
// header's search suggestions (/admin/search-suggestions). The whole /api/admin prefix is refused to anyone but
// an admin before anything is read (server/app.ts).

const tags = ['admin'];

export const moderationEndpoints = defineEndpoints({
  'admin.services.list': { access: 'admin', tags, query: adminServicesQuerySchema, response: listingAnswerSchema(serviceSchema) },
  'admin.services.get': { access: 'admin', tags, params: idParams, response: okSchema(serviceSchema) },
  'admin.services.moderate': { access: 'admin', tags, params: idParams, body: serviceDecisionSchema, response: okSchema(serviceSchema) },
  'admin.services.update': { access: 'admin', tags, params: idParams, body: serviceInputSchema, response: okSchema(serviceSchema) },

  'admin.projects.list': { access: 'admin', tags, query: adminProjectsQuerySchema, response: keysetPageSchema(adminProjectSchema) },
  'admin.projects.get': { access: 'admin', tags, params: idParams, response: okSchema(adminProjectDetailSchema) },
  'admin.projects.moderate': { access: 'admin', tags, params: idParams, body: projectDecisionSchema, response: okSchema(adminProjectSchema) },
  'admin.projects.update': { access: 'admin', tags, params: idParams, body: projectInputSchema, response: okSchema(adminProjectSchema) },

  'admin.searchSuggestions.list': {
    access: 'admin',
    tags,
    description: 'The suggestions offered now (or, with `hidden`, those removed), most searched first.',
    query: adminSearchSuggestionsQuerySchema,
    response: okSchema(z.array(adminSearchSuggestionSchema)),
  },
  'admin.searchSuggestions.hide': {
    access: 'admin',
    tags,
    description: 'Removes a suggestion for good: it is never offered again, however often it is searched.',
    params: z.object({ query: z.string().max(200) }),
    response: okSchema(z.string()),
  },
});
