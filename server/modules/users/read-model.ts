import { QueryBuilder } from 'drizzle-orm/pg-core';
import { users } from './schema.ts';

// What other modules may read of a person (ADR 049): a read-only subquery of the users table's shareable columns,
// joined under a name of the caller's choice (`people('seller')`, `people('customer')`). PostgreSQL pulls such a
// subquery up into the outer query, so a join through it costs what a join of the table costs; what it takes away
// is everything private (the password hash, tokens, referral links) and every way to write.

const qb = new QueryBuilder();

const shared = {
  id: users.id,
  userName: users.userName,
  name: users.name,
  surname: users.surname,
  avatar: users.avatar,
  about: users.about,
  email: users.email,
  roles: users.roles,
  activeRole: users.activeRole,
  preferences: users.preferences,
  emailConfirmedAt: users.emailConfirmedAt,
  blockedAt: users.blockedAt,
  lastSeenAt: users.lastSeenAt,
  completedOrders: users.completedOrders,
  rating: users.rating,
  reviewsCount: users.reviewsCount,
  lostDisputeAt: users.lostDisputeAt,
  cityId: users.cityId,
  countryId: users.countryId,
  createdAt: users.createdAt,
  bidsUnread: users.bidsUnread,
};

/** People as another module joins them, under the alias `as`. */
export const people = <A extends string>(as: A) => qb.select(shared).from(users).as(as);
export type People = ReturnType<typeof people>;

/** A person's public face, from a `people()` join (the columns presentPublicUser() takes). */
export const publicPersonColumns = (p: People) => ({
  id: p.id,
  userName: p.userName,
  name: p.name,
  surname: p.surname,
  avatar: p.avatar,
  completedOrders: p.completedOrders,
  rating: p.rating,
  reviewsCount: p.reviewsCount,
  lostDisputeAt: p.lostDisputeAt,
});
