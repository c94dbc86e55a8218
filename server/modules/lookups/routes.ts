import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { Precompressed } from '../../lib/precompressed.ts';
import { endpoints } from '#contract/endpoints';
import { notFound } from '../../lib/http.ts';
import {
  CATALOGUE_FILE_CACHE_CONTROL,
  LOOKUP_CACHE_CONTROL,
  LOOKUP_ENDPOINTS,
  PRIVATE_LOOKUP_CACHE_CONTROL,
  type LookupList,
  type LookupService,
} from './service.ts';

/** The catalogue file's name: a 12-character hash. */
const CATALOGUE_FILE_RE = /^[\w-]{12}\.json$/;

// The lists are the same for everybody and change rarely: each answer is serialised and compressed once
// (LookupService) and only picked per request. While it is fresh, the HTTP edge answers it before Fastify
// (server/lib/fast-answers.ts); this route answers the first request after a cache period and in-process callers.
// The contract's schemas still document the answers.

function send(request: FastifyRequest, reply: FastifyReply, answer: Precompressed, cacheControl: string) {
  const variant = answer.pick(request.headers['accept-encoding']);
  reply.headers({ ...Precompressed.headers(answer, variant), 'cache-control': cacheControl });
  if (Precompressed.fresh(variant, request.headers['if-none-match'])) return reply.code(304).send();
  return reply.send(variant.body);
}

export const lookupRoutes: FastifyPluginAsync<{ lookups: LookupService; reads: ReadHandlers }> = async (app, { lookups, reads }) => {
  const { raw } = endpointsOf(app, reads);
  for (const [name, list] of Object.entries(LOOKUP_ENDPOINTS) as [keyof typeof LOOKUP_ENDPOINTS, LookupList][]) {
    const cacheControl = endpoints[name].access === 'public' ? LOOKUP_CACHE_CONTROL : PRIVATE_LOOKUP_CACHE_CONTROL;
    raw(name, async (_input, { request, reply }) => send(request, reply, await lookups.answer(list), cacheControl));
  }
  // The current catalogue under any hash: a page rendered before a change still gets a catalogue, but only the
  // current address is kept for good.
  raw('lookups.catalogue', async ({ params }, { request, reply }) => {
    if (!CATALOGUE_FILE_RE.test(params.file)) throw notFound();
    const file = await lookups.catalogueFile();
    const current = `/catalogue/${params.file}` === file.path;
    return send(request, reply, file.answer, current ? CATALOGUE_FILE_CACHE_CONTROL : 'no-cache');
  });
};
