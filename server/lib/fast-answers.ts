import type { IncomingMessage, ServerResponse } from 'node:http';
import { Precompressed, type Coding, type Variant } from './precompressed.ts';

/** An answer held in memory, or undefined when it must be loaded (the app's route loads it then). */
export type FastAnswer = () => Precompressed | undefined;

type Headers = Readonly<Record<string, string>>;
interface Prepared {
  answer: Precompressed;
  /** Per coding: the 200's headers and the 304's, built once per answer. */
  headers: Record<Coding, { ok: Headers; notModified: Headers }>;
}

/**
 * Answers a few public GETs (the lookup lists) from memory before Fastify sees the request: no routing, no hooks,
 * no serialisation, no compression, not even a headers object built per request (ADR 019). Anything else, a query
 * string included, and an answer not in memory, falls through to the app. The headers are the app's for an API
 * answer (`headers`), so a client cannot tell the two paths apart (a test compares them), except for the request
 * id: nothing is logged here, so there is nothing for an id to find.
 */
export class FastAnswers {
  private readonly routes = new Map<string, { answer: FastAnswer; cacheControl: string; prepared?: Prepared }>();

  constructor(private readonly headers: Headers) {}

  /** Serves `path` (with and without its trailing slash, as the router does) from `answer` while it has one. */
  add(path: string, answer: FastAnswer, cacheControl: string): this {
    const bare = path.endsWith('/') ? path.slice(0, -1) : path;
    const route = { answer, cacheControl };
    for (const url of [bare, `${bare}/`]) this.routes.set(url, route);
    return this;
  }

  /** True when the request was answered here; false leaves it to the app. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const route = this.routes.get(req.url ?? '');
    const answer = route?.answer();
    if (!route || !answer) return false;
    if (route.prepared?.answer !== answer) route.prepared = this.prepare(answer, route.cacheControl);
    const variant = answer.pick(req.headers['accept-encoding']);
    const headers = route.prepared.headers[variant.coding];
    if (Precompressed.fresh(variant, req.headers['if-none-match'])) res.writeHead(304, headers.notModified).end();
    else res.writeHead(200, headers.ok).end(req.method === 'HEAD' ? undefined : variant.body);
    return true;
  }

  private prepare(answer: Precompressed, cacheControl: string): Prepared {
    const of = (variant: Variant) => {
      const notModified = { ...this.headers, 'cache-control': cacheControl, ...Precompressed.headers(answer, variant) };
      return { notModified, ok: { ...notModified, 'content-length': String(variant.body.length) } };
    };
    const { br, gzip, identity } = answer.variants;
    return { answer, headers: { br: of(br), gzip: of(gzip), identity: of(identity) } };
  }
}
