import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_DEFAULT_LIMIT } from '#contract/catalog-constants';
import { createTestDatabase } from '../../../test/database.ts';
import { createUser } from '../../../db/factories.ts';
import { createService } from '../../../db/catalog-factories.ts';
import type { ServicesQuery } from '../deps.ts';
import { plainPage } from './plain-listing.ts';

// ADR 070 (amended in session 35): a later page of the catalogue is a named statement whose plan PostgreSQL keeps.

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
      select seller_id, title, description, category_id, price, days, published_at, status, tags, tags_text, g % 500
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
});
