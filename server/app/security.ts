import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** Methods that change nothing: their public answers may be cached. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const PRIVATE_NO_STORE = 'private, no-store';

/** Turnstile's script and frame are the only foreign origin a page may use. */
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/**
 * Our own assets only, inline scripts by nonce (React Router's hydration scripts carry it) or, for a page kept for
 * every guest, by their hashes (ADR 021), plus Turnstile, plus the origins a configured provider's widget needs
 * (ЮKassa's payout widget, ADR 050: its script, its frame and its calls; none when it is not configured).
 */
export function contentSecurityPolicy(inline: { nonce: string } | { hashes: string[] }, widgetOrigins: readonly string[] = []): string {
  const scripts = 'nonce' in inline ? `'nonce-${inline.nonce}'` : inline.hashes.join(' ');
  const foreign = [TURNSTILE_ORIGIN, ...widgetOrigins].join(' ');
  return [
    "default-src 'self'",
    `script-src 'self' ${scripts} ${foreign}`.replace(/ {2,}/g, ' '),
    `frame-src 'self' ${foreign}`,
    `connect-src 'self' ${foreign}`,
    "img-src 'self' data: blob:",
    // Inline style attributes (React's style prop) need this; no script can run through it.
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Helmet's headers with our options, drawn once: the same on every answer (the policy is ours, per answer, below). */
const HELMET_HEADERS = headersOf(
  helmet({
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  }),
);

/**
 * Helmet's headers that only a document acts on: a browsing context's opener and agent cluster, the referrer of the
 * requests a page makes, DNS prefetching of its links, and Internet Explorer's and Adobe's readers of HTML. OWASP's
 * REST Security Cheat Sheet leaves them out of API answers; a JSON answer carries the rest (ADR 090).
 */
const DOCUMENT_ONLY = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);
const pick = (keep: (name: string) => boolean) => Object.fromEntries(Object.entries(HELMET_HEADERS).filter(([name]) => keep(name)));

/**
 * Helmet's headers for every answer. @fastify/helmet built helmet's middleware again for every request, which then
 * set each header on the response; a kept page served 15 % more hits on `/` without it (bench/README, session 59).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = pick((name) => !DOCUMENT_ONLY.has(name));
/** And those for every answer but JSON: pages, files, assets (edge.ts adds them as it sets the policy). */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = pick((name) => DOCUMENT_ONLY.has(name));

/** The headers a helmet middleware sets, read from a response that only records them. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: () => {},
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * A JSON answer's headers, the app's (edge.ts) and the ones served before Fastify (server/lib/fast-answers.ts);
 * server/compression.db.test.ts proves both paths send the same. JSON runs nothing: its policy allows nothing.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};


/** The origin of a widget's script when it is another site's (`https://yookassa.ru`); none for our own path. */
export function widgetOriginsOf(widget: { script_url: string } | null): string[] {
  if (!widget || !/^https?:\/\//.test(widget.script_url)) return [];
  return [new URL(widget.script_url).origin];
}

/**
 * The policy of a kept page, whose inline scripts are allowed by their hashes (ADR 021), with the payout widget's
 * origin when one is configured (ADR 050). A kept page's hashes are its own array, sent with every hit: its policy is
 * made once, and again when the widget changes.
 */
export function keptPagePolicy(cardWidget: () => { script_url: string } | null): (hashes: string[]) => string {
  const policies = new WeakMap<string[], { scriptUrl: string | null; policy: string }>();
  return (hashes) => {
    const widget = cardWidget();
    const scriptUrl = widget?.script_url ?? null;
    const kept = policies.get(hashes);
    if (kept?.scriptUrl === scriptUrl) return kept.policy;
    const policy = contentSecurityPolicy({ hashes }, widgetOriginsOf(widget));
    policies.set(hashes, { scriptUrl, policy });
    return policy;
  };
}
