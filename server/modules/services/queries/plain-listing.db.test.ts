import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_DEFAULT_LIMIT } from '#contract/catalog-constants';
import { createTestDatabase } from '../../../test/database.ts';
import { createUser } from '../../../db/factories.ts';
import { createService } from '../../../db/catalog-factories.ts';
import type { ServicesQuery } from '../deps.ts';
import { plainPage } from './plain-listing.ts';

// ADR 070 (amended in sessions 35 and 51): a later page of the catalogue is a named statement whose plan PostgreSQL
// keeps, and a named statement of the catalogue runs on the connections that plan it once (Database.plannedOnce).

// PostgreSQL only: PGlite names its statements by their text (ADR 067).
describe.runIf(process.env.TEST_DB === 'postgres')('a later page of the catalogue', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    const seller = await createUser(database.db);
    const model = await createService(database.db, seller.id);
    // Enough rows (50,000), analyzed, for the planner to walk the popularity index and price a page's LIMIT as it
    // does a catalogue's (with 5,000 it kept the generic plan anyway).
    await database.db.execute(sql`
      insert into services (seller_id, title, description, category_id, price, days, published_at, status, tags, tags_text, popularity)
      select seller_id, title, description, category_id, 10000 + (g % 1000) * 1000, 1 + g % 14, published_at, status, tags, tags_text, g % 500
      from services, generate_series(1, 50000) g where services.id = ${model.id}`);
    await database.db.execute(sql`analyze services`);
  });
  afterAll(() => database?.drop());

  const realtime = { onlineAmong: async () => new Set<string>() };
  const popular: ServicesQuery = { sort: 'popular', limit: LISTING_DEFAULT_LIMIT };

  it('keeps its generic plan on a connection, and finds the same rows with it', async () => {
    await database.db.transaction(async (tx) => {
      const first = await plainPage({ db: tx, realtime }, popular);
      expect(first.next).toBeTruthy();
      const pages: Awaited<ReturnType<typeof plainPage>>[] = [];
      for (let run = 0; run < 8; run++) pages.push(await plainPage({ db: tx, realtime }, { ...popular, cursor: first.next! }));
      const ids = (page: (typeof pages)[number]) => page.result.map((card) => card._id);
      expect(ids(pages[0]!)).toHaveLength(LISTING_DEFAULT_LIMIT);
      // The same page whichever plan answered it, and none of it on the first page.
      for (const page of pages) expect(ids(page)).toEqual(ids(pages[0]!));
      expect(ids(pages[0]!).filter((id) => ids(first).includes(id))).toEqual([]);
      const { rows } = (await tx.execute(
        sql`select generic_plans, custom_plans from pg_prepared_statements where name = 'services_list_popular_after'`,
      )) as unknown as { rows: { generic_plans: string; custom_plans: string }[] };
      // PostgreSQL plans the first five runs for their values, then keeps the generic plan when it costs no more.
      expect(rows).toEqual([{ generic_plans: '3', custom_plans: '5' }]);
    });
  });

  it('runs a price-sorted price range on the connections that plan it once, with the rows planned for its values', async () => {
    const filtered: ServicesQuery = { sort: 'price_asc', limit: LISTING_DEFAULT_LIMIT, category: 'design', price_min: 500_000, price_max: 600_000, days_max: 7 };
    const { rows: expected } = (await database.db.execute(sql`
      select s.id from services s join categories c on c.id = s.category_id
      where c.slug = 'design' and s.status = 'active' and s.price between 500000 and 600000 and s.days <= 7
      order by s.price, s.id limit ${LISTING_DEFAULT_LIMIT}`)) as unknown as { rows: { id: string }[] };
    expect(expected).toHaveLength(LISTING_DEFAULT_LIMIT);
    await database.plannedOnce.transaction(async (tx) => {
      const setting = (await tx.execute(sql`select current_setting('plan_cache_mode') as mode`)) as unknown as { rows: { mode: string }[] };
      expect(setting.rows).toEqual([{ mode: 'force_generic_plan' }]);
      for (let run = 0; run < 3; run++) {
        const page = await plainPage({ db: database.db, plannedOnce: tx, realtime }, filtered);
        expect(page.result.map((card) => card._id)).toEqual(expected.map((row) => row.id));
      }
      // The same range under the popularity order is planned for its values: unnamed, so not kept on the connection.
      await plainPage({ db: database.db, plannedOnce: tx, realtime }, { ...filtered, sort: 'popular' });
      const { rows } = (await tx.execute(
        sql`select name, generic_plans, custom_plans from pg_prepared_statements order by name`,
      )) as unknown as { rows: { name: string; generic_plans: string; custom_plans: string }[] };
      expect(rows).toEqual([{ name: 'services_list_price_asc_category_price_min_price_max_days_max', generic_plans: '3', custom_plans: '0' }]);
    });
  });
});
