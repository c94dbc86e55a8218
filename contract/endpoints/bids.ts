import { defineEndpoints } from '../endpoint.ts';

/** Bids on projects: place, edit, withdraw, accept (tag bids). */
export const bidEndpoints = defineEndpoints({});
