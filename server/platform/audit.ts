import { and, desc, eq, like, sql, type SQL } from 'drizzle-orm';
import type { AdminAuditEntry, AuditEntry } from '#contract/admin';
import type { AuditAction } from '#contract/audit-constants';
import type { Db } from '../db/client.ts';
import { auditLog } from './schema.ts';
import { users } from '../modules/users/schema.ts';
import { decodeCursor, escapeLike, keysetAfter, orderBy, page, timestampKey, type SortKey } from './listing/listing.ts';

/**
 * Records an admin action: who, what, on what (the time is the row's). Only the actions of AUDIT_ACTION_LABELS:
 * the audit log shows each in words (ADR 046).
 */
export async function audit(
  db: Db,
  entry: {
    actorId: string;
    action: AuditAction;
    targetType: string;
    targetId: string;
    details?: Record<string, unknown>;
  },
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

const NEWEST: SortKey[] = [
  { expr: auditLog.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: auditLog.id, dir: 'desc', kind: 'uuid' },
];

/**
 * The audit log as /admin/audit browses it: newest first, keyset pages, filtered by who acted, by the action (exact,
 * or a prefix ending with a dot: "routeRule.") and by what it was done to.
 */
export async function auditPage(
  db: Db,
  query: { actor?: string; action?: string; target_type?: string; target_id?: string; cursor?: string; limit: number },
): Promise<{ rows: AdminAuditEntry[]; next: string | null }> {
  const where: SQL[] = [];
  if (query.actor) where.push(eq(auditLog.actorId, query.actor));
  if (query.action) where.push(query.action.endsWith('.') ? like(auditLog.action, `${escapeLike(query.action)}%`) : eq(auditLog.action, query.action));
  if (query.target_type) where.push(eq(auditLog.targetType, query.target_type));
  if (query.target_id) where.push(eq(auditLog.targetId, query.target_id));
  if (query.cursor) where.push(keysetAfter(NEWEST, decodeCursor(query.cursor, ['timestamptz', 'uuid'])));
  const rows = await db
    .select({ e: auditLog, at: timestampKey(auditLog.createdAt), name: sql<string | null>`nullif(trim(${users.name} || ' ' || ${users.surname}), '')` })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(...where))
    .orderBy(...orderBy(NEWEST))
    .limit(query.limit + 1);
  const { rows: kept, next } = page(rows, query.limit, (r) => [r.at, r.e.id]);
  return {
    rows: kept.map(({ e, name }) => ({
      _id: e.id,
      actor: e.actorId,
      actor_name: name,
      action: e.action,
      target_type: e.targetType,
      target_id: e.targetId,
      details: e.details,
      created_at: e.createdAt.toISOString(),
    })),
    next,
  };
}
