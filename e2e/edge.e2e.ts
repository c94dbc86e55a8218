import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { createUserAndToken, startTestServer, type TestServer } from './fixtures.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';

// The rendered pages at the HTTP edge (docs/decisions/009): in production without PUBLIC_URL, canonical and
// og:url keep the first origin whatever Host comes later; pages for a signed-in user and the private areas
// are never cached.

let t: TestServer;
let cookie = '';
let servicePath = '';

beforeAll(async () => {
  // A Turnstile secret, as production may require one.
  t = await startTestServer({ NODE_ENV: 'production', TURNSTILE_SECRET: 'e2e-secret' });
  const { user, token } = await createUserAndToken(t.server, { role: 'seller' });
  const service = await createService(t.server.database.db, user.id);
  servicePath = `/services/design/${service.id}`;
  cookie = `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}`;
});
afterAll(() => t?.close());

const page = (url: string, headers: Record<string, string> = {}) => t.server.app.inject({ url, headers: { host: 'podryad.example', ...headers } });
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
const ogUrl = (html: string) => /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];

describe('links in production without PUBLIC_URL', () => {
  it('keep the first origin: a forged Host later changes neither canonical nor og:url', async () => {
    const first = await page(servicePath);
    expect(first.statusCode).toBe(200);
    expect(canonical(first.body)).toBe(`http://podryad.example${servicePath}`);
    for (const host of ['evil.example', 'evil.example:8443']) {
      const forged = await page(servicePath, { host });
      expect(forged.statusCode).toBe(200);
      expect(canonical(forged.body)).toBe(`http://podryad.example${servicePath}`);
      expect(ogUrl(forged.body)).toBe(`http://podryad.example${servicePath}`);
      expect(forged.body).not.toContain('evil.example');
      const listing = await page('/services', { host });
      expect(canonical(listing.body)).toMatch(/^http:\/\/podryad\.example\//);
    }
  });
});

describe('Cache-Control of pages', () => {
  it('is private, no-store for every page rendered for a signed-in user, data requests included', async () => {
    for (const url of ['/', '/services', servicePath, '/profile/settings', '/_root.data']) {
      const res = await page(url, { cookie });
      expect(res.statusCode, url).toBeLessThan(400);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });

  it('is private, no-store for the private areas whoever asks (a guest is sent to the login page)', async () => {
    for (const url of ['/profile/settings', '/admin']) {
      const res = await page(url);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });

  it('is left to the page for guests on public pages', async () => {
    for (const url of ['/', '/services', servicePath]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBeUndefined();
    }
  });
});
