import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';

const tags = ['health'];

/** Probes of the load balancer: the process answers; the database answers too (else a 503). */
export const healthEndpoints = defineEndpoints({
  'health.live': { access: 'public', tags, response: okSchema(z.object({ alive: z.literal(true) })) },
  'health.ready': { access: 'public', tags, response: okSchema(z.object({ ready: z.literal(true), database: z.string() })) },
});
