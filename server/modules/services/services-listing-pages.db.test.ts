import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { services } from './schema.ts';
import { CATALOG_MESSAGES } from '#contract/catalog';
import { encodeCursor, orderBy } from '../../platform/listing/listing.ts';
import { EXACT_TOTAL_LIMIT } from '../../platform/listing/totals.ts';
import { sortPlan, type ListingSort } from './queries/listing-plan.ts';
import { createService } from '../../db/catalog-factories.ts';
import { ids, marker, useServicesApi } from './testing.ts';

// The public listing of services: each sort order through its keyset pages, searches ranked by popularity, totals.

const api = useServicesApi();
const { seller, list, walk } = api;

describe('GET /api/services: sort orders, pages and totals', () => {
  describe('sort orders and keyset pages', () => {
    const tag = marker();
    type Made = { id: string; popularity: number; price: number; rating: number; micros: number };
    const made: Made[] = [];
    beforeAll(async () => {
      const sellers = [await seller(), await seller(), await seller()];
      for (let i = 0; i < 30; i++) {
        // Plenty of ties in every key, so the id decides often.
        const values = { popularity: (i * 7) % 10, price: 50_000 + ((i * 13) % 8) * 10_000, rating: ((i * 11) % 6) * 50 + 200 };
        const s = await createService(api.db, sellers[i % 3]!.user.id, { ...values, tags: [tag], title: `Сделаю презентацию номер ${i}` });
        // Publication times a microsecond apart, some equal: a millisecond clock would lose the order.
        const micros = (i * 17) % 12;
        await api.db.update(services).set({ publishedAt: sql`timestamptz '2025-03-01 12:00:00+00' + make_interval(secs => ${micros}::double precision / 1000000)` }).where(eq(services.id, s.id));
        made.push({ id: s.id, ...values, micros });
      }
    });

    const byKeys = (keys: ((m: Made) => number | string)[], dir: 1 | -1) => (a: Made, b: Made) => {
      for (const key of keys) {
        const [x, y] = [key(a), key(b)];
        if (x !== y) return (x < y ? -1 : 1) * dir;
      }
      return 0;
    };
    const expected: Record<string, () => string[]> = {
      popular: () => [...made].sort(byKeys([(m) => m.popularity, (m) => m.id], -1)).map((m) => m.id),
      new: () => [...made].sort(byKeys([(m) => m.micros, (m) => m.id], -1)).map((m) => m.id),
      price_asc: () => [...made].sort(byKeys([(m) => m.price, (m) => m.id], 1)).map((m) => m.id),
      price_desc: () => [...made].sort(byKeys([(m) => m.price, (m) => m.id], -1)).map((m) => m.id),
      rating: () => [...made].sort(byKeys([(m) => m.rating, (m) => m.id], -1)).map((m) => m.id),
    };

    it.each(Object.keys(expected))('%s: pages of 7 through the cursor give the whole order, no repeats, no gaps', async (sort) => {
      const { ids: walked, pages, totals } = await walk({ tag, sort }, 7);
      expect(walked).toEqual(expected[sort]!());
      expect(pages).toEqual([7, 7, 7, 7, 2]);
      expect(totals.every((t) => t === 30)).toBe(true);
      // An exact multiple of the page size ends without an empty page.
      expect((await walk({ tag, sort }, 5)).pages).toEqual([5, 5, 5, 5, 5, 5]);
      expect((await walk({ tag, sort }, 60)).ids).toEqual(walked);
    });

    it.each(Object.keys(expected))('%s: a page is read from an index in its order, with or without a category, never sorted', async (sort) => {
      const keys = sortPlan(sort as ListingSort, null).keys;
      for (const category of [false, true]) {
        const page = api.db
          .select({ id: services.id })
          .from(services)
          .where(and(sql`${services.status} = 'active'`, category ? sql`${services.categoryId} = (select id from categories where slug = 'design')` : undefined))
          .orderBy(...orderBy(keys))
          .limit(21);
        // Sorting made too costly to choose: a plan that still sorts has no index to read the order from (a page of
        // price_desc sorted every service of the catalogue, 1.2 s at a million).
        const plan = await api.db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_sort = off`);
          await tx.execute(sql`set local enable_incremental_sort = off`);
          const result = (await tx.execute(sql`explain (format json) ${page.getSQL()}`)) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
          return JSON.stringify(result.rows[0]!['QUERY PLAN']);
        });
        expect(plan, `${sort}${category ? ' in a category' : ''}`).not.toMatch(/"Node Type":\s*"(Incremental )?Sort"/);
        expect(plan).toMatch(/Index (Only )?Scan/);
      }
    });

    it('the default sort is popular', async () => {
      expect(ids((await list({ tag, limit: '60' })).body.result)).toEqual(expected.popular!());
    });

    it('a search with the default sort orders by relevance, and its pages add up to the whole list', async () => {
      const searchTag = marker();
      const a = await seller();
      const titles = ['Логотип', 'Логотип и логотипы', 'Визитка', 'Логотип, визитка и бланк', 'Лого и логотипчик', 'Логотип логотип логотип'];
      for (const [i, title] of titles.entries()) {
        await createService(api.db, a.user.id, { tags: [searchTag], title: `${title} — заказ ${i}`, description: 'Логотип для вашей компании, фирменный стиль и визитки в подарок, быстро и качественно.' });
      }
      for (const limit of [1, 2, 4]) {
        const walked = await walk({ tag: searchTag, q: 'логотип' }, limit);
        const whole = ids((await list({ tag: searchTag, q: 'логотип', limit: '60' })).body.result);
        expect(walked.ids).toEqual(whole);
        expect(new Set(walked.ids).size).toBe(walked.ids.length);
      }
      // With an explicit sort other than popular, the matches keep that sort.
      const cheap = await walk({ tag: searchTag, q: 'логотип', sort: 'price_asc' }, 2);
      expect(cheap.ids.length).toBe(6);
    });

    it('a cursor of another sort, or a forged one, is refused', async () => {
      const first = await list({ tag, sort: 'popular', limit: '7' });
      const res = await list({ tag, sort: 'rating', limit: '7', cursor: first.body.next! });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.badCursor);
      const made0 = made[0]!;
      const forged: [string, string][] = [
        ['popular', encodeCursor(['popular', made0.popularity])],
        ['popular', encodeCursor(['popular', '10', made0.id])],
        ['popular', encodeCursor(['popular', 1.5, made0.id])],
        ['popular', encodeCursor(['popular', made0.popularity, 'not-a-uuid'])],
        ['popular', encodeCursor(['popular', made0.popularity, made0.id, 1])],
        ['popular', encodeCursor(['popular', { $gt: 1 } as never, made0.id])],
        ['new', encodeCursor(['new', '2025-03-01', made0.id])],
        ['new', encodeCursor(['new', '2025-13-45T99:99:99Z', made0.id])],
        ['new', encodeCursor(['new', null, made0.id])],
        ['popular', encodeCursor([])],
        ['popular', Buffer.from('{"a":1}').toString('base64url')],
        ['popular', Buffer.from('not json').toString('base64url')],
        ['popular', 'abc'],
        ['popular', '%%%'],
        ['popular', '===='],
        ['popular', `${encodeCursor(['popular', 1, made0.id])}x`],
      ];
      for (const [sort, cursor] of forged) {
        const bad = await list({ tag, sort, cursor });
        expect(bad.status, cursor).toBe(400);
        expect(bad.body.message).toBe(CATALOG_MESSAGES.badCursor);
      }
      // A well-formed cursor of a position that does not exist just continues from there.
      const after = await list({ tag, sort: 'popular', cursor: encodeCursor(['popular', 5, '00000000-0000-4000-8000-000000000000']) });
      expect(after.status).toBe(200);
      expect(ids(after.body.result)).toEqual(expected.popular!().filter((id) => made.find((m) => m.id === id)!.popularity < 5));
    });
  });

  it('a search with more matches than are ranked, but few: popularity order read from the search index, an exact total, every page once', async () => {
    // Letters only: one lexeme (a marker's digits would split it into several, each estimated apart).
    const word = `мозаика${[...randomBytes(6)].map((b) => 'бвгджзклмнпрстфхцчшщ'[b % 20]).join('')}`;
    const { user } = await seller();
    // More than twice the limit: one seller's services are half of what the planner expects of them (its guess
    // for the blocked-seller check on a table of a few users).
    const n = EXACT_TOTAL_LIMIT * 2 + 600;
    await api.db.execute(sql`
      insert into services (seller_id, title, description, category_id, price, days, status, published_at, popularity)
      select ${user.id}, 'Массовая услуга ' || ${word} || ' номер ' || g, 'Описание массовой услуги для проверки поиска, достаточно длинное.',
             (select id from categories where slug = 'design'), 50000 + g, 3, 'active', now(), (g * 37) % 500
      from generate_series(1, ${n}) g`);
    try {
      // The planner knows the word (and how few sellers are blocked): more matches than are ranked, too few for a
      // walk of the popularity index.
      await api.db.execute(sql`analyze services`);
      await api.db.execute(sql`analyze users`);
      const first = await list({ q: word, limit: '60' });
      expect(first.body).toMatchObject({ total: n, total_exact: true });
      const all = await walk({ q: word }, 60);
      const expected = await api.db
        .select({ id: services.id })
        .from(services)
        .where(eq(services.sellerId, user.id))
        .orderBy(desc(services.popularity), desc(services.id));
      expect(all.ids).toEqual(expected.map((r) => r.id));
      expect(new Set(all.totals)).toEqual(new Set([n]));
    } finally {
      await api.db.delete(services).where(eq(services.sellerId, user.id));
    }
  });

  it(`total is exact up to ${EXACT_TOTAL_LIMIT} and a rounded estimate beyond, reused by later pages`, async () => {
    const tag = marker();
    const { user } = await seller();
    await api.db.execute(sql`
      insert into services (seller_id, title, description, category_id, price, days, status, published_at, tags, tags_text, popularity)
      select ${user.id}, 'Массовая услуга ' || g, 'Описание массовой услуги для проверки счётчика, достаточно длинное.',
             (select id from categories where slug = 'design'), 50000 + g, 3, 'active', now(), array[${tag}]::text[], ${tag}, g % 100
      from generate_series(1, ${EXACT_TOTAL_LIMIT + 50}) g`);
    try {
      const all = await list({ tag, limit: '60' });
      // Whatever the planner guessed for this fresh tag, a count of more than the limit is never "exact".
      expect(all.body.total_exact).toBe(false);
      expect(all.body.total).toBeGreaterThanOrEqual(EXACT_TOTAL_LIMIT);
      expect(all.body.result).toHaveLength(60);
      expect(all.body.next).toBeTruthy();
      const some = await list({ tag, price_max: String(50_000 + 123) });
      expect(some.body).toMatchObject({ total: 123, total_exact: true });
      const second = await list({ tag, limit: '60', cursor: all.body.next! });
      expect(second.body).toMatchObject({ total: all.body.total, total_exact: false });
      expect(new Set([...ids(all.body.result), ...ids(second.body.result)]).size).toBe(120);
      // Once the planner knows the table, the estimate is close to the truth.
      await api.db.execute(sql`analyze services`);
      const analyzed = await list({ category: 'design', limit: '1' });
      expect(analyzed.body.total_exact).toBe(false);
      expect(analyzed.body.total).toBeGreaterThan(EXACT_TOTAL_LIMIT * 0.7);
    } finally {
      await api.db.delete(services).where(eq(services.sellerId, user.id));
    }
  });
});
