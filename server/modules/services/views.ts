import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { services } from './schema.ts';
import { recentViews, serviceViewsDaily } from './schema.ts';
import { Tally } from '../../platform/listing/tally.ts';
import { SeenToday } from '../../platform/listing/visitors.ts';
import { dayOf } from '#contract/dashboard';

/**
 * Views of service pages: counted once a day per visitor (see visitorOf), so reloading a page does not make a
 * service popular, and written in batches (see Tally): a view adds to views and popularity.
 */
export class ServiceViews {
  private readonly tally: Tally;
  private readonly seen: SeenToday;

  constructor(
    private readonly db: Db,
    log: Logger,
    seen?: SeenToday,
  ) {
    this.seen = seen ?? new SeenToday(null, log);
    this.tally = new Tally(async (batch) => {
      const rows = JSON.stringify(batch.map(([id, n]) => ({ id, n })));
      // One statement: the running totals, and the day's row of each service for the seller's dashboard (ADR 031;
      // a batch's views count on the Moscow day it is written, at most the tally's interval late).
      await db.execute(sql`
        with counted as (
          update ${services} set views = ${services.views} + v.n, popularity = ${services.popularity} + v.n
          from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, n int)
          where ${services.id} = v.id
          returning ${services.id} as id, v.n as n)
        insert into ${serviceViewsDaily} (service_id, day, views)
        select id, ${dayOf(new Date())}::date, n from counted
        on conflict (service_id, day) do update set views = ${serviceViewsDaily}.views + excluded.views`);
    }, log);
  }

  /** Counts a view by `visitor` unless they were counted today; the views of the service not yet written. */
  async count(id: string, visitor: string): Promise<number> {
    return (await this.seen.first(`view:service:${id}:${visitor}`)) ? this.tally.add(id) : this.tally.unwritten(id);
  }

  /** A signed-in buyer's «Вы недавно смотрели» on the home page (issue 15). */
  async remember(userId: string, serviceId: string): Promise<void> {
    const viewedAt = new Date();
    await this.db
      .insert(recentViews)
      .values({ userId, serviceId, viewedAt })
      .onConflictDoUpdate({ target: [recentViews.userId, recentViews.serviceId], set: { viewedAt } });
  }

  /** The views of the service counted but not yet written. */
  unwritten(id: string): number {
    return this.tally.unwritten(id);
  }

  /** Writes the pending views now (on shutdown, and in tests that read the table). */
  flush(): Promise<void> {
    return this.tally.flush();
  }
}
