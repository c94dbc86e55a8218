import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { services } from '../server/modules/services/schema.ts';
import { createUser } from '../server/db/factories.ts';
import { serviceUrl } from '../server/test/services.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { DESKTOP_USER_AGENT, h1Of, hydrated, startTestServer, useE2E, visit } from './fixtures.ts';

// ADR 021: a guest's page is rendered once, kept for seconds and sent as it is (its scripts allowed by hash);
// what a visit counts is still counted; a moderator's decision clears the pages of every instance.

const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');

describe('guests’ pages', () => {
  const e2e = useE2E();
  const inject = (url: string, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    e2e.server.app.inject({ url, headers: { 'user-agent': DESKTOP_USER_AGENT, 'accept-encoding': 'br', ...headers }, remoteAddress });

  it('are rendered once and sent as they are, scripts by hash; a signed-in visitor gets a page of their own', async () => {
    const first = await inject('/projects');
    const second = await inject('/projects');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[^']+'/);
    expect(second.headers['content-security-policy']).not.toContain('nonce-');
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    // The browser's copy is revalidated with a 304.
    expect((await inject('/projects', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);

    const { user, token } = await e2e.user();
    expect(user).toBeTruthy();
    const mine = await inject('/projects', { cookie: `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}` });
    expect(mine.headers['content-security-policy']).toMatch(/'nonce-/);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers.etag).toBeUndefined();
  });

  it('are kept by their address without ad click ids, campaign tags and the referral code; a redirect keeps them', async () => {
    const { pageCache } = e2e.server.app.services;
    const plain = await inject('/freelancers/all?sort=rating');
    expect(plain.statusCode).toBe(200);
    const kept = pageCache.size;
    for (const click of ['utm_source=yandex&yclid=1', 'gclid=2&utm_medium=cpc', 'ysclid=3&referralCode=ABC']) {
      const landing = await inject(`/freelancers/all?${click}&sort=rating`);
      expect(landing.statusCode).toBe(200);
      expect(landing.headers.etag).toBe(plain.headers.etag);
    }
    // One page for all of them: the clicks rendered nothing and pushed nothing out.
    expect(pageCache.size).toBe(kept);

    const { db } = e2e.server.database;
    const seller = await createUser(db, { role: 'seller' });
    const service = await createService(db, seller.id);
    const moved = await inject(`/services/not-its-category/${service.id}?utm_source=vk&yclid=9`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`/services/design/${service.id}?utm_source=vk&yclid=9`);
    expect((await inject('/no-such-page?utm_source=vk&yclid=9')).statusCode).toBe(404);
  });

  it('rendered every time leave no timer behind once sent (one held the whole render for six seconds)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    // A search's page is never kept: each of these is a render of its own (entry.server.tsx).
    expect((await inject('/projects?q=warm')).statusCode).toBe(200);
    const before = timers();
    for (let i = 0; i < 20; i++) expect((await inject(`/projects?q=render${i}`)).statusCode).toBe(200);
    // The server's own timers come and go meanwhile; a render's would be one more each.
    expect(timers() - before).toBeLessThan(10);
  });

  it('hydrate in the browser from the kept page with no CSP issue, at an ad click’s address too', async () => {
    const { page } = await e2e.open();
    // The second visit is an ad click: the page kept for `/`, hydrated at the address with its parameters.
    for (const url of ['/', '/?utm_source=yandex&utm_campaign=spring&yclid=1234567890']) {
      expect(await visit(page, url)).toBe(200);
      await hydrated(page);
      await expect.poll(() => h1Of(page)).toBe('Все услуги');
    }
    // useE2E fails the test on any console error, a CSP issue Chromium reports among them.
  });

  it('count each visitor’s view of a service even when the page comes from the cache', async () => {
    const { db } = e2e.server.database;
    const seller = await createUser(db, { role: 'seller' });
    const service = await createService(db, seller.id);
    const url = `/services/design/${service.id}`;
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.3']) {
      expect((await inject(url, {}, ip)).statusCode).toBe(200);
    }
    await e2e.server.app.services.serviceCatalog.flushViews();
    const [row] = await db.select({ views: services.views }).from(services).where(eq(services.id, service.id));
    expect(row!.views).toBe(3);
  });
});

describe.skipIf(!redisUrl)('a moderator’s decision', () => {
  it('clears the kept pages of every instance', async () => {
    // Two instances of one deployment: each has a database of its own here, so they are told their shared prefix
    // (a real deployment's instances share the database, and with it the prefix: ADR 061).
    const shared = { REDIS_URL: redisUrl!, REDIS_PREFIX: `page-cache-e2e:${randomUUID()}:` };
    const [a, b] = await Promise.all([startTestServer(shared), startTestServer(shared)]);
    try {
      for (const s of [a, b]) {
        expect((await fetch(`${s.url}/projects`, { headers: { 'user-agent': DESKTOP_USER_AGENT } })).status).toBe(200);
        expect(s.server.app.services.pageCache.size).toBeGreaterThan(0);
      }
      const { db } = a.server.database;
      const admin = await createUser(db, { role: 'admin' });
      const seller = await createUser(db, { role: 'seller' });
      const service = await createService(db, seller.id, { status: 'moderation' });
      await a.server.app.services.serviceCatalog.decide(admin, service.id, { status: 'active' });
      await expect.poll(() => [a.server.app.services.pageCache.size, b.server.app.services.pageCache.size], { timeout: 5000 }).toEqual([0, 0]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
