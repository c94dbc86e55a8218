import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/auth.ts';

/** Records an admin action: who, what, on what (the time is the row's). */
export async function audit(
  db: Db,
  entry: { actorId: string; action: string; targetType: string; targetId: string; details?: Record<string, unknown> },
) {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}
