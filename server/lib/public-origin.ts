import type { FastifyRequest } from 'fastify';

type RequestLike = Pick<FastifyRequest, 'protocol' | 'host'>;

/** The origin a request was addressed to, or null when its Host header is not a host. */
export function requestOrigin(request: RequestLike): string | null {
  // A host, an IPv4 or [IPv6] literal and a port; "evil.example/x" or "a@b" would parse into another host.
  if (!/^[\w.\-:[\]]{1,255}$/.test(request.host)) return null;
  try {
    return new URL(`${request.protocol === 'https' ? 'https' : 'http'}://${request.host}`).origin;
  } catch {
    return null;
  }
}

export interface PublicOrigin {
  /** The origin for links in an answer to this request (canonical, og:url, sitemap, robots). */
  of(request: RequestLike): string;
  /** The origin for links built outside a request's answer (letters). */
  site(): string;
  /** Lets the origin be learnt from the first request (production without PUBLIC_URL). */
  observe(request: RequestLike): void;
}

/**
 * "The public origin": PUBLIC_URL; else, in production, the first origin the server was addressed by, kept
 * for the life of the process, so a later request with a forged Host cannot put its host into canonical
 * links, sitemaps or letters; else (development, tests) the request's own origin, and for letters the origin of
 * the latest request (the address the developer is using, not the one the server listens on).
 */
export function createPublicOrigin(opts: {
  publicUrl: string | undefined;
  production: boolean;
  /** The address the server listens on, for letters before any request came. */
  fallback: () => string;
  onLearnt?: (origin: string) => void;
}): PublicOrigin {
  const { publicUrl, production, fallback } = opts;
  let learnt: string | null = null;
  let latest: string | null = null;
  return {
    of: (request) => publicUrl ?? (production ? learnt : null) ?? requestOrigin(request) ?? fallback(),
    site: () => publicUrl ?? learnt ?? latest ?? fallback(),
    observe(request) {
      if (publicUrl) return;
      if (!production) {
        latest = requestOrigin(request) ?? latest;
        return;
      }
      if (learnt) return;
      learnt = requestOrigin(request);
      if (learnt) opts.onLearnt?.(learnt);
    },
  };
}
