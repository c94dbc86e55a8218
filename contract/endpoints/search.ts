import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { searchSuggestionsQuerySchema } from '../catalog.ts';

/** The header's search suggestions (their moderation is the admin area's, contract/endpoints/moderation.ts). */
export const searchEndpoints = defineEndpoints({
  'search.suggestions': {
    access: 'public',
    tags: ['services'],
    description: 'Popular searches starting with `q` (the most popular ones without it), for the header search box.',
    query: searchSuggestionsQuerySchema,
    response: okSchema(z.array(z.string())),
  },
});
