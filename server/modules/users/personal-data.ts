import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
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
