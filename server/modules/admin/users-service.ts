import { and, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { users, type Role, type UserRow } from '../users/schema.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import type { AuthService } from '../auth/index.ts';
import { audit, auditTrail } from '../../platform/audit.ts';
import { ADMIN_MESSAGES, type AdminUser, type AuditEntry, type adminUsersQuerySchema } from '#contract/admin';

export function presentAdminUser(u: UserRow): AdminUser {
  return {
    _id: u.id,
    user_name: u.userName,
    name: u.name,
    surname: u.surname,
    email: u.email,
    avatar: u.avatar,
    roles: u.roles,
    active_role: u.activeRole,
    email_confirmed: u.emailConfirmedAt !== null,
    blocked: u.blockedAt !== null,
    block_reason: u.blockReason,
    created_at: u.createdAt.toISOString(),
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The admin area's user management. Every change is written to the audit log. */
export class AdminUserService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
  ) {}

  async list(query: z.output<typeof adminUsersQuerySchema>): Promise<{ result: AdminUser[]; total: number }> {
    const where: SQL[] = [];
    if (query.q) {
      const like = `%${escapeLike(query.q)}%`;
      where.push(
        or(
          ilike(users.email, like),
          ilike(users.userName, like),
          ilike(sql`${users.name} || ' ' || ${users.surname}`, like),
        )!,
      );
    }
    if (query.role) where.push(sql`${query.role} = any(${users.roles})`);
    if (query.state === 'blocked') where.push(isNotNull(users.blockedAt));
    if (query.state === 'active') where.push(isNull(users.blockedAt));
    if (query.state === 'unconfirmed') where.push(isNull(users.emailConfirmedAt));
    const condition = where.length ? and(...where) : undefined;
    const [rows, [totalRow]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(condition)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      this.db.select({ n: count() }).from(users).where(condition),
    ]);
    return { result: rows.map(presentAdminUser), total: totalRow?.n ?? 0 };
  }

  private async find(id: string): Promise<UserRow> {
    const [user] = await this.db.select().from(users).where(eq(users.id, id));
    if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
    return user;
  }

  async get(id: string): Promise<{ user: AdminUser; audit: AuditEntry[] }> {
    const user = await this.find(id);
    return { user: presentAdminUser(user), audit: await auditTrail(this.db, 'user', id) };
  }

  /** Blocks (ending every session and socket) or unblocks a user, with the reason on record. */
  async setBlocked(admin: UserRow, id: string, blocked: boolean, reason?: string): Promise<AdminUser> {
    if (admin.id === id) throw badRequest(ADMIN_MESSAGES.notYourself);
    // The change and its audit row commit together: no admin action goes unrecorded.
    const row = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(users)
        .set(blocked ? { blockedAt: new Date(), blockReason: reason ?? null } : { blockedAt: null, blockReason: null })
        .where(eq(users.id, id))
        .returning();
      if (!updated) throw notFound(ADMIN_MESSAGES.userNotFound);
      await audit(tx, { actorId: admin.id, action: blocked ? 'user.block' : 'user.unblock', targetType: 'user', targetId: id, details: reason ? { reason } : {} });
      return updated;
    });
    if (blocked) await this.auth.revokeSessions(id);
    return presentAdminUser(row);
  }

  /** Grants or takes away the admin role (only another admin can). */
  async setAdmin(admin: UserRow, id: string, makeAdmin: boolean): Promise<AdminUser> {
    if (admin.id === id) throw badRequest(ADMIN_MESSAGES.notYourself);
    const row = await this.db.transaction(async (tx) => {
      // Locked, so two admins changing roles at once cannot lose one of the changes.
      const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
      if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
      const kept = user.roles.filter((r) => r !== 'admin');
      const roles = makeAdmin ? [...kept, 'admin' as const] : kept.length ? kept : (['customer'] as const satisfies Role[]);
      const activeRole = !makeAdmin && user.activeRole === 'admin' ? roles[0]! : user.activeRole;
      const [updated] = await tx.update(users).set({ roles: [...roles], activeRole }).where(eq(users.id, id)).returning();
      await audit(tx, { actorId: admin.id, action: makeAdmin ? 'user.grant_admin' : 'user.revoke_admin', targetType: 'user', targetId: id });
      return updated!;
    });
    return presentAdminUser(row);
  }
}
