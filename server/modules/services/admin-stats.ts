import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

// The services module's figures for the admin home (/admin, ADR 036): the services waiting for a moderator. The
// admin module reads them here rather than counting the services table itself.

/** How many services wait for moderation: new ones, and published ones with an edit pending. */
export async function countServicesAwaitingModeration(db: Db): Promise<number> {
  const { rows } = (await db.execute(sql`
    select count(*)::int as count from services where status = 'moderation' or pending_edit is not null`)) as unknown as {
    rows: { count: unknown }[];
  };
  return Number(rows[0]?.count ?? 0);
}
