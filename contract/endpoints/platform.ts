import { defineEndpoints } from '../endpoint.ts';
import { okSchema, ratesSchema, routeRuleQuerySchema, routeRuleSchema } from '../api.ts';
import { paymentRatesSchema } from '../payments.ts';

/** What every page needs from the platform: currency rates, the ways to pay, an operator's redirect of a path. */
export const platformEndpoints = defineEndpoints({
  'rates.get': { access: 'public', tags: ['rates'], response: okSchema(ratesSchema) },
  // SPEC §7: the ways to pay, fetched by the client at sign-in.
  'payments.rates': { access: 'user', tags: ['payments'], response: okSchema(paymentRatesSchema) },
  'routeRules.get': { access: 'public', tags: ['route-rules'], query: routeRuleQuerySchema, response: okSchema(routeRuleSchema) },
});
