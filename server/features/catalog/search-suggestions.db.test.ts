import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser } from '../../db/factories.ts';
import { createService } from '../../db/catalog-factories.ts';
import { searchQueries } from '../../db/schema/catalog.ts';
import { call } from '../auth/test-helpers.ts';
import { MIN_SEARCHES, normalizeSearch } from './search-suggestions.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  const seller = await createUser(database.db, { role: 'seller' });
  await createService(database.db, seller.id, { title: 'Нарисую зебровый логотип для кафе', tags: ['зебра'] });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const search = (q: string, cursor?: string) => call<unknown[]>(app, 'GET', '/api/services', { query: cursor ? { q, cursor } : { q } });
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

  it('is open to everybody and refuses a too long text with a Russian 400', async () => {
    const res = await call(app, 'GET', '/api/search/suggestions', { query: { q: 'я'.repeat(101) } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/[а-я]/i);
    expect(await suggestions("'; drop table search_queries; --")).toEqual([]);
  });
});
