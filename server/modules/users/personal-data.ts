import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import { users } from './schema.ts';

/** The person's own account, for their personal-data export (ADR 052): everything but the password's hash. */
export async function profileOfPerson(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      userName: users.userName,
      email: users.email,
      name: users.name,
      surname: users.surname,
      avatar: users.avatar,
      about: users.about,
      roles: users.roles,
      activeRole: users.activeRole,
      cityId: users.cityId,
      countryId: users.countryId,
      preferences: users.preferences,
      referralCode: users.referralCode,
      emailConfirmedAt: users.emailConfirmedAt,
      lastSeenAt: users.lastSeenAt,
      tokenVersion: users.tokenVersion,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/**
 * Anonymises a deleted account (ADR 052) in the caller's transaction: name, email, login, avatar and profile text
 * replaced, the password unusable, every token revoked, the person hidden from the public as a blocked one is. The
 * row stays, so that orders, the ledger and consents keep pointing at it.
 */
export async function anonymiseAccount(tx: Tx, userId: string) {
  const tag = userId.replace(/-/g, '').slice(0, 12);
  await tx
    .update(users)
    .set({
      userName: `deleted_${tag}`,
      email: `deleted-${tag}@deleted.invalid`,
      name: 'Удалённый',
      surname: 'пользователь',
      avatar: null,
      about: '',
      cityId: null,
      countryId: null,
      preferences: {},
      passwordHash: `deleted:${randomBytes(24).toString('hex')}`,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      blockedAt: new Date(),
      blockReason: 'Аккаунт удалён по просьбе владельца',
      lastSeenAt: null,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}
