import type { FastifyRequest } from 'fastify';
import { AUTH_TOKEN_KEY } from '#contract/constants';
import { requestOrigin } from './public-origin.ts';

export const CROSS_SITE_MESSAGE = 'Запрос отклонён: он отправлен с другого сайта';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether the request is authenticated by the authToken cookie (the browser adds it by itself) rather than a header. */
export function cookieAuthenticated(request: Pick<FastifyRequest, 'headers' | 'cookies'>): boolean {
  return !/^bearer\s+\S/i.test(request.headers.authorization ?? '') && Boolean(request.cookies?.[AUTH_TOKEN_KEY]);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A cookie-authenticated write sent by a page of another site (CSRF): SameSite=Lax alone lets a sibling subdomain
 * or an old browser through. The sender is the Origin header, else the Referer's origin, else Sec-Fetch-Site;
 * a request with none of them does not come from a browser page, so the cookie in it was not added behind the
 * user's back. The app's own origins: PUBLIC_URL and the origin the request was addressed to (its https form too,
 * for a TLS proxy that does not say X-Forwarded-Proto).
 */
export function crossSiteWrite(request: FastifyRequest, publicUrl: string | undefined): boolean {
  if (!WRITES.has(request.method) || !cookieAuthenticated(request)) return false;
  const { origin, referer } = request.headers;
  const sender = origin !== undefined ? (origin === 'null' ? null : originOf(origin)) : referer !== undefined ? originOf(referer) : undefined;
  if (sender === undefined) {
    const site = request.headers['sec-fetch-site'];
    return site !== undefined && site !== 'same-origin' && site !== 'none';
  }
  if (sender === null) return true;
  const own = requestOrigin(request);
  return !(sender === publicUrl || sender === own || (own !== null && sender === own.replace(/^http:/, 'https:')));
}
