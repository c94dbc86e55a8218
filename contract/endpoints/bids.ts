import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import { keysetPageSchema, pageIdParams } from '../catalog.ts';
import {
  acceptBidInputSchema,
  acceptedBidSchema,
  adminBidsQuerySchema,
  bidInputSchema,
  bidSchema,
  bidsFlagSchema,
  myBidsQuerySchema,
  projectBidsQuerySchema,
} from '../bids.ts';

const tags = ['bids'];
const bidIdParams = idParams;

/**
 * Bids on projects: place, edit, withdraw, accept (tag bids). A project's id is looked up like a page (a malformed
 * one is a 404); a bid's id is a uuid (400 otherwise).
 */
export const bidEndpoints = defineEndpoints({
  'users.myBid': {
    access: 'user',
    tags,
    params: pageIdParams,
    summary: "The caller's own live bid on the project",
    description: 'SPEC §7. The result is the bid (active, accepted or rejected) or null when the caller has none (a withdrawn bid counts as none).',
    response: okSchema(bidSchema.nullable()),
  },
  'bids.flag': {
    access: 'user',
    tags,
    summary: 'Whether new bids arrived on the caller’s projects',
    response: okSchema(bidsFlagSchema),
  },
  'bids.clearFlag': {
    access: 'user',
    tags,
    summary: 'Clears the bids flag (the customer opened /profile/bids)',
    response: okSchema(bidsFlagSchema),
  },
  'bids.create': {
    access: 'confirmed',
    tags,
    params: pageIdParams,
    body: bidInputSchema,
    summary: 'A seller bids on an active project',
    description: 'One live bid per seller and project; at most settings `bids.perDay` new bids a day (429); the comment at least `bids.minComment` characters.',
    response: okSchema(bidSchema),
  },
  'bids.ofProject': {
    access: 'user',
    tags,
    params: pageIdParams,
    query: projectBidsQuerySchema,
    summary: "A project's bids, newest first: its customer's and admins' only",
    response: keysetPageSchema(bidSchema),
  },
  'bids.mine': { access: 'user', tags, query: myBidsQuerySchema, summary: "The seller's own bids", response: keysetPageSchema(bidSchema) },
  'bids.received': {
    access: 'user',
    tags,
    query: myBidsQuerySchema,
    summary: "Bids on the caller's projects, newest first",
    response: keysetPageSchema(bidSchema),
  },
  'bids.update': {
    access: 'user',
    tags,
    params: bidIdParams,
    body: bidInputSchema,
    summary: 'The seller edits an active bid while the project is active',
    response: okSchema(bidSchema),
  },
  'bids.withdraw': {
    access: 'user',
    tags,
    params: bidIdParams,
    summary: 'The seller withdraws an active bid while the project is active',
    response: okSchema(bidSchema),
  },
  'bids.accept': {
    access: 'confirmed',
    tags,
    params: bidIdParams,
    summary: "The project's customer accepts a bid: an order awaiting payment",
    description:
      'One transaction: the order (with its chat), the bid accepted, the other active bids rejected, the project in progress. The body is the price and days the customer saw: 409 when the seller changed them since. A second accept gets 409.',
    body: acceptBidInputSchema,
    response: okSchema(acceptedBidSchema),
  },
  'admin.bids.list': { access: 'admin', tags, query: adminBidsQuerySchema, summary: 'Every bid, newest first', response: keysetPageSchema(bidSchema) },
  'admin.bids.remove': {
    access: 'admin',
    tags,
    params: bidIdParams,
    summary: 'An admin removes an abusive bid (not an accepted one)',
    response: okSchema(z.object({ _id: z.string() })),
  },
});
