import { defineEndpoints } from '../endpoint.ts';
import { idParams } from '../api.ts';
import { offerAnswerSchema, offerChangeSchema, offerInputSchema, offerListSchema } from '../offers.ts';

const tags = ['offers'];

/**
 * Custom offers in an order chat (ADR 066, tag offers): the order's seller offers a new job, its customer accepts it
 * or asks for a change; anyone else does not learn the order or the offer exists (404), an admin may not act (403).
 */
export const offerEndpoints = defineEndpoints({
  'offers.ofOrder': {
    access: 'user',
    tags,
    params: idParams,
    summary: "An order chat's offers, newest first: its parties' only",
    response: offerListSchema,
  },
  'offers.create': {
    access: 'confirmed',
    tags,
    params: idParams,
    body: offerInputSchema,
    summary: "The order's seller offers a new job (whole or in stages); a live offer is replaced by it",
    response: offerAnswerSchema,
  },
  'offers.accept': {
    access: 'confirmed',
    tags,
    params: idParams,
    summary: 'The customer accepts a live offer: a new order awaiting payment (in stages when the offer has them)',
    response: offerAnswerSchema,
  },
  'offers.change': {
    access: 'confirmed',
    tags,
    params: idParams,
    body: offerChangeSchema,
    summary: 'The customer asks the seller to change a live offer',
    response: offerAnswerSchema,
  },
  'offers.withdraw': {
    access: 'confirmed',
    tags,
    params: idParams,
    summary: 'The seller withdraws a live offer',
    response: offerAnswerSchema,
  },
});
