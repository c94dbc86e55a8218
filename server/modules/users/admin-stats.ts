import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

// The users module's figures for the admin home (/admin, ADR 036): how many people joined. The admin module reads
// them here rather than counting the users table itself.

/** How many accounts were created at or after `since`. */
export async function countUsersJoinedSince(db: Db, since: Date): Promise<number> {
  const { rows } = (await db.execute(
    sql`select count(*)::int as count from users where created_at >= ${since.toISOString()}::timestamptz`,
  )) as unknown as { rows: { count: unknown }[] };
  return Number(rows[0]?.count ?? 0);
}
