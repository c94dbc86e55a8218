import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { installErrorHandler } from './lib/http.ts';
import { createTestApp } from './test/app.ts';
import { createUser } from './db/factories.ts';
import { createProject, createService } from './db/catalog-factories.ts';
import { services } from './modules/services/schema.ts';
import { users } from './modules/users/schema.ts';
import { call } from './test/api.ts';

// Text that PostgreSQL cannot store (a lone UTF-16 surrogate in jsonb, a NUL anywhere) is normalised at the edge:
// no endpoint answers 500 for it.

let t: Awaited<ReturnType<typeof createTestApp>>;
let adminToken: string;
let sellerToken: string;
let sellerId: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createUser(t.database.db, { role: 'admin' });
  const seller = await createUser(t.database.db, { role: 'seller' });
  adminToken = await t.app.services.tokens.sign(admin);
  sellerToken = await t.app.services.tokens.sign(seller);
  sellerId = seller.id;
});
afterAll(() => t.close());

const serviceBody = (text: string) => ({
  title: `Логотип для кофейни ${text}`,
  description: `Нарисую логотип для кофейни, три варианта на выбор и исходники. ${text}`,
  category: 'design',
  price: 150_000,
  days: 3,
  tags: [`тег${text}`],
  packages: [{ kind: 'economy', price: 150_000, days: 3, revisions: 1, description: `Один вариант ${text}` }],
  extras: [{ title: `Срочно ${text}`, price: 50_000, days: 1 }],
});

describe.each([
  // The character, how a client puts it into a URL (a surrogate as its WTF-8 bytes), what is stored instead.
  ['a lone high surrogate', '\ud800', '%ED%A0%80', '\ufffd'],
  ['a lone low surrogate', '\udc00', '%ED%B0%80', '\ufffd'],
  ['a NUL', '\u0000', '%00', ''],
  ['a C0 control', '\u0007', '%07', ''],
])('%s in every string', (_name, bad, inUrl, clean) => {
  it('creates and edits a service with packages and extras, stored well-formed', async () => {
    const created = await call<{ _id: string; packages: { description: string }[]; extras: { title: string }[] }>(t.app, 'POST', '/api/services', {
      token: sellerToken,
      body: serviceBody(bad),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [row] = await t.database.db.select().from(services).where(eq(services.id, created.body.result._id));
    expect(row!.packages[0]!.description).toBe(`Один вариант ${clean}`.trim());
    expect(row!.extras[0]!.title).toBe(`Срочно ${clean}`.trim());
    expect(row!.title).toBe(`Логотип для кофейни ${clean}`.trim());

    const edited = await call(t.app, 'PUT', `/api/services/${created.body.result._id}`, { token: sellerToken, body: serviceBody(`${bad}${bad}`) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const adminEdit = await call(t.app, 'PUT', `/api/admin/services/${created.body.result._id}`, { token: adminToken, body: serviceBody(bad) });
    expect(adminEdit.status, JSON.stringify(adminEdit.body)).toBe(200);
  });

  it('takes the admin reasons for services, projects and blocked users', async () => {
    const service = await createService(t.database.db, sellerId);
    const rejected = await call(t.app, 'PATCH', `/api/admin/services/${service.id}`, { token: adminToken, body: { status: 'hidden', reason: `Нет ${bad} картинок` } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

    const project = await createProject(t.database.db, (await createUser(t.database.db)).id);
    const hidden = await call(t.app, 'PATCH', `/api/admin/projects/${project.id}`, { token: adminToken, body: { status: 'hidden', reason: `Спам ${bad}` } });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);

    const victim = await createUser(t.database.db);
    const blocked = await call(t.app, 'PATCH', `/api/admin/users/${victim.id}/block`, { token: adminToken, body: { blocked: true, reason: `Мошенник ${bad}` } });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    const [row] = await t.database.db.select({ reason: users.blockReason }).from(users).where(eq(users.id, victim.id));
    expect(row!.reason).toBe(`Мошенник ${clean}`.trim());
  });

  it('answers a bad string in the query and the path with a 4xx or a 2xx', async () => {
    for (const url of [
      `/api/services?q=%D0%BB%D0%BE%D0%B3%D0%BE${inUrl}`,
      `/api/services?tag=${inUrl}`,
      `/api/services?category=design&sub=${inUrl}`,
      `/api/projects?q=${inUrl}`,
      `/api/freelancers?q=${inUrl}`,
      `/api/services/${inUrl}`,
      `/api/users/${inUrl}`,
      `/api/categories/sub?category=${inUrl}`,
      `/api/search/suggestions?q=${inUrl}`,
      `/api/tag?q=${inUrl}`,
      `/api/route-rules?path=%2F${inUrl}`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
    }
  });

  it('answers a profile edit with the bad character in it', async () => {
    const res = await call(t.app, 'PATCH', '/api/users/me', { token: sellerToken, body: { about: `Обо мне ${bad}`, name: `Иван${bad}` } });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  });
});

describe('normalisation', () => {
  it('keeps tabs and line breaks, drops other controls and composes to NFC', async () => {
    const res = await call<{ about: string }>(t.app, 'PATCH', '/api/users/me', {
      token: sellerToken,
      body: { about: 'Строка\tодна\r\nвторая\u0000\u001b и\u0306 ещё' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.about).toBe('Строка\tодна\r\nвторая й ещё');
  });
});

describe('a value the database refuses', () => {
  it('is a 400, not a 500 (22P02: a lone surrogate in jsonb, a malformed uuid)', async () => {
    const app = Fastify({ logger: false });
    installErrorHandler(app);
    app.get('/jsonb', async () => t.database.db.execute(sql`select ${'"\\ud800"'}::jsonb`));
    app.get('/uuid', async () => t.database.db.execute(sql`select ${'not-a-uuid'}::uuid`));
    for (const url of ['/jsonb', '/uuid']) {
      const res = await app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
    await app.close();
  });
});

describe('a deeply nested body', () => {
  it('is answered without a 500 (walked without recursion)', async () => {
    const depth = 400_000;
    for (const payload of [`{"about":${'['.repeat(depth)}${']'.repeat(depth)}}`, `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}`]) {
      const res = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { authorization: `Bearer ${sellerToken}`, 'content-type': 'application/json' }, payload });
      expect(res.statusCode, res.body.slice(0, 200)).toBeLessThan(500);
    }
  });
});
