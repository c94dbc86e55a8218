import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

// What the services module tells the dashboard (ADR 047): a seller's service page views by day, from the daily
// counts (service_views_daily, kept by views.ts). The dashboard reads them here instead of the tables.

/** The views of `sellerId`'s services on each Moscow day from `from` to `to` (YYYY-MM-DD) that had any. */
export async function sellerViewsByDay(db: Db, sellerId: string, from: string, to: string): Promise<{ day: string; views: number }[]> {
  const { rows } = (await db.execute(sql`
          select to_char(v.day, 'YYYY-MM-DD') as day, sum(v.views)::int as views
          from service_views_daily v join services s on s.id = v.service_id
          where s.seller_id = ${sellerId} and v.day >= ${from}::date and v.day <= ${to}::date
          group by 1`)) as unknown as { rows: { day: string; views: unknown }[] };
  return rows.map((r) => ({ day: r.day, views: Number(r.views ?? 0) }));
}
