import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser } from '../../db/factories.ts';
import type { AdminSearchSuggestion } from '#contract/catalog';
import { createService } from '../../db/catalog-factories.ts';
import { searchQueries } from './schema.ts';
import { users } from '../users/schema.ts';
import { call } from '../../test/api.ts';
import { MIN_SEARCHES, normalizeSearch } from './service.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let adminToken: string;
let userToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  const seller = await createUser(database.db, { role: 'seller' });
  await createService(database.db, seller.id, { title: 'Нарисую зебровый логотип для кафе', tags: ['зебра'] });
  adminToken = await app.services.tokens.sign(await createUser(database.db, { role: 'admin' }));
  userToken = await app.services.tokens.sign(seller);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

let address = 0;
/** A search from a fresh address unless one is given (searchers are counted once a day each). */
const search = (q: string, opts: { remoteAddress?: string; token?: string } = {}) =>
  call<unknown[]>(app, 'GET', '/api/services', { query: { q }, remoteAddress: opts.remoteAddress ?? `198.18.0.${++address}`, token: opts.token ?? null });
const suggestions = async (q?: string) => {
  const res = await call<string[]>(app, 'GET', '/api/search/suggestions', { query: q === undefined ? {} : { q } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};

describe('normalizeSearch', () => {
  it('keeps a query as people retype it', () => {
    expect(normalizeSearch('  Зебровый   ЛОГОТИП ')).toBe('зебровый логотип');
    expect(normalizeSearch('Ёлка')).toBe('елка');
    expect(normalizeSearch('!!!')).toBeNull();
    expect(normalizeSearch('a')).toBeNull();
    expect(normalizeSearch('слово '.repeat(20))).toBeNull();
    expect(normalizeSearch('лого\u0000тип')).toBe('лого тип');
  });
});

describe('GET /api/search/suggestions', () => {
  it(`offers a query that found something once ${MIN_SEARCHES} searches made it popular, by its beginning`, async () => {
    for (let i = 0; i < MIN_SEARCHES - 1; i++) expect((await search('Зебровый логотип')).status).toBe(200);
    await app.services.searchSuggestions.flush();
    expect(await suggestions('зеб')).toEqual([]);

    await search('зебровый  ЛОГОТИП');
    await app.services.searchSuggestions.flush();
    expect(await suggestions('зеб')).toEqual(['зебровый логотип']);
    expect(await suggestions('ЗЕБРОВЫЙ л')).toEqual(['зебровый логотип']);
    expect(await suggestions()).toContain('зебровый логотип');
    expect(await suggestions('логотип')).toEqual([]);
  });

  it('does not count searches that found nothing, nor later pages', async () => {
    for (let i = 0; i < MIN_SEARCHES + 1; i++) await search('несуществующая услуга');
    await app.services.searchSuggestions.flush();
    expect(await suggestions('несущ')).toEqual([]);
    const rows = await database.db.select().from(searchQueries);
    expect(rows.map((r) => r.query)).not.toContain('несуществующая услуга');
  });

  it('orders by popularity and treats LIKE wildcards as text', async () => {
    // A suggestion must find something (ADR 028): a service these queries find.
    const [seller] = await database.db.select().from(users).limit(1);
    await createService(database.db, seller!.id, { title: 'Зебра редкая и частая', description: 'Зе бра.' });
    await database.db.insert(searchQueries).values([
      { query: 'зебра редкая', searches: MIN_SEARCHES },
      { query: 'зебра частая', searches: 100 },
      { query: 'зе%бра', searches: 50 },
    ]);
    expect(await suggestions('зебра')).toEqual(['зебра частая', 'зебра редкая']);
    expect(await suggestions('зе%')).toEqual(['зе%бра']);
    expect(await suggestions('%')).toEqual([]);
    expect(await suggestions('_')).toEqual([]);
  });

  it('three searches from one address plant nothing; from one IPv6 /64 or one signed-in user neither', async () => {
    for (let i = 0; i < 3; i++) expect((await search('зебровый кафе', { remoteAddress: '203.0.113.5' })).status).toBe(200);
    for (let i = 1; i <= 3; i++) await search('кафе логотип', { remoteAddress: `2001:db8:5:5::${i}` });
    for (let i = 1; i <= 3; i++) await search('логотип зебра', { remoteAddress: `203.0.113.${100 + i}`, token: userToken });
    await app.services.searchSuggestions.flush();
    expect(await suggestions('зебровый к')).toEqual([]);
    expect(await suggestions('кафе')).toEqual([]);
    expect(await suggestions('логотип з')).toEqual([]);
  });

  it('three distinct addresses do', async () => {
    for (const remoteAddress of ['203.0.113.21', '203.0.113.22', '2001:db8:7:7::1']) await search('кафе зебровый', { remoteAddress });
    await app.services.searchSuggestions.flush();
    expect(await suggestions('кафе з')).toEqual(['кафе зебровый']);
  });

  it('is open to everybody and refuses a too long text with a Russian 400', async () => {
    const res = await call(app, 'GET', '/api/search/suggestions', { query: { q: 'я'.repeat(101) } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/[а-я]/i);
    expect(await suggestions("'; drop table search_queries; --")).toEqual([]);
  });
});

describe('/api/admin/search-suggestions', () => {
  const list = (query: Record<string, string> = {}, token: string | null = adminToken) =>
    call<AdminSearchSuggestion[]>(app, 'GET', '/api/admin/search-suggestions', { query, token });
  const remove = (query: string, token: string | null = adminToken) =>
    call<string>(app, 'DELETE', `/api/admin/search-suggestions/${encodeURIComponent(query)}`, { token });

  it('lists what is offered, and a removed suggestion never returns, even searched again by others', async () => {
    for (let i = 0; i < MIN_SEARCHES; i++) await search('Логотип для зебры');
    await app.services.searchSuggestions.flush();
    expect(await suggestions('логотип для')).toEqual(['логотип для зебры']);
    const listed = await list({ q: 'логотип' });
    expect(listed.status).toBe(200);
    expect(listed.body.result).toEqual([expect.objectContaining({ query: 'логотип для зебры', searches: MIN_SEARCHES, hidden: false })]);

    // Written as typed: the call folds it as the search box does.
    const removed = await remove('  Логотип  ДЛЯ зебры ');
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.result).toBe('логотип для зебры');
    expect((await remove('логотип для зебры')).status).toBe(200);
    expect(await suggestions('логотип для')).toEqual([]);

    for (let i = 0; i < MIN_SEARCHES * 2; i++) await search('логотип для зебры');
    await app.services.searchSuggestions.flush();
    expect(await suggestions('логотип для')).toEqual([]);
    expect(await suggestions()).not.toContain('логотип для зебры');
    expect((await list({ q: 'логотип' })).body.result).toEqual([]);
    expect((await list({ q: 'логотип', hidden: '1' })).body.result).toEqual([expect.objectContaining({ query: 'логотип для зебры', hidden: true })]);
  });

  it('removes a query before anyone searched it, for good', async () => {
    expect((await remove('логотип кафе зебра')).status).toBe(200);
    for (let i = 0; i < MIN_SEARCHES; i++) await search('логотип кафе зебра');
    await app.services.searchSuggestions.flush();
    expect(await suggestions('логотип кафе')).toEqual([]);
  });

  it('is for admins only, and refuses a query that cannot be a suggestion with a Russian 400', async () => {
    expect((await list({}, null)).status).toBe(401);
    expect((await list({}, userToken)).status).toBe(403);
    expect((await remove('зебра', null)).status).toBe(401);
    expect((await remove('зебра', userToken)).status).toBe(403);
    const bad = await remove('!!!');
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.query?.[0]).toMatch(/[а-я]/);
    expect((await list({ limit: String(2 ** 31) })).status).toBe(400);
  });
});
