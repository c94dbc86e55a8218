import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isbot } from 'isbot';
import type { SsrContext } from '#contract/ssr';
import { acceptedCoding, DOCUMENT_COMPRESSION } from './app/compress-buffered.ts';
import { decodedPath } from './lib/http.ts';
import { PageRequest } from './lib/page-request.mjs';
import { Precompressed } from './lib/precompressed.ts';
import { requestOrigin } from './lib/public-origin.ts';
import { MESSAGES } from '#contract/messages';
import { projectRoot } from './paths.ts';
import { createRenderPool, type RenderPool } from './render-pool.ts';
import { inlineScriptHashes, type CachedPage, type PageCache, type VisitRead } from './platform/page-cache.ts';

export const buildDir = path.join(projectRoot, 'build');

export function readBuildId(): string {
  try {
    return (JSON.parse(readFileSync(path.join(buildDir, 'client', 'builds', 'latest.json'), 'utf8')) as { id: string })
      .id;
  } catch {
    return 'dev';
  }
}

/** The profile and admin areas, their pages and their data requests (`/profile/items.data`). */
const PRIVATE_PAGES = /^\/(?:profile|admin)(?:[/.]|$)/;

/**
 * The Cache-Control of a rendered page: what was rendered for one signed-in user, and the private areas
 * whoever asks, stay out of shared and browser caches; public pages for guests keep React Router's headers.
 */
export function pageCacheControl(path: string, signedIn: boolean): string | null {
  return signedIn || PRIVATE_PAGES.test(path) ? 'private, no-store' : null;
}

/**
 * The longest page address rendered, and the most path segments (ADR 040). Matching a path costs React Router time
 * quadratic in its segments (lazy route discovery matches every prefix while rendering `<Scripts>`): beyond these
 * bounds, which no page of ours comes near, the address is answered with the 404 page rendered for a short stand-in.
 */
export const PAGE_URL_MAX_LENGTH = 4096;
export const PAGE_PATH_MAX_SEGMENTS = 32;

/** Whether a page request's address is past the bounds above: checked before anything else reads it. */
export function overlongPageUrl(url: string): boolean {
  if (url.length > PAGE_URL_MAX_LENGTH) return true;
  let segments = 0;
  // The decoded path: an encoded slash (`%2F`) is a slash to the router.
  for (const char of decodedPath(url)) if (char === '/' && ++segments > PAGE_PATH_MAX_SEGMENTS) return true;
  return false;
}

/** The address the 404 page is rendered for in place of an over-long one: no route and no route rule takes it. */
const NOT_FOUND_STAND_IN = '/__not-found';

/** A read of the page's render, reported so that a kept page can replay its effect for each visitor. */
export type ReadReporter = (name: string, input: unknown) => void;

/** Guests' pages kept and sent as they are (ADR 021). */
export interface GuestPages {
  cache: PageCache;
  /** Whether nobody is signed in: no token at all (a page for a user is never kept). */
  guest(request: FastifyRequest): boolean;
  /** The reads whose effect every visit must have (a service view): remembered with the page. */
  counted: ReadonlySet<string>;
  /** Has a remembered read's effect for this visitor, when the page is sent from the cache. */
  visit(read: VisitRead, request: FastifyRequest): Promise<void>;
  /** The Content-Security-Policy of a kept page: its inline scripts allowed by hash. */
  policy(scriptHashes: string[]): string;
}

/** A page's bytes sent as they were kept: lighter compression than a build's, as it is redone every few seconds. */
const PAGE_COMPRESSION = { brotliQuality: 5, gzipLevel: 6 };
/** Headers of a render that belong to one response, not to the kept page. */
const PER_RESPONSE = new Set(['set-cookie', 'content-length', 'content-encoding', 'etag', 'vary', 'date']);

/** A request of its own for `url`: the render may outlive the response that asked for it (a stale page is refreshed after). */
function ownRequest(request: FastifyRequest, url: string): Request {
  const headers = new Headers();
  for (const name of ['user-agent', 'accept', 'accept-language'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`${request.protocol}://${request.host}${url}`, { headers });
}

/**
 * The request a page is rendered from: its address and every header, aborted only when the client goes away before
 * the answer has left. node-fetch-server's `createRequest` aborted it when any answer closed, a finished one too: a
 * DOMException with its stack, dispatched to every request React Router derives from it (1.6 % of a page rendered
 * every time, issue 31). Pages only read (GET and HEAD), so there is no body.
 */
export function pageRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const controller = new AbortController();
  reply.raw.once('close', () => reply.raw.writableFinished || controller.abort());
  const headers = new Headers();
  const raw = request.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (!raw[i]!.startsWith(':')) headers.append(raw[i]!, raw[i + 1]!);
  return new PageRequest(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers }, controller.signal);
}

/** The last Host header that named a host: a site is addressed by one or two, so a page parses it once per change. */
let knownHost: string | undefined;

/** Whether the request's Host (or, behind a trusted proxy, X-Forwarded-Host) names a host a URL can be built on. */
function namesHost(request: FastifyRequest): boolean {
  if (request.host === knownHost) return true;
  if (!requestOrigin(request)) return false;
  knownHost = request.host;
  return true;
}

/** The 404 page for the stand-in address: no route rule applies to it (the over-long address had none). */
function standInContext(ssr: SsrContext): SsrContext {
  return { ...ssr, routeRule: async () => null };
}

/** A render's answer through Fastify's reply, with the headers its hooks set (security headers, request id). */
async function sendRendered(request: FastifyRequest, reply: FastifyReply, response: Response, ssr: SsrContext) {
  reply.code(response.status);
  for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const cacheControl = pageCacheControl(decodedPath(request.url), ssr.user !== null);
  if (cacheControl) reply.header('cache-control', cacheControl);
  // Compressed like any other answer (ADR 019). A document is whole already (one buffer, ADR 068): sent as one, it is
  // compressed in one call (server/app/compress-buffered.ts). Data requests may stream, and are sent as they come.
  if (response.body && response.headers.get('content-type')?.startsWith('text/html')) return reply.send(Buffer.from(await response.arrayBuffer()));
  return reply.send(response.body ? Readable.fromWeb(response.body as WebReadableStream) : null);
}

/** Hashed assets with immutable caching, other public files briefly cached. */
async function serveAssets(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.join(buildDir, 'client'),
    prefix: '/',
    wildcard: false,
    index: false,
    // `npm run build` wrote a .br and a .gz beside every compressible asset (scripts/precompress.ts): sent as they are.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (filePath.endsWith('latest.json')) reply.header('cache-control', 'no-cache');
    },
  });
}

/** isbot's verdicts on the user agents seen lately: a browser sends the same string with each request (issue 31). */
const crawlerVerdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 1_000;

/** Whether the user agent is a crawler's (isbot), asked of its long pattern once per distinct string. */
export function isCrawler(userAgent: string | undefined): boolean {
  // A string no browser sends is asked every time: the kept ones stay small (at most 1,000 × 512 characters).
  if (!userAgent || userAgent.length > 512) return isbot(userAgent);
  let verdict = crawlerVerdicts.get(userAgent);
  if (verdict === undefined) {
    // Forgotten all at once when full: a flood of made-up user agents costs what it cost before, never memory.
    if (crawlerVerdicts.size >= VERDICTS_KEPT) crawlerVerdicts.clear();
    crawlerVerdicts.set(userAgent, (verdict = isbot(userAgent)));
  }
  return verdict;
}

/**
 * Query parameters no page reads while rendering: ad systems' click ids and campaign tags, which analytics read in the
 * browser, and our referral code, which the browser keeps (SPEC §2). Every ad click carries a unique id: a guest's
 * page kept by its full address would make each click a render, and each render a page that pushes real ones out.
 */
const UNREAD_PARAMS = new Set(['yclid', 'ysclid', '_openstat', 'gclid', 'gbraid', 'wbraid', 'dclid', 'fbclid', 'msclkid', 'referralCode']);
const unreadParam = (pair: string) => {
  const end = pair.indexOf('=');
  const name = end === -1 ? pair : pair.slice(0, end);
  return name.startsWith('utm_') || UNREAD_PARAMS.has(name);
};

/** `url` without the parameters above, the others as they came and in their order; `url` itself when it has none. */
export function withoutUnreadParams(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const pairs = url.slice(mark + 1).split('&');
  if (!pairs.some(unreadParam)) return url;
  const kept = pairs.filter((pair) => pair !== '' && !unreadParam(pair));
  return kept.length === 0 ? url.slice(0, mark) : `${url.slice(0, mark)}?${kept.join('&')}`;
}

/**
 * The address a page every guest sees alike is kept and rendered by (the request's, without the unread parameters),
 * or null: a signed-in visitor, a data request, the private areas, a search (each one is counted), a crawler (bare
 * 404s, whole documents).
 */
function guestPageAddress(request: FastifyRequest, pages: GuestPages | undefined): string | null {
  if (!pages?.guest(request)) return null;
  const [pathname, search = ''] = request.url.split('?', 2) as [string, string?];
  const path = decodedPath(pathname);
  if (path.endsWith('.data') || PRIVATE_PAGES.test(path) || new URLSearchParams(search).has('q')) return null;
  if (isCrawler(request.headers['user-agent'])) return null;
  return withoutUnreadParams(request.url);
}

/** A kept page, in the encoding the client takes, with the policy of its inline scripts' hashes. */
function sendKept(request: FastifyRequest, reply: FastifyReply, page: CachedPage, pages: GuestPages) {
  const variant = page.body.pick(request.headers['accept-encoding']);
  reply.code(page.status).headers(page.headers).headers(Precompressed.headers(page.body, variant));
  reply.header('content-security-policy', pages.policy(page.scriptHashes));
  if (Precompressed.fresh(variant, request.headers['if-none-match'])) return reply.code(304).send();
  return reply.header('content-length', variant.body.length).send(variant.body);
}

/** The page the cache keeps of a render, or null when it is not one to keep (another status, not HTML). */
function keptPage(status: number, headers: Record<string, string>, html: string, visits: VisitRead[], keptStatus: number): CachedPage | null {
  if (status !== keptStatus || !(headers['content-type'] ?? '').startsWith('text/html')) return null;
  return {
    status,
    headers,
    body: new Precompressed(html, headers['content-type']!, PAGE_COMPRESSION),
    scriptHashes: inlineScriptHashes(html),
    visits,
    renderedAt: Date.now(),
  };
}

/**
 * The module hooks that give this thread React Router's production build (scripts/start.mjs registers them), when it
 * runs that build: render threads load the same build as the server's thread.
 */
function productionBuildHooks(): string | null {
  const hooks = pathToFileURL(path.join(projectRoot, 'scripts', 'production-builds.mjs')).href;
  try {
    return import.meta.resolve('react-router').includes('/dist/production/') ? hooks : null;
  } catch {
    return null;
  }
}

/** The pages' renderer (ADR 077), stopped with the app. */
async function startRenderPool(app: FastifyInstance, serverEntry: string, threads: number): Promise<RenderPool> {
  const pool = await createRenderPool({
    serverEntry,
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    threads,
    hooks: productionBuildHooks(),
    compression: DOCUMENT_COMPRESSION,
    log: app.log,
  });
  app.decorate('renderPool', pool);
  app.addHook('onClose', () => pool.close());
  return pool;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The threads pages are rendered in (ADR 077); absent when there is no web build. */
    renderPool?: RenderPool;
  }
}

/**
 * Serves the built web app: hashed assets with immutable caching, other public files briefly cached,
 * and every other GET/HEAD rendered by React Router on the server (a guest's page from the cache when it can).
 */
export async function mountWebApp(
  app: FastifyInstance,
  context: (request: FastifyRequest, reported?: ReadReporter) => Promise<SsrContext>,
  pages?: GuestPages,
  renderThreads = 0,
) {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) {
    app.log.warn('no web build found (run `npm run build`): only the API is served');
    return;
  }
  const { handle } = await startRenderPool(app, serverEntry, renderThreads);
  await serveAssets(app);

  /**
   * Renders a guest's page at `url` whole, as the cache keeps it; `page` is null when it is not one to keep (not a
   * 200, or the 404 page rendered for the stand-in address).
   */
  const renderWhole = async (request: FastifyRequest, url: string) => {
    const standIn = url === NOT_FOUND_STAND_IN;
    const visits: VisitRead[] = [];
    const ssr = await context(request, (name, input) => {
      if (pages!.counted.has(name)) visits.push({ name, input });
    });
    const response = await handle(ownRequest(request, url), standIn ? standInContext(ssr) : ssr);
    const html = await response.text();
    const kept: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!PER_RESPONSE.has(name)) kept[name] = value;
    const page = keptPage(response.status, kept, html, visits, standIn ? 404 : 200);
    return { page, status: response.status, headers: kept, html };
  };

  /**
   * An over-long address (ADR 040): the 404 page without matching it, for a guest the one kept for every guest, for a
   * signed-in visitor their own render of the stand-in; a crawler gets the bare 404 it gets for any unknown page.
   */
  const renderNotFound = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isCrawler(request.headers['user-agent']))
      return reply.code(404).type('text/plain; charset=utf-8').send('Page not found');
    if (pages?.guest(request)) {
      const key = `${request.protocol}://${request.host}${NOT_FOUND_STAND_IN}`;
      const fill = () => pages.cache.fill(key, async () => (await renderWhole(request, NOT_FOUND_STAND_IN)).page);
      const hit = pages.cache.get(key);
      if (hit?.stale) fill().catch((err: unknown) => request.log.error({ err }, 'rendering the 404 page again failed'));
      const page = hit?.page ?? (await fill());
      if (page) return sendKept(request, reply, page, pages);
    }
    const ssr = await context(request);
    return sendRendered(
      request,
      reply,
      await handle(ownRequest(request, NOT_FOUND_STAND_IN), standInContext(ssr), acceptedCoding(request)),
      ssr,
    );
  };

  const render = async (request: FastifyRequest, reply: FastifyReply) => {
    // A page's address is built from the Host header: one that names no host (`a b`, `x:99999`, empty) is the
    // client's error (RFC 9112 §3.2: 400), not a failed render.
    if (!namesHost(request)) return reply.code(400).send({ status: 400, message: MESSAGES.badHost });
    if (overlongPageUrl(request.url)) return renderNotFound(request, reply);
    const address = guestPageAddress(request, pages);
    if (address !== null) {
      // The origin is in the key: links in the page carry it.
      const key = `${request.protocol}://${request.host}${address}`;
      const hit = pages!.cache.get(key);
      if (hit) {
        for (const read of hit.page.visits) {
          pages!.visit(read, request).catch((err: unknown) => request.log.error({ err }, 'counting a visit failed'));
        }
        if (hit.stale) {
          pages!.cache
            .fill(key, async () => (await renderWhole(request, address)).page)
            .catch((err: unknown) => request.log.error({ err }, 'rendering a page again failed'));
        }
        return sendKept(request, reply, hit.page, pages!);
      }
      let own: Awaited<ReturnType<typeof renderWhole>> | undefined;
      const page = await pages!.cache.fill(key, async () => (own = await renderWhole(request, address)).page);
      if (page) return sendKept(request, reply, page, pages!);
      // Not a page to keep (a 404, a redirect): this request's render as it came, or its own render below. A redirect
      // rendered for the address without the unread parameters is rendered again for its own: it keeps them.
      const lostParams = address !== request.url && own !== undefined && own.status >= 300 && own.status < 400;
      if (own && !lostParams) return reply.code(own.status).headers(own.headers).send(own.html);
    }
    const ssr = await context(request);
    return sendRendered(request, reply, await handle(pageRequest(request, reply), ssr, acceptedCoding(request)), ssr);
  };
  // Pages only read: every change goes through /api, so React Router actions are not served.
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: render });
}
