import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { createTestApp, testEnv } from './test/app.ts';
import { createTestDatabase } from './test/database.ts';
import { createUser } from './db/factories.ts';
import { users, type UserRow } from './modules/users/schema.ts';
import { CROSS_SITE_MESSAGE } from './lib/same-origin.ts';
import { AUTH_TOKEN_KEY } from '#contract/constants';

// The HTTP edge: who the client is (behind a proxy), which site a write comes from, what may be cached,
// which request id is logged, which origin links carry.

let t: Awaited<ReturnType<typeof createTestApp>>;
let user: UserRow;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://podryad.example' });
  user = await createUser(t.database.db);
  token = await t.app.services.tokens.sign(user);
});
afterAll(() => t.close());

const cookie = () => `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}`;
const about = async () => (await t.database.db.select({ about: users.about }).from(users).where(eq(users.id, user.id)))[0]!.about;

function editProfile(text: string, headers: Record<string, string>) {
  return t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { host: 'podryad.example', ...headers }, payload: { about: text } });
}

describe('cookie-authenticated writes (CSRF)', () => {
  it('pass from the public origin and from the origin the request was addressed to', async () => {
    expect((await editProfile('с публичного адреса', { cookie: cookie(), origin: 'https://podryad.example' })).statusCode).toBe(200);
    expect(await about()).toBe('с публичного адреса');
    const local = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { host: '127.0.0.1:3000', cookie: cookie(), origin: 'http://127.0.0.1:3000' }, payload: { about: 'с локального' } });
    expect(local.statusCode).toBe(200);
    expect((await editProfile('по Referer', { cookie: cookie(), referer: 'https://podryad.example/profile/settings' })).statusCode).toBe(200);
    expect((await editProfile('по Sec-Fetch-Site', { cookie: cookie(), 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect(await about()).toBe('по Sec-Fetch-Site');
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a sibling subdomain', { origin: 'https://evil.podryad.example' }],
    ['the null Origin of a sandboxed frame', { origin: 'null' }],
    ['a foreign Referer', { referer: 'https://evil.example/page' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ])('are refused from %s with a Russian 403, nothing written', async (_name, headers: Record<string, string>) => {
    const before = await about();
    const res = await editProfile('взломано', { cookie: cookie(), ...headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 403, message: CROSS_SITE_MESSAGE });
    expect(await about()).toBe(before);
  });

  it('covers every write method, and the admin area before its own check', async () => {
    for (const [method, url] of [
      ['POST', '/api/services'],
      ['PUT', '/api/users/me/role'],
      ['DELETE', `/api/services/${user.id}`],
      ['PATCH', `/api/admin/users/${user.id}/block`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: cookie(), origin: 'https://evil.example' }, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(CROSS_SITE_MESSAGE);
    }
  });

  it('do not concern a bearer header, with or without an Origin, nor reads', async () => {
    const bearer = await editProfile('с токеном', { authorization: `Bearer ${token}` });
    expect(bearer.statusCode).toBe(200);
    const bearerForeign = await editProfile('с токеном и чужим Origin', { authorization: `Bearer ${token}`, cookie: cookie(), origin: 'https://evil.example' });
    expect(bearerForeign.statusCode).toBe(200);
    expect(await about()).toBe('с токеном и чужим Origin');
    const read = await t.app.inject({ url: '/api/users/me/', headers: { cookie: cookie(), origin: 'https://evil.example' } });
    expect(read.statusCode).toBe(200);
  });

  it('do not concern a cookieless request (a login from anywhere)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://evil.example' }, payload: { email: user.email, password: 'wrong-password' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('Cache-Control of API answers', () => {
  it('is private, no-store for a signed-in user, by header or by cookie', async () => {
    for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: cookie() }]) {
      for (const url of ['/api/users/me/', '/api/services']) {
        expect((await t.app.inject({ url, headers })).headers['cache-control'], url).toBe('private, no-store');
      }
    }
  });

  it('is private, no-store for answers to writes: a login answer carries a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'wrong-password' } });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('is left alone for anonymous reads', async () => {
    for (const url of ['/api/services', '/api/health']) {
      expect((await t.app.inject({ url })).headers['cache-control'], url).toBeUndefined();
    }
  });

  it('is the route’s own where it says: a public list is the same bytes for anybody (ADR 019)', async () => {
    for (const headers of [{}, { authorization: `Bearer ${token}` }, { cookie: cookie() }]) {
      expect((await t.app.inject({ url: '/api/categories/', headers })).headers['cache-control']).toBe('public, max-age=60');
    }
  });
});

describe('the request id', () => {
  it('is always the server’s own, whatever the client sends', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'forged-id\nlevel=admin' } });
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(3);
  });
});

describe('client address behind a proxy', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database.drop();
  });

  async function appTrusting(trustProxy: string) {
    const app = await buildApp({ env: testEnv({ TRUST_PROXY: trustProxy }), database, logger: pino({ level: 'silent' }), web: false });
    app.get('/api/test/whoami', async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
    await app.ready();
    apps.push(app);
    return async (remoteAddress: string, headers: Record<string, string> = {}) =>
      (await app.inject({ url: '/api/test/whoami', remoteAddress, headers: { host: 'podryad.example', ...headers } })).json() as { ip: string; protocol: string; host: string };
  }

  it('takes the address the trusted proxy saw, never one the client wrote before it', async () => {
    const whoami = await appTrusting('127.0.0.1');
    // nginx appending to a client's forged header: the right-most entry is the one nginx added.
    expect((await whoami('127.0.0.1', { 'x-forwarded-for': '10.9.8.7, 203.0.113.5' })).ip).toBe('203.0.113.5');
    expect((await whoami('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).ip).toBe('203.0.113.5');
    expect((await whoami('127.0.0.1', { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' })).protocol).toBe('https');
  });

  it('ignores forwarding headers from anyone but the listed proxies', async () => {
    const whoami = await appTrusting('10.0.0.0/8, ::1');
    const direct = await whoami('203.0.113.9', { 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(direct).toEqual({ ip: '203.0.113.9', protocol: 'http', host: 'podryad.example' });
    expect((await whoami('10.1.2.3', { 'x-forwarded-for': '198.51.100.1' })).ip).toBe('198.51.100.1');
  });

  it('trusts nothing by default', async () => {
    const whoami = await appTrusting('');
    expect((await whoami('127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).ip).toBe('127.0.0.1');
  });

  it('counts the per-address login limit against the real address, whatever X-Forwarded-For says', async () => {
    await appTrusting('127.0.0.1');
    const app = apps.at(-1)!;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.77',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: { email: `nobody${i}@example.com`, password: 'wrong-password' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the public origin in production without PUBLIC_URL', () => {
  let prod: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    // A Turnstile secret, as production may require one.
    prod = await createTestApp({ NODE_ENV: 'production', TURNSTILE_SECRET: 'test-secret', SEED_DEMO: '0' });
  });
  afterAll(() => prod.close());

  it('is the first origin the server was addressed by: a later forged Host changes no link', async () => {
    // Load-balancer probes do not count.
    await prod.app.inject({ url: '/api/health', headers: { host: '10.0.0.5:3001' } });
    const first = await prod.app.inject({ url: '/robots.txt', headers: { host: 'podryad.example' } });
    expect(first.body).toContain('Sitemap: http://podryad.example/sitemap.xml');
    for (const host of ['evil.example', 'evil.example:8080']) {
      const robots = await prod.app.inject({ url: '/robots.txt', headers: { host } });
      expect(robots.body).toContain('Sitemap: http://podryad.example/sitemap.xml');
      expect(robots.body).not.toContain('evil');
      const index = await prod.app.inject({ url: '/sitemap.xml', headers: { host } });
      expect(index.body).toContain('<loc>http://podryad.example/sitemaps/static-0.xml</loc>');
      expect(index.body).not.toContain('evil');
      const part = await prod.app.inject({ url: '/sitemaps/static-0.xml', headers: { host } });
      expect(part.body).toContain('<loc>http://podryad.example/faq</loc>');
      expect(part.body).not.toContain('evil');
    }
  });
});
