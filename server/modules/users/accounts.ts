import { and, count, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { TxContext } from '../../platform/tx.ts';
import { escapeLike } from '../../platform/listing/listing.ts';
import type { ADMIN_USER_STATES } from '#contract/admin';
import { users, type Role, type UserRow } from './schema.ts';

// A person's account as the modules around it meet it: registration, sign-in and recovery (auth), the admin area's
// people (admin), an avatar file deleted (files), an unsubscribe link (notifications). Each fact is one small
// function over the users table; the account's own changes (profile, password, email) stay in UserService.

type Tx = TxContext['tx'];
type Reader = Db | Tx;

const byEmail = (email: string) => sql`lower(${users.email}) = ${email.toLowerCase()}`;

/** The account with this id, if any. */
export async function accountById(db: Reader, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account with this email (in any case), if any. */
export async function accountByEmail(db: Reader, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(byEmail(email)).limit(1);
  return row;
}

/** The accounts (at most two) that already hold this email or this login, either in any case. */
export async function accountsHolding(db: Reader, email: string, userName: string): Promise<{ email: string; userName: string }[]> {
  return db
    .select({ email: users.email, userName: users.userName })
    .from(users)
    .where(sql`${byEmail(email)} or lower(${users.userName}) = ${userName.toLowerCase()}`)
    .limit(2);
}

/** The id of the account whose referral code this is (codes are upper case), if any. */
export async function accountIdByReferralCode(db: Reader, code: string): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.referralCode, code)).limit(1);
  return row;
}

/** What registration knows of a new account. */
export interface NewAccount {
  userName: string;
  email: string;
  name: string;
  surname: string;
  passwordHash: string;
  role: Exclude<Role, 'admin'>;
  referralCode: string;
  referredBy: string | undefined;
}

/** A new account, in the registration's transaction; a taken email or login fails on its unique index. */
export async function createAccount(tx: Tx, account: NewAccount): Promise<UserRow> {
  const { role, ...values } = account;
  const [row] = (await tx
    .insert(users)
    .values({ ...values, roles: [role], activeRole: role })
    .returning()) as [UserRow];
  return row;
}

/** Every token issued to the person so far stops working (logout everywhere, password change, block). */
export async function bumpTokenVersion(db: Reader, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** The person's second factor starts (a time) or stops (null) counting (ADR 054). */
export async function setTwoFactorAt(db: Reader, userId: string, at: Date | null): Promise<void> {
  await db.update(users).set({ twoFactorAt: at, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** The person followed a confirmation link: their email is confirmed (changed first to `newEmail`, when given). */
export async function confirmEmail(db: Reader, userId: string, newEmail?: string): Promise<void> {
  const change = newEmail ? { email: newEmail } : {};
  await db
    .update(users)
    .set({ ...change, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** A password set from a reset link, which proves the mailbox too; answers the account's email. */
export async function setPasswordFromReset(db: Reader, userId: string, passwordHash: string): Promise<{ email: string } | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())` })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  return row;
}

/** What the admin area's list of people is filtered by, and its page. */
export interface AccountFilter {
  q?: string;
  role?: Role;
  state?: (typeof ADMIN_USER_STATES)[number];
  limit: number;
  offset: number;
}

function accountCondition(filter: AccountFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.q) {
    const like = `%${escapeLike(filter.q)}%`;
    where.push(or(ilike(users.email, like), ilike(users.userName, like), ilike(sql`${users.name} || ' ' || ${users.surname}`, like))!);
  }
  if (filter.role) where.push(sql`${filter.role} = any(${users.roles})`);
  if (filter.state === 'blocked') where.push(isNotNull(users.blockedAt));
  if (filter.state === 'active') where.push(isNull(users.blockedAt));
  if (filter.state === 'unconfirmed') where.push(isNull(users.emailConfirmedAt));
  return where.length ? and(...where) : undefined;
}

/** A page of accounts (newest first) and how many match, for the admin area's list of people. */
export async function listAccounts(db: Reader, filter: AccountFilter): Promise<{ rows: UserRow[]; total: number }> {
  const condition = accountCondition(filter);
  const [rows, [totalRow]] = await Promise.all([
    db.select().from(users).where(condition).orderBy(desc(users.createdAt), desc(users.id)).limit(filter.limit).offset(filter.offset),
    db.select({ n: count() }).from(users).where(condition),
  ]);
  return { rows, total: totalRow?.n ?? 0 };
}

/** An admin blocked the account, for `reason`; undefined: no such account. */
export async function blockAccount(tx: Tx, userId: string, reason: string | null): Promise<UserRow | undefined> {
  const [row] = await tx.update(users).set({ blockedAt: new Date(), blockReason: reason }).where(eq(users.id, userId)).returning();
  return row;
}

/** An admin unblocked the account; undefined: no such account. */
export async function unblockAccount(tx: Tx, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.update(users).set({ blockedAt: null, blockReason: null }).where(eq(users.id, userId)).returning();
  return row;
}

/** The account, locked until the transaction ends (a change of its roles); undefined: no such account. */
export async function accountForUpdate(tx: Tx, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

/** The account's roles and the role its interface shows. */
export async function setRoles(tx: Tx, userId: string, roles: Role[], activeRole: Role): Promise<UserRow> {
  const [row] = await tx.update(users).set({ roles, activeRole }).where(eq(users.id, userId)).returning();
  return row!;
}

/** The file at `url` was deleted: if it was the person's avatar, they have none now. */
export async function clearAvatarOf(tx: Tx, userId: string, url: string): Promise<void> {
  await tx
    .update(users)
    .set({ avatar: null })
    .where(and(eq(users.id, userId), eq(users.avatar, url)));
}

/**
 * The person switched one kind of letters off (an unsubscribe link): one key of the jsonb set in place, so a
 * concurrent change of another preference is kept.
 */
export async function turnOffEmails(tx: Tx, userId: string, kind: string): Promise<void> {
  await tx
    .update(users)
    .set({
      preferences: sql`jsonb_set(coalesce(${users.preferences}, '{}'::jsonb), '{emailNotifications}', coalesce(${users.preferences} -> 'emailNotifications', '{}'::jsonb) || jsonb_build_object(${kind}::text, false))`,
    })
    .where(eq(users.id, userId));
}
