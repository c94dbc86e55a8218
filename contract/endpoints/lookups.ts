import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { categorySchema, citySchema, countrySchema, okSchema, subCategorySchema, tagSchema } from '../api.ts';

const list = <T extends z.ZodType>(item: T) => okSchema(z.array(item));
const tags = ['lookups'];

export const lookupEndpoints = defineEndpoints({
  'lookups.cities': { access: 'public', tags, response: list(citySchema) },
  'lookups.countries': { access: 'public', tags, response: list(countrySchema) },
  'lookups.categories': { access: 'public', tags, response: list(categorySchema) },
  'lookups.subCategories': { access: 'public', tags, response: list(subCategorySchema) },
  'lookups.tags': { access: 'user', tags, response: list(tagSchema) },
  // The catalogue tree for the pages' menus and filters, named by its content's hash (ADR 021).
  'lookups.catalogue': {
    access: 'public',
    tags,
    summary: 'The catalogue tree (categories with their sub-categories, by slug) that pages load once and browsers keep',
    params: z.object({ file: z.string().max(64) }),
    response: z.array(z.object({ slug: z.string(), title: z.string(), subs: z.array(z.object({ slug: z.string(), title: z.string() })) })),
  },
});
