import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../users/schema.ts';
import { sellerLevel } from '../users/index.ts';
import { createService } from '../../db/catalog-factories.ts';
import { ids, marker, useServicesApi } from './testing.ts';
import { statementsDuring } from '../../test/statements.ts';

// The public listing of services: what a card shows, each filter, and bad queries answered safely.

const api = useServicesApi();
const { seller, upload, list } = api;

describe('GET /api/services: the public listing', () => {
  it("reads a catalogue page and its sellers in one statement, its total aside", async () => {
    const tag = marker();
    const owners = [await seller(), await seller()];
    for (const [i, owner] of owners.entries()) await createService(api.db, owner.user.id, { tags: [tag], price: 100_000 * (i + 1) });
    let res: Awaited<ReturnType<typeof list>> | undefined;
    const seen = await statementsDuring(api.db, async () => {
      res = await list({ tag, sort: 'price_asc', price_min: '50000' });
    });
    expect(res!.body.result.map((card) => card.seller._id)).toEqual(owners.map((o) => o.user.id));
    // The total (counted, or estimated) is kept apart: reused by later pages.
    const reads = seen.filter((text) => !/^(select count|explain)/i.test(text.trim()));
    expect(reads, reads.join('\n\n')).toHaveLength(1);
  });

  it('cards only, of active services of sellers who are not blocked', async () => {
    const tag = marker();
    const owner = await seller();
    const image = await upload(owner.user);
    const shown = await createService(api.db, owner.user.id, { tags: [tag], images: [image, await upload(owner.user)] });
    for (const status of ['draft', 'moderation', 'rejected', 'paused', 'hidden'] as const) await createService(api.db, owner.user.id, { tags: [tag], status });
    const blocked = await seller({ blockedAt: new Date() });
    await createService(api.db, blocked.user.id, { tags: [tag] });

    for (const token of [null, owner.token, api.admin.token]) {
      const res = await list({ tag }, token);
      expect(ids(res.body.result)).toEqual([shown.id]);
      expect(res.body.total).toBe(1);
      expect(res.body.next).toBeNull();
    }
    const card = (await list({ tag })).body.result[0]!;
    expect(card).toEqual({
      _id: shown.id,
      title: shown.title,
      cover: image,
      price: shown.price,
      days: shown.days,
      category: 'design',
      rating: 0,
      reviews_count: 0,
      seller: {
        _id: owner.user.id,
        user_name: owner.user.userName,
        name: owner.user.name,
        surname: owner.user.surname,
        avatar: null,
        level: 'new',
        rating: 0,
        reviews_count: 0,
        orders_count: 0,
        online_status: false,
      },
    });

    // Blocking a seller takes their services out at once.
    await api.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    expect((await list({ tag })).body).toMatchObject({ result: [], total: 0, next: null });
  });

  describe('filters', () => {
    const tag = marker();
    const made: Record<string, string> = {};
    beforeAll(async () => {
      const a = await seller();
      const add = async (name: string, overrides: Parameters<typeof createService>[2]) => {
        made[name] = (await createService(api.db, a.user.id, { ...overrides, tags: [tag, ...(overrides?.tags ?? [])] })).id;
      };
      await add('logo', { title: 'Нарисую логотип для кофейни', sub: 'logo-design', price: 100_000, days: 2 });
      await add('logos', { title: 'Три логотипа на выбор', sub: 'logo-design', price: 250_000, days: 4 });
      await add('brand', { title: 'Фирменный стиль под ключ', sub: 'brand-identity', price: 900_000, days: 14, tags: ['брендбук'] });
      await add('described', { title: 'Айдентика для стартапа', description: 'Разработаю логотипы, визитки и бланки в одном стиле для вашего стартапа.', sub: 'brand-identity', price: 500_000, days: 7 });
      await add('site', { title: 'Сверстаю лендинг на Тильде', category: 'development', sub: 'landing-pages', price: 2_000_000, days: 10 });
    });
    const found = async (query: Record<string, string>) => {
      const res = await list({ tag, ...query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.total).toBe(res.body.result.length);
      return new Set(ids(res.body.result));
    };
    const names = (...list: string[]) => new Set(list.map((n) => made[n]));

    it('by category and sub-category slugs', async () => {
      expect(await found({ category: 'design' })).toEqual(names('logo', 'logos', 'brand', 'described'));
      expect(await found({ category: 'development' })).toEqual(names('site'));
      expect(await found({ sub: 'logo-design' })).toEqual(names('logo', 'logos'));
      expect(await found({ category: 'design', sub: 'brand-identity' })).toEqual(names('brand', 'described'));
      expect(await found({ category: 'development', sub: 'brand-identity' })).toEqual(names());
      expect(await found({ category: 'no-such-category' })).toEqual(names());
    });

    it('by tag, case-insensitively', async () => {
      expect(await found({ tag: 'брендбук' })).toEqual(names('brand'));
      expect(await found({ tag: ' Брендбук ' })).toEqual(names('brand'));
      expect((await found({ tag: tag.toUpperCase() })).size).toBe(5);
    });

    it('by price range and delivery days', async () => {
      expect(await found({ price_min: '250000', price_max: '900000' })).toEqual(names('logos', 'brand', 'described'));
      expect(await found({ price_max: '100000' })).toEqual(names('logo'));
      expect(await found({ price_min: '2000001' })).toEqual(names());
      expect(await found({ price_min: '900000', price_max: '100000' })).toEqual(names());
      expect(await found({ days_max: '4' })).toEqual(names('logo', 'logos'));
      expect(await found({ days_max: '7', price_min: '200000' })).toEqual(names('logos', 'described'));
    });

    it('Russian search with stemming: логотип, логотипа, логотипы find the same services', async () => {
      const expected = names('logo', 'logos', 'described');
      for (const q of ['логотип', 'логотипа', 'логотипы', 'Логотипов', 'ЛОГОТИПАМИ']) expect(await found({ q }), q).toEqual(expected);
      expect(await found({ q: 'брендбука' })).toEqual(names('brand'));
      expect(await found({ q: 'лендинги' })).toEqual(names('site'));
      expect(await found({ q: 'логотип -кофейни' })).toEqual(names('logos', 'described'));
      // 'described' is in the sub-category «Фирменный стиль», whose title is searched too (ADR 028).
      expect(await found({ q: '"фирменный стиль"' })).toEqual(names('brand', 'described'));
      expect(await found({ q: 'логотип', category: 'design', price_max: '300000' })).toEqual(names('logo', 'logos'));
    });

    it('a search ranks the title above the description', async () => {
      const res = await list({ tag, q: 'логотипы' });
      expect(res.body.result.at(-1)!._id).toBe(made.described);
    });

    it('by seller level, derived in SQL exactly as sellerLevel()', async () => {
      const levelTag = marker();
      const grid: [number, number][] = [
        [0, 0], [9, 500], [10, 449], [10, 450], [49, 500], [50, 469], [50, 470], [200, 500], [100, 449],
      ];
      const bySeller = new Map<string, string>();
      for (const [completedOrders, rating] of grid) {
        const { user } = await seller({ completedOrders, rating });
        bySeller.set((await createService(api.db, user.id, { tags: [levelTag] })).id, sellerLevel(completedOrders, rating));
      }
      for (const level of ['new', 'advanced', 'pro'] as const) {
        const res = await list({ tag: levelTag, level });
        const expected = [...bySeller].filter(([, l]) => l === level).map(([id]) => id);
        expect(new Set(ids(res.body.result)), level).toEqual(new Set(expected));
        expect(res.body.result.every((c) => c.seller.level === level)).toBe(true);
      }
      expect(new Set([...bySeller.values()])).toEqual(new Set(['new', 'advanced', 'pro']));
    });

    it('online now: sellers seen within the last five minutes', async () => {
      const onlineTag = marker();
      const add = async (lastSeenAt: Date | null) => (await createService(api.db, (await seller({ lastSeenAt })).user.id, { tags: [onlineTag] })).id;
      const now = await add(new Date());
      const recently = await add(new Date(Date.now() - 4 * 60_000));
      await add(new Date(Date.now() - 10 * 60_000));
      await add(null);
      expect(new Set(ids((await list({ tag: onlineTag, online: '1' })).body.result))).toEqual(new Set([now, recently]));
      expect(new Set(ids((await list({ tag: onlineTag, online: 'true' })).body.result))).toEqual(new Set([now, recently]));
      expect((await list({ tag: onlineTag })).body.total).toBe(4);
    });
  });

  describe('bad queries: a 400 or a safe answer, never a 500', () => {
    const bad: Record<string, string>[] = [
      { limit: '100000' },
      { limit: '0' },
      { limit: '-1' },
      { limit: 'ten' },
      { sort: 'views' },
      { sort: 'price_asc; drop table services' },
      { price_min: '-1' },
      { price_max: '1e99' },
      { price_min: 'дёшево' },
      { days_max: '0' },
      { days_max: '1000' },
      { level: 'god' },
      { online: 'yes' },
      { category: "design' or '1'='1" },
      { category: 'Дизайн' },
      { sub: '../etc' },
      { tag: 'x'.repeat(41) },
      { q: 'логотип '.repeat(40) },
      { cursor: 'x'.repeat(201) },
    ];
    it.each(bad)('%o → 400', async (query) => {
      const res = await list(query);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBeTruthy();
    });

    const safe = [
      "'; drop table services; --",
      ')(*&^',
      '"',
      '""""',
      '!!!',
      '& | ! <->',
      'or',
      '-',
      '- -логотип',
      'логотип & | ! ( ) : * <-> \\',
      '\u0000',
      'логотип\u0000',
      'лого\u0000тип\u0007',
      '😀',
      'а'.repeat(200),
      'и в на',
      '%_\\',
    ];
    it.each(safe)('q=%j → 200', async (q) => {
      const res = await list({ q });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Array.isArray(res.body.result)).toBe(true);
      expect(typeof res.body.total).toBe('number');
    });

    it('an empty cursor is a first page, in every shape of filter (the fuzz found a 500 there)', async () => {
      const first = await list({ category: 'design', limit: '2' });
      const shapes: Record<string, string>[] = [{}, { category: 'design' }, { category: 'design', tag: 'лого', price_min: '100', online: 'true' }];
      for (const query of shapes) {
        const res = await list({ ...query, limit: '2', cursor: '' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect(ids((await list({ category: 'design', limit: '2', cursor: '' })).body.result)).toEqual(ids(first.body.result));
    });

    it('a tag with control characters is a safe answer too', async () => {
      expect((await list({ tag: 'лого\u0000тип' })).status).toBe(200);
    });

    it('the services table is still there', async () => {
      expect((await list({})).status).toBe(200);
    });
  });
});
