import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp, signedInPerson, testEnv, type Person } from '../../test/app.ts';
import { call, sleep } from '../../test/api.ts';
import { serviceUrl } from '../../test/services.ts';
import { auditLog } from '../../platform/schema.ts';
import { routeRules } from '../route-rules/schema.ts';
import { settings as settingsTable } from '../../platform/schema.ts';
import { createService } from '../../db/catalog-factories.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { dayOf } from '#contract/dashboard';
import type { AdminAuditEntry, AdminRouteRule, Overview } from '#contract/admin';
import type { Settings } from '#contract/settings';

// The admin area of issue 14 (ADR 036): settings (validation, audit in the change's transaction, every instance),
// route rules (editing, validation, lookups, every instance), the audit log's filters and the overview's figures.

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Person;
let member: Person;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInPerson(t.app, t.database.db, { roles: ['admin'], activeRole: 'admin' });
  member = await signedInPerson(t.app, t.database.db);
});
afterAll(() => t.close());

const put = (body: unknown, token = admin.token) => call<Settings>(t.app, 'PUT', '/api/admin/settings', { token, body });

describe('settings', () => {
  it('changes only what it is given: the other settings keep their values', async () => {
    expect((await put({ 'bids.perDay': 12 })).status).toBe(200);
    const answer = await put({ 'orders.commissionBp': 1_000 });
    expect(answer.status).toBe(200);
    expect(answer.body.result['bids.perDay']).toBe(12);
    expect(answer.body.result['orders.commissionBp']).toBe(1_000);
    const stored = await t.database.db.select().from(settingsTable).where(eq(settingsTable.key, 'uploads.perHour'));
    // Never written by either change (a partial change used to store every default).
    expect(stored).toEqual([]);
  });

  it.each([
    [{ 'orders.commissionBp': 5_001 }, 'orders.commissionBp'],
    [{ 'orders.commissionBp': 12.5 }, 'orders.commissionBp'],
    [{ 'services.minPrice': 50 }, 'services.minPrice'],
    [{ 'brand.name': '   ' }, 'brand.name'],
    [{ 'brand.name': '<script>' }, 'brand.name'],
    [{ 'brand.description': 'x'.repeat(301) }, 'brand.description'],
  ])('refuses %j with a Russian field error, and stores nothing', async (body, field) => {
    const before = await t.app.services.settings.all();
    const answer = await put(body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/[а-я]/i);
    expect(answer.body.errors?.[field]?.[0]).toMatch(/[а-я]/i);
    t.app.services.settings.forget();
    expect(await t.app.services.settings.all()).toEqual(before);
  });

  it('refuses an unknown key', async () => {
    const answer = await put({ 'disputes.nothing': 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/[а-я]/i);
  });

  it('normalises brand texts at the edge and gives them to pages and letters', async () => {
    const answer = await put({ 'brand.name': '  Новая   биржа ', 'brand.description': 'Фриланс  без  посредников' });
    expect(answer.body.result['brand.name']).toBe('Новая биржа');
    expect(t.app.services.settings.latest()['brand.name']).toBe('Новая биржа');
    expect(t.app.services.settings.latest()['brand.description']).toBe('Фриланс без посредников');
  });

  it('keeps a text that reads as JSON a text: stored, read back and answered as it was typed', async () => {
    for (const name of ['2024', 'null', '[1]', 'true', '"Биржа"', '{"a":1}']) {
      const answer = await put({ 'brand.name': name, 'brand.description': name });
      expect(answer.status, name).toBe(200);
      expect(answer.body.result['brand.name'], name).toBe(name);
      t.app.services.settings.forget();
      const read = await t.app.services.settings.all();
      expect([read['brand.name'], read['brand.description']], name).toEqual([name, name]);
    }
    // The other kinds: numbers and the synonym groups.
    const groups = [['2024', 'null'], ['[1]', 'true']];
    expect((await put({ 'search.synonyms': groups, 'bids.perDay': 7 })).status).toBe(200);
    t.app.services.settings.forget();
    const read = await t.app.services.settings.all();
    expect([read['search.synonyms'], read['bids.perDay']]).toEqual([groups, 7]);
  });

  it('audits a change with the values before it, in the same transaction: a failed audit leaves no change', async () => {
    await put({ 'reviews.minText': 20 });
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.update'))
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(entry).toMatchObject({ actorId: admin.user.id, details: { 'reviews.minText': 20, previous: {} } });
    await put({ 'reviews.minText': 25 });
    const [second] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'settings.update')).orderBy(sql`created_at desc`).limit(1);
    expect(second!.details).toMatchObject({ 'reviews.minText': 25, previous: { 'reviews.minText': 20 } });

    const ghost = { ...admin.user, id: '00000000-0000-4000-8000-000000000000' };
    await expect(t.app.services.settings.update(ghost, { 'reviews.minText': 99 })).rejects.toThrow();
    t.app.services.settings.forget();
    expect(await t.app.services.settings.get('reviews.minText')).toBe(25);
  });

  it("holds services to the operator's minimum price, by field", async () => {
    const seller = await signedInPerson(t.app, t.database.db, { roles: ['seller'], activeRole: 'seller' });
    const body = (price: number) => ({
      title: 'Логотип для вашей компании',
      description: 'Нарисую логотип в трёх вариантах, с правками и исходниками в векторе для печати.',
      category: 'design',
      price,
      days: 3,
      publish: false,
    });
    await put({ 'services.minPrice': 100_000 });
    const low = await call(t.app, 'POST', '/api/services', { token: seller.token, body: body(60_000) });
    expect(low.status).toBe(400);
    expect(low.body.errors?.price).toEqual(['Минимальная цена — 1\u00a0000\u00a0руб.']);
    await put({ 'services.minPrice': 20_000 });
    const cheap = await call(t.app, 'POST', '/api/services', { token: seller.token, body: body(30_000) });
    expect(cheap.status, JSON.stringify(cheap.body)).toBe(200);
    await put({ 'services.minPrice': 50_000 });
  });
});

describe('route rules', () => {
  const create = (body: unknown, token = admin.token) => call<AdminRouteRule>(t.app, 'POST', '/api/admin/route-rules', { token, body });
  const lookup = async (path: string) => (await t.app.inject({ url: `/api/route-rules?path=${encodeURIComponent(path)}` })).json().result;

  it('creates, changes and removes rules, each audited, and answers them at once', async () => {
    const made = await create({ path: '/old-offer/', kind: 'redirect', target: '/services/design?sort=new' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.result).toMatchObject({ path: '/old-offer', kind: 'redirect', target: '/services/design?sort=new' });
    expect(await lookup('/old-offer')).toEqual({ redirect: '/services/design?sort=new', block: false });

    const id = made.body.result._id;
    const changed = await call<AdminRouteRule>(t.app, 'PUT', `/api/admin/route-rules/${id}`, { token: admin.token, body: { path: '/old-offer', kind: 'block' } });
    expect(changed.body.result).toMatchObject({ kind: 'block', target: null });
    expect(await lookup('/old-offer?x=1')).toEqual({ redirect: null, block: true });

    expect((await call(t.app, 'DELETE', `/api/admin/route-rules/${id}`, { token: admin.token })).status).toBe(200);
    expect(await lookup('/old-offer')).toEqual({ redirect: null, block: false });
    expect((await call(t.app, 'DELETE', `/api/admin/route-rules/${id}`, { token: admin.token })).status).toBe(404);

    const trail = await t.database.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'route_rule'), eq(auditLog.targetId, id))).orderBy(auditLog.createdAt);
    expect(trail.map((e) => e.action)).toEqual(['routeRule.create', 'routeRule.update', 'routeRule.remove']);
    expect(trail[1]!.details).toMatchObject({ kind: 'block', previous: { kind: 'redirect' } });
  });

  it('allows an absolute http(s) redirect', async () => {
    expect((await create({ path: '/partners', kind: 'redirect', target: 'https://example.org/partners' })).status).toBe(200);
    expect(await lookup('/partners')).toEqual({ redirect: 'https://example.org/partners', block: false });
  });

  it.each([
    [{ path: 'no-slash', kind: 'redirect', target: '/x' }, 'path'],
    [{ path: '/with space', kind: 'redirect', target: '/x' }, 'path'],
    [{ path: '/admin/users', kind: 'redirect', target: '/x' }, 'path'],
    [{ path: '/admin', kind: 'block' }, 'path'],
    [{ path: '/login', kind: 'block' }, 'path'],
    [{ path: '/', kind: 'block' }, 'path'],
    [{ path: '/api/services', kind: 'block' }, 'path'],
    [{ path: '/a1', kind: 'redirect' }, 'target'],
    [{ path: '/a2', kind: 'redirect', target: 'services' }, 'target'],
    [{ path: '/a3', kind: 'redirect', target: '//evil.example/x' }, 'target'],
    [{ path: '/a4', kind: 'redirect', target: 'javascript:alert(1)' }, 'target'],
    [{ path: '/a5', kind: 'redirect', target: '/a5/' }, 'target'],
    [{ path: '/a6', kind: 'jump', target: '/x' }, 'kind'],
  ])('refuses %j on %s in Russian', async (body, field) => {
    const answer = await create(body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[field]?.[0], JSON.stringify(answer.body)).toMatch(/[а-я]/i);
    const stored = await t.database.db.select().from(routeRules).where(eq(routeRules.path, String(body.path)));
    expect(stored).toEqual([]);
  });

  it('refuses a loop of two rules and of three, and a path already ruled', async () => {
    expect((await create({ path: '/loop-a', kind: 'redirect', target: '/loop-b' })).status).toBe(200);
    const two = await create({ path: '/loop-b', kind: 'redirect', target: '/loop-a' });
    expect(two.status).toBe(400);
    expect(two.body.errors?.target?.[0]).toContain('петля');
    expect((await create({ path: '/loop-b', kind: 'redirect', target: '/loop-c' })).status).toBe(200);
    expect((await create({ path: '/loop-c', kind: 'redirect', target: '/loop-a' })).body.errors?.target?.[0]).toContain('петля');
    expect((await create({ path: '/loop-a', kind: 'block' })).body.errors?.path?.[0]).toBe('Для этого адреса уже есть правило');
  });

  it('lists rules newest first by keyset pages, filtered by kind and words', async () => {
    for (const n of [1, 2, 3]) await create({ path: `/paged-${n}`, kind: 'block' });
    const first = await call<AdminRouteRule[]>(t.app, 'GET', '/api/admin/route-rules', { token: admin.token, query: { q: 'paged', limit: '2' } });
    expect(first.body.result.map((r) => r.path)).toEqual(['/paged-3', '/paged-2']);
    const next = (first.body as unknown as { next: string }).next;
    const second = await call<AdminRouteRule[]>(t.app, 'GET', '/api/admin/route-rules', { token: admin.token, query: { q: 'paged', limit: '2', cursor: next } });
    expect(second.body.result.map((r) => r.path)).toEqual(['/paged-1']);
    const blocks = await call<AdminRouteRule[]>(t.app, 'GET', '/api/admin/route-rules', { token: admin.token, query: { kind: 'redirect', q: 'paged' } });
    expect(blocks.body.result).toEqual([]);
  });

  it('is for admins only', async () => {
    expect((await create({ path: '/member', kind: 'block' }, member.token)).status).toBe(403);
  });
});

describe('audit log', () => {
  it('filters by actor, action prefix and object, newest first, by keyset pages', async () => {
    const other = await signedInPerson(t.app, t.database.db, { roles: ['admin'], activeRole: 'admin' });
    const rule = await t.app.services.routeRules.save(other.user, { path: '/audit-1', kind: 'block' });
    await t.app.services.routeRules.save(other.user, { path: '/audit-1', kind: 'redirect', target: '/services' }, rule._id);
    await t.app.services.routeRules.remove(other.user, rule._id);
    const list = (query: Record<string, string>) => call<AdminAuditEntry[]>(t.app, 'GET', '/api/admin/audit', { token: admin.token, query });

    const mine = await list({ actor: other.user.id });
    expect(mine.body.result.map((e) => e.action)).toEqual(['routeRule.remove', 'routeRule.update', 'routeRule.create']);
    expect(mine.body.result[0]).toMatchObject({ actor: other.user.id, target_type: 'route_rule', target_id: rule._id });
    expect(mine.body.result[0]!.actor_name).toBeTruthy();

    const page1 = await list({ actor: other.user.id, action: 'routeRule.', limit: '2' });
    expect(page1.body.result).toHaveLength(2);
    const page2 = await list({ actor: other.user.id, action: 'routeRule.', limit: '2', cursor: (page1.body as unknown as { next: string }).next });
    expect(page2.body.result.map((e) => e.action)).toEqual(['routeRule.create']);
    expect((page2.body as unknown as { next: string | null }).next).toBeNull();

    expect((await list({ action: 'routeRule.update', target_id: rule._id })).body.result).toHaveLength(1);
    expect((await list({ target_type: 'settings', actor: other.user.id })).body.result).toEqual([]);
    expect((await list({ cursor: 'garbage' })).status).toBe(400);
    expect((await list({ actor: 'nobody' })).status).toBe(400);
  });
});

describe('overview', () => {
  it('counts a known world; an order settles at the commission set before it was placed', async () => {
    const overview = async () => (await call<Overview>(t.app, 'GET', '/api/admin/overview', { token: admin.token, query: { period: '7' } })).body.result;
    const before = await overview();
    await put({ 'orders.commissionBp': 1_000 });
    const seller = await signedInPerson(t.app, t.database.db, { roles: ['seller'], activeRole: 'seller' });
    const customer = await signedInPerson(t.app, t.database.db);
    const service = await createService(t.database.db, seller.user.id, { price: 1_000_000, days: 3, revisions: 1 });
    await createService(t.database.db, seller.user.id, { status: 'moderation' });
    const order = await call<{ _id: string }>(t.app, 'POST', '/api/orders', { token: customer.token, body: { service_id: service.id } });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    const id = order.body.result._id;
    await payOrderForTest(t.app, id);
    expect((await call(t.app, 'POST', `/api/orders/${id}/deliver`, { token: seller.token, body: { message: 'Готово, проверьте' } })).status).toBe(200);
    expect((await call(t.app, 'POST', `/api/orders/${id}/accept`, { token: customer.token, body: {} })).status).toBe(200);
    const balance = await call<{ available: number }>(t.app, 'GET', '/api/finance/balance', { token: seller.token });
    expect(balance.body.result.available).toBe(900_000);
    const withdrawal = await call(t.app, 'POST', '/api/withdrawals', { token: seller.token, body: { amount: 100_000, method: 'card', payout_token: 'pt-admin-area', card: { first6: '411111', last4: '1111' } } });
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200);

    const after = await overview();
    expect(after.days).toHaveLength(7);
    expect(after.to).toBe(dayOf(new Date()));
    expect(after.totals.paid_in - before.totals.paid_in).toBe(1_000_000);
    expect(after.totals.revenue - before.totals.revenue).toBe(100_000);
    expect(after.days.at(-1)!.paid_in - before.days.at(-1)!.paid_in).toBe(1_000_000);
    expect(after.totals.orders - before.totals.orders).toBe(1);
    expect(after.totals.new_users - before.totals.new_users).toBe(2);
    const completed = (o: Overview) => o.orders_by_status.find((s) => s.status === 'completed')!.count;
    expect(completed(after) - completed(before)).toBe(1);
    expect(after.waiting.withdrawals - before.waiting.withdrawals).toBe(1);
    expect(after.waiting.withdrawals_amount - before.waiting.withdrawals_amount).toBe(100_000);
    expect(after.waiting.services - before.waiting.services).toBe(1);
    expect(after.waiting.disputes).toBe(0);
    expect((await call(t.app, 'GET', '/api/admin/overview', { token: admin.token, query: { period: '8' } })).status).toBe(400);
  });
});

// Two instances over one database and one Redis: a change made on one is what the other answers at once, long
// before its cache would expire (60 s).
const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');
describe.skipIf(!redisUrl)('two instances', () => {
  let b: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    b = await buildApp({ env: testEnv({ REDIS_URL: redisUrl! }), database: t.database, logger: pino({ level: 'silent' }), web: false });
    await b.ready();
    await b.services.platform.dispatcher.start();
    // The first app has no Redis: its dispatcher must not be the one to take the jobs of this test.
    await t.app.services.platform.dispatcher.stop();
  });
  afterAll(async () => {
    await b?.close();
  });

  const eventually = async (probe: () => Promise<unknown>, expected: unknown) => {
    for (let i = 0; i < 40; i++) {
      if (JSON.stringify(await probe()) === JSON.stringify(expected)) return;
      await sleep(100);
    }
    expect(await probe()).toEqual(expected);
  };

  it('a settings change and a route rule made on one are answered by the other within moments', async () => {
    const a = await buildApp({ env: testEnv({ REDIS_URL: redisUrl! }), database: t.database, logger: pino({ level: 'silent' }), web: false });
    await a.ready();
    await a.services.platform.dispatcher.start();
    try {
      await sleep(300); // the adapters' subscriptions settle
      // b has read both (and keeps them for a minute).
      expect(await b.services.settings.get('orders.commissionBp')).not.toBe(1_234);
      expect(await b.services.routeRules.lookup('/two-instances')).toBeNull();

      const token = await a.services.tokens.sign(admin.user);
      expect((await call(a, 'PUT', '/api/admin/settings', { token, body: { 'orders.commissionBp': 1_234 } })).status).toBe(200);
      expect((await call(a, 'POST', '/api/admin/route-rules', { token, body: { path: '/two-instances', kind: 'redirect', target: '/projects' } })).status).toBe(200);

      await eventually(() => b.services.settings.get('orders.commissionBp'), 1_234);
      await eventually(() => b.services.routeRules.lookup('/two-instances'), { redirect: '/projects' });
    } finally {
      await a.close();
    }
  });
});
