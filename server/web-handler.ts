import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createRequest } from '@mjackson/node-fetch-server';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { SsrContext } from '#contract/ssr';

export const buildDir = path.resolve(import.meta.dirname, '..', 'build');

export function readBuildId(): string {
  try {
    return (JSON.parse(readFileSync(path.join(buildDir, 'client', 'builds', 'latest.json'), 'utf8')) as { id: string }).id;
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

/** The path as the router matches it (decoded), so that `/%70rofile` is the profile too. */
function decodedPath(url: string): string {
  const path = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Serves the built web app: hashed assets with immutable caching, other public files briefly cached,
 * and every other GET/HEAD rendered by React Router on the server.
 */
export async function mountWebApp(app: FastifyInstance, context: (request: FastifyRequest) => Promise<SsrContext>) {
  const serverEntry = path.join(buildDir, 'server', 'index.js');
  if (!existsSync(serverEntry)) {
    app.log.warn('no web build found (run `npm run build`): only the API is served');
    return;
  }
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, process.env.NODE_ENV === 'development' ? 'development' : 'production');

  await app.register(fastifyStatic, {
    root: path.join(buildDir, 'client'),
    prefix: '/',
    wildcard: false,
    index: false,
    // `npm run build` wrote a .br and a .gz beside every compressible asset (vite.config.ts): sent as they are.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      if (filePath.endsWith('latest.json')) reply.header('cache-control', 'no-cache');
    },
  });

  const render = async (request: FastifyRequest, reply: FastifyReply) => {
    const ssr = await context(request);
    const response = await handle(createRequest(request.raw, reply.raw), ssr);
    // The page goes out through Fastify's reply, with the headers its hooks set (security headers, request id)
    // and compressed like any other answer (@fastify/compress, ADR 019).
    reply.code(response.status);
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const cacheControl = pageCacheControl(decodedPath(request.url), ssr.user !== null);
    if (cacheControl) reply.header('cache-control', cacheControl);
    return reply.send(response.body ? Readable.fromWeb(response.body as WebReadableStream) : null);
  };
  // Pages only read: every change goes through /api, so React Router actions are not served.
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: render });
}
