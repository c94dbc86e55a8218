import { and, desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '#contract/admin';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema/auth.ts';

/** Records an admin action: who, what, on what (the time is the row's). */
export async function audit(
  db: Db,
  entry: { actorId: string; action: string; targetType: string; targetId: string; details?: Record<string, unknown> },
) {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}

/** The latest admin actions on one target, newest first, as the admin area shows them. */
export async function auditTrail(db: Db, targetType: string, targetId: string, limit = 50): Promise<AuditEntry[]> {
  const entries = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, targetId)))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit);
  return entries.map((e) => ({ _id: e.id, actor: e.actorId, action: e.action, details: e.details, created_at: e.createdAt.toISOString() }));
}
