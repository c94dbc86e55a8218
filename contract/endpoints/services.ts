import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema, publicListingSchema } from '../api.ts';
import {
  sellerServicesQuerySchema,
  serviceCardSchema,
  serviceInputSchema,
  serviceSchema,
  servicesQuerySchema,
  serviceStatusActionSchema,
} from '../catalog.ts';

const tags = ['services'];

/** The public catalogue of services and the seller's own ones (/profile/items). */
export const serviceEndpoints = defineEndpoints({
  'services.list': {
    access: 'public',
    tags,
    query: servicesQuerySchema,
    // `corrected`: the search found nothing, and these are the results of this corrected query (ADR 028).
    response: publicListingSchema(serviceCardSchema).extend({ corrected: z.string().optional() }),
  },
  'services.mine': { access: 'user', tags, response: okSchema(z.array(serviceSchema)) },
  'services.get': { access: 'public', tags, params: idParams, response: okSchema(serviceSchema) },
  // A seller's public services and how many there are (a service page's «Другие услуги продавца»): public services
  // only, so an unknown or blocked seller has none.
  'services.ofSeller': {
    access: 'public',
    tags,
    summary: "A seller's public services, most popular first, with their total",
    params: idParams,
    query: sellerServicesQuerySchema,
    response: okSchema(z.array(serviceCardSchema)),
  },
  'services.create': { access: 'confirmed', tags, body: serviceInputSchema, response: okSchema(serviceSchema) },
  'services.update': { access: 'confirmed', tags, params: idParams, body: serviceInputSchema, response: okSchema(serviceSchema) },
  'services.remove': { access: 'user', tags, params: idParams, response: okSchema(z.literal(true)) },
  'services.changeStatus': { access: 'user', tags, params: idParams, body: serviceStatusActionSchema, response: okSchema(serviceSchema) },
});
