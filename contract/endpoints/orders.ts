import { defineEndpoints } from '../endpoint.ts';

/** Orders and their lifecycle (tag orders). */
export const orderEndpoints = defineEndpoints({});
