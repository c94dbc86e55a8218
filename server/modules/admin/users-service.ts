import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  accountById,
  accountForUpdate,
  blockAccount,
  listAccounts,
  setRoles,
  unblockAccount,
  type Role,
  type UserRow,
} from '../users/index.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import type { AuthService } from '../auth/index.ts';
import { audit, auditTrail } from '../../platform/audit.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
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
    two_factor: u.twoFactorAt !== null,
    blocked: u.blockedAt !== null,
    block_reason: u.blockReason,
    created_at: u.createdAt.toISOString(),
  };
}

/** The admin area's user management. Every change is written to the audit log. */
export class AdminUserService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly withTx: WithTx,
    /** The auth module's reset of a person's second factor (ADR 054). */
    private readonly twoFactor: { reset(admin: UserRow, userId: string): Promise<void> },
  ) {}

  async list(query: z.output<typeof adminUsersQuerySchema>): Promise<{ result: AdminUser[]; total: number }> {
    const { q, role, state, limit, page } = query;
    const { rows, total } = await listAccounts(this.db, { q, role, state, limit, offset: (page - 1) * limit });
    return { result: rows.map(presentAdminUser), total };
  }

  private async find(id: string): Promise<UserRow> {
    const user = await accountById(this.db, id);
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
    const row = await this.withTx(userActor(admin), async ({ tx }) => {
      const updated = blocked ? await blockAccount(tx, id, reason ?? null) : await unblockAccount(tx, id);
      if (!updated) throw notFound(ADMIN_MESSAGES.userNotFound);
      await audit(tx, { actorId: admin.id, action: blocked ? 'user.block' : 'user.unblock', targetType: 'user', targetId: id, details: reason ? { reason } : {} });
      return updated;
    });
    if (blocked) await this.auth.revokeSessions(id);
    return presentAdminUser(row);
  }

  /** Resets the person's second factor (every factor lost): audited, a letter, their sessions end (ADR 054). */
  async resetTwoFactor(admin: UserRow, id: string): Promise<AdminUser> {
    await this.twoFactor.reset(admin, id);
    return presentAdminUser(await this.find(id));
  }

  /** Grants or takes away the admin role (only another admin can). */
  async setAdmin(admin: UserRow, id: string, makeAdmin: boolean): Promise<AdminUser> {
    if (admin.id === id) throw badRequest(ADMIN_MESSAGES.notYourself);
    const row = await this.withTx(userActor(admin), async ({ tx }) => {
      // Locked, so two admins changing roles at once cannot lose one of the changes.
      const user = await accountForUpdate(tx, id);
      if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
      const kept = user.roles.filter((r) => r !== 'admin');
      const roles = makeAdmin ? [...kept, 'admin' as const] : kept.length ? kept : (['customer'] as const satisfies Role[]);
      const activeRole = !makeAdmin && user.activeRole === 'admin' ? roles[0]! : user.activeRole;
      const updated = await setRoles(tx, id, [...roles], activeRole);
      await audit(tx, { actorId: admin.id, action: makeAdmin ? 'user.grant_admin' : 'user.revoke_admin', targetType: 'user', targetId: id });
      return updated;
    });
    return presentAdminUser(row);
  }
}
