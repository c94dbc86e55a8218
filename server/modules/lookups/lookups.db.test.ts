import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { tags } from './schema.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.database.db);
  token = await t.app.services.tokens.sign(user);
});
afterAll(() => t.close());

const ru = new Intl.Collator('ru');
const sortedByRussian = (titles: string[]) => [...titles].sort(ru.compare);

describe('SPEC lookups', () => {
  it.each([
    ['/api/cities/', 100],
    ['/api/countries/', 240],
    ['/api/categories/', 10],
    ['/api/categories/sub', 50],
  ])('%s answers every item with _id and title, sorted with Russian collation, without a token', async (url, min) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ status: number; result: { _id: string; title: string }[]; total: number }>();
    expect(body.status).toBe(200);
    expect(body.result.length).toBeGreaterThanOrEqual(min);
    expect(body.total).toBe(body.result.length);
    for (const item of body.result) expect(item).toEqual(expect.objectContaining({ _id: expect.any(String), title: expect.any(String) }));
    const titles = body.result.map((r) => r.title);
    expect(titles).toEqual(sortedByRussian(titles));
  });

  it('answers with and without the trailing slash', async () => {
    expect((await t.app.inject({ url: '/api/cities' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/categories/sub/' })).statusCode).toBe(200);
  });

  it('every category has a slug and sub-categories name their category', async () => {
    const cats = (await t.app.inject({ url: '/api/categories/' })).json<{ result: { slug: string }[] }>().result;
    const subs = (await t.app.inject({ url: '/api/categories/sub' })).json<{ result: { slug: string; category: string }[] }>().result;
    const slugs = new Set(cats.map((c) => c.slug));
    for (const c of cats) expect(c.slug).toMatch(/^[a-z0-9-]+$/);
    for (const s of subs) expect(slugs.has(s.category)).toBe(true);
  });

  it('GET /api/tag needs a token', async () => {
    const res = await t.app.inject({ url: '/api/tag' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: 'Требуется вход в аккаунт' });
  });

  it('GET /api/tag refuses a foreign or broken token', async () => {
    for (const bad of ['nonsense', `${token}x`, 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.']) {
      const res = await t.app.inject({ url: '/api/tag', headers: { authorization: `Bearer ${bad}` } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('GET /api/tag lists tags carrying `tag`, ё after е and Cyrillic before Latin', async () => {
    await t.database.db.insert(tags).values([{ tag: 'ёж-тест' }, { tag: 'еж-тест' }, { tag: 'ель-тест' }]).onConflictDoNothing();
    t.app.services.lookups.invalidate();
    const res = await t.app.inject({ url: '/api/tag', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ result: { _id: string; tag: string }[] }>().result.map((r) => r.tag);
    expect(list.length).toBeGreaterThan(50);
    const pos = (tag: string) => list.indexOf(tag);
    expect(pos('еж-тест')).toBeLessThan(pos('ёж-тест'));
    expect(pos('ёж-тест')).toBeLessThan(pos('ель-тест'));
    const firstLatin = list.findIndex((x) => /^[a-z]/.test(x));
    const lastCyrillic = list.findLastIndex((x) => /^[а-яё]/.test(x));
    expect(firstLatin).toBeGreaterThan(lastCyrillic);
  });
});

describe('the catalogue file (issue 11: no catalogue in the pages’ hydration data)', () => {
  it('is the catalogue tree by slug at an address named by its content, kept by browsers for good', async () => {
    const { path } = await t.app.services.lookups.catalogueFile();
    expect(path).toMatch(/^\/catalogue\/[\w-]{12}\.json$/);
    const res = await t.app.inject({ url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const tree = res.json<{ slug: string; title: string; subs: { slug: string; title: string }[] }[]>();
    expect(tree).toEqual(await t.app.services.lookups.catalogue());
    expect(tree.find((c) => c.slug === 'design')).toMatchObject({ title: 'Дизайн', subs: expect.arrayContaining([expect.objectContaining({ slug: 'logo-design' })]) });
    // No ids: every answer names categories by slug.
    expect(res.body).not.toContain('_id');
    // The same content, the same address: pages rendered by any instance share the browser's copy.
    expect((await t.app.services.lookups.catalogueFile()).path).toBe(path);
  });

  it('an old address still gets the current catalogue, not kept; anything else is a 404', async () => {
    const old = await t.app.inject({ url: '/catalogue/AAAAAAAAAAAA.json' });
    expect(old.statusCode).toBe(200);
    expect(old.headers['cache-control']).toBe('no-cache');
    for (const url of ['/catalogue/x.json', '/catalogue/AAAAAAAAAAAA.js', '/catalogue/..%2Fpackage.json']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});
