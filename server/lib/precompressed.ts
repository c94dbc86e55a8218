import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

// An answer that is the same for everybody (a lookup list) is serialised and compressed once, when it is loaded,
// and then only picked per request: no per-request JSON, no per-request compression (ADR 019).

export type Coding = 'br' | 'gzip' | 'identity';

/** One encoding of the answer: its bytes and its own strong ETag (RFC 9110 §8.8.3: one per representation). */
export interface Variant {
  coding: Coding;
  body: Buffer;
  etag: string;
}

// Browsers ask for `gzip, deflate, br, zstd`: brotli wins when asked for, gzip next, the bytes as they are last.
const negotiator = new Negotiator<Coding>({ supportedValues: ['br', 'gzip', 'identity'] });
// A handful of distinct headers come from real browsers: remember the answers, a bounded number of them (a client
// sending a new header with every request only empties the memo).
const memo = new Map<string, Coding>();
const MEMO_SIZE = 64;

/** The coding for an Accept-Encoding header (none or an unknown one: identity, which is always acceptable). */
export function negotiateCoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return 'identity';
  let coding = memo.get(acceptEncoding);
  if (coding) return coding;
  coding = negotiator.negotiate(acceptEncoding) ?? 'identity';
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(acceptEncoding, coding);
  return coding;
}

export class Precompressed {
  readonly variants: Readonly<Record<Coding, Variant>>;

  /**
   * The strongest settings by default: a list is compressed once per change, not per request. A rendered page, kept
   * for seconds, takes lighter ones (brotli 11 spends ~100 ms on 80 KB of HTML, 5 spends a few).
   */
  constructor(
    body: string | Buffer,
    readonly contentType: string,
    { brotliQuality = 11, gzipLevel = 9 }: { brotliQuality?: number; gzipLevel?: number } = {},
  ) {
    const identity = Buffer.isBuffer(body) ? body : Buffer.from(body);
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    const br = brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    });
    this.variants = {
      identity: { coding: 'identity', body: identity, etag: `"${hash}"` },
      gzip: { coding: 'gzip', body: gzipSync(identity, { level: gzipLevel }), etag: `"${hash}-gz"` },
      br: { coding: 'br', body: br, etag: `"${hash}-br"` },
    };
  }

  /** The variant for a request's Accept-Encoding. */
  pick(acceptEncoding: string | undefined): Variant {
    return this.variants[negotiateCoding(acceptEncoding)];
  }

  /** Whether If-None-Match names this variant (or `*`): the client holds these very bytes, answer 304. */
  static fresh(variant: Variant, ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    if (ifNoneMatch.trim() === '*') return true;
    // A list of entity tags, weak ones compared weakly (RFC 9110 §13.1.2).
    return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === variant.etag);
  }

  /** The headers of an answer with this variant (the caller adds its own security and caching headers). */
  static headers(answer: Precompressed, variant: Variant): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': answer.contentType,
      etag: variant.etag,
      vary: 'accept-encoding',
    };
    if (variant.coding !== 'identity') headers['content-encoding'] = variant.coding;
    return headers;
  }
}
