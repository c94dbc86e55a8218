import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// How dynamic answers are compressed (ADR 019). An answer already whole in memory (every JSON answer, a rendered
// document) is compressed by one call of zlib on libuv's thread pool. @fastify/compress pushes one over its synchronous
// limit (8 KiB on two cores: a listing page is 11 KiB) through a chain of streams, and that chain cost the event loop
// more than the compression it hands off: a sixth to a fifth of a saturated listing's CPU at a million services
// (bench/README.md). Streams (a data request, a file) and anything this hook leaves alone still go to
// @fastify/compress, with the same settings, but for the quality of a small answer's brotli (SMALL_ANSWER).

/** The settings of every dynamic answer's compression, this hook's and @fastify/compress's. */
export const DYNAMIC_COMPRESSION = {
  /** Smaller answers are not worth a compressor. */
  threshold: 1024,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } } as BrotliOptions,
  zlibOptions: { level: 6 } as ZlibOptions,
};

/**
 * An answer up to `bytes` (a catalogue page is 11 KiB) is brotli-compressed at quality 3, not 4: 2.6 % more bytes,
 * but quality 4 sets up a larger hash table for every call, and a listing at a million services served 6-9 % more
 * requests without it (ADR 019, amendment of session 47). A document (80 KiB) keeps quality 4: 8 % fewer bytes.
 */
export const SMALL_ANSWER = {
  bytes: 32 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } } as BrotliOptions,
};

const [brotliCompressing, gzipping] = [promisify(brotliCompress), promisify(gzip)];
const compressors = {
  br: (input: Buffer) =>
    brotliCompressing(input, input.length <= SMALL_ANSWER.bytes ? SMALL_ANSWER.brotliOptions : DYNAMIC_COMPRESSION.brotliOptions),
  gzip: (input: Buffer) => gzipping(input, DYNAMIC_COMPRESSION.zlibOptions),
};

const negotiator = new Negotiator({ supportedValues: DYNAMIC_COMPRESSION.encodings });
/** As @fastify/compress reads the header: `*` (no preference) and `x-gzip` mean gzip. */
const GZIP_ALIASES = /\*|x-gzip/gu;

/** What this hook compresses (the rest is @fastify/compress's to judge with mime-db): text, JSON and XML. */
const TEXTUAL = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml)(?:;|$))/u;

/** The coding the client takes for a dynamic answer, if any: br before gzip, none without a header or on request. */
export function acceptedCoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = request.headers['accept-encoding'];
  if (!accepted || request.headers['x-no-compression'] !== undefined) return null;
  return negotiator.negotiate(accepted.toLowerCase().replace(GZIP_ALIASES, 'gzip')) as 'br' | 'gzip' | null;
}

/**
 * The settings a render thread compresses a document with (server/render-worker.mjs, ADR 019's session 55 amendment):
 * this hook's, as plain data a thread can be sent.
 */
export const DOCUMENT_COMPRESSION = {
  threshold: DYNAMIC_COMPRESSION.threshold,
  smallBytes: SMALL_ANSWER.bytes,
  smallBrotli: SMALL_ANSWER.brotliOptions,
  brotli: DYNAMIC_COMPRESSION.brotliOptions,
  gzip: DYNAMIC_COMPRESSION.zlibOptions,
};

/** The coding to compress `payload` with, or null to leave it to @fastify/compress (which then passes over it). */
function codingFor(request: FastifyRequest, reply: FastifyReply, payload: unknown): 'br' | 'gzip' | null {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  if (!request.headers['accept-encoding'] || request.headers['x-no-compression'] !== undefined) return null;
  // Already coded (a kept page, ADR 021, or a document a render thread compressed) or a range: as it is.
  const coded = reply.getHeader('content-encoding');
  if ((coded && coded !== 'identity') || reply.statusCode === 206 || reply.hasHeader('content-range')) return null;
  if (Buffer.byteLength(payload) < DYNAMIC_COMPRESSION.threshold) return null;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !TEXTUAL.test(type)) return null;
  return acceptedCoding(request);
}

function varyOnEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const values = vary === undefined ? [] : Array.isArray(vary) ? vary : [String(vary)];
  if (!values.some((v) => v.toLowerCase().includes('accept-encoding'))) reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

/**
 * Registers the hook: before @fastify/compress's (an app's hooks run before a route's), which it leaves nothing to.
 * It calls `done`, not returning a promise, like the edge's hooks (ADR 087).
 */
export function compressBufferedAnswers(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    const coding = codingFor(request, reply, payload);
    if (!coding) return done(null, payload);
    compressors[coding](Buffer.isBuffer(payload) ? payload : Buffer.from(payload as string)).then((compressed) => {
      varyOnEncoding(reply);
      reply.header('content-encoding', coding);
      reply.header('content-length', compressed.length);
      done(null, compressed);
    }, done);
  });
}
