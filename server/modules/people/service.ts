import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { cityRefs, countryRefs } from '../lookups/index.ts';
import { notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { offersServices, sellerServiceCards } from '../services/index.ts';
import { people, personPolicy, presentPublicUser, publicPersonColumns, visibleFreelancerOf, type PublicUserRow } from '../users/index.ts';
import type { Actor } from '../../platform/policy.ts';
import { cursorPosition, keysetAfter, levelCondition, onlineCondition, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal, TOTAL_CAP } from '../../platform/listing/totals.ts';
import { CATALOG_MESSAGES, SELLER_SERVICES_MAX, type freelancersQuerySchema, type PublicProfile, type PublicUser } from '#contract/catalog';

// People in the catalogue: the freelancers listing and a person's public page. Both show what people offer, so
// this module builds on services (their cards, "offers a service"), which build on the person's public card and
// visibility (users): the catalogue of people is the upper layer, and nothing below imports it.

type Presence = Pick<Realtime, 'onlineAmong'>;

/** How many of a person's services their public page shows: as many as GET /api/users/{id}/services gives. */
export const PROFILE_SERVICES_MAX = SELLER_SERVICES_MAX;

// Candidates for contract/catalog.ts once the web client shows them.
export const PEOPLE_MESSAGES = { userNotFound: CATALOG_MESSAGES.personNotFound } as const;

export type { PublicProfile } from '#contract/catalog';

/** People as the directory reads them (the users module's read model; PostgreSQL flattens it into each query). */
const person = people('person');
const cityRef = cityRefs('city');
const countryRef = countryRefs('country');

/** A person's public page: their card, about, city and country (every service page reads it too). */
const profileOf = statement((db) =>
  db
    .select({
      user: { ...publicPersonColumns(person), about: person.about, blockedAt: person.blockedAt, createdAt: person.createdAt },
      city: cityRef.title,
      country: countryRef.title,
    })
    .from(person)
    .leftJoin(cityRef, eq(cityRef.id, person.cityId))
    .leftJoin(countryRef, eq(countryRef.id, person.countryId))
    .where(eq(person.id, sql.placeholder('id')))
    .limit(1)
    .prepare('person_profile'),
);

/** Those of these people who are public freelancers, presented, in the order of `ids`. */
export async function publicFreelancersByIds(db: Db, presence: Presence, ids: string[]): Promise<PublicUser[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ user: publicPersonColumns(person) })
    .from(person)
    .where(and(visibleFreelancerOf(person), inArray(person.id, ids)));
  const rows = found.map((r) => r.user);
  const online = await presence.onlineAmong(rows.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, presentPublicUser(r, online.has(r.id))]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type FreelancerSort = z.output<typeof freelancersQuerySchema>['sort'];

/** Sorts of the freelancers listing, each a total order ending with the id (exported for the cursor tests). */
export const FREELANCER_SORT_KEYS = {
  rating: [
    { expr: person.rating, dir: 'desc', kind: 'int4' },
    { expr: person.reviewsCount, dir: 'desc', kind: 'int4' },
    { expr: person.id, dir: 'desc', kind: 'uuid' },
  ],
  orders: [
    { expr: person.completedOrders, dir: 'desc', kind: 'int4' },
    { expr: person.id, dir: 'desc', kind: 'uuid' },
  ],
  new: [
    { expr: person.createdAt, dir: 'desc', kind: 'timestamptz' },
    { expr: person.id, dir: 'desc', kind: 'uuid' },
  ],
} as const satisfies Record<FreelancerSort, readonly SortKey[]>;

function cursorOf(sort: FreelancerSort, row: PublicUserRow & { createdKey: string }): CursorValue[] {
  const values: Record<FreelancerSort, CursorValue[]> = {
    rating: [row.rating, row.reviewsCount, row.id],
    orders: [row.completedOrders, row.id],
    new: [row.createdKey, row.id],
  };
  return [sort, ...values[sort]];
}

function after(sort: FreelancerSort, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const keys = FREELANCER_SORT_KEYS[sort];
  return keysetAfter(keys, cursorPosition(cursor, sort, keys));
}

export class PeopleService {
  constructor(private readonly deps: { db: Db; presence: Presence }) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * GET /api/freelancers: sellers in good standing with at least one active service (in the category, when
   * given), by level and "online now", sorted by rating (then reviews), completed orders or newest; keyset pages.
   */
  async freelancers(query: z.output<typeof freelancersQuerySchema>): Promise<{ result: PublicUser[]; total: number; total_exact: boolean; next: string | null }> {
    const position = after(query.sort, query.cursor);
    const where: SQL[] = [visibleFreelancerOf(person), offersServices(person.id, query.category)];
    if (query.level) where.push(levelCondition(query.level, { completedOrders: person.completedOrders, rating: person.rating, lostDisputeAt: person.lostDisputeAt }));
    if (query.online) where.push(onlineCondition(person.lastSeenAt));
    const filter = and(...where)!;

    const [rows, total] = await Promise.all([
      this.db
        .select({ user: publicPersonColumns(person), createdKey: timestampKey(person.createdAt) })
        .from(person)
        .where(and(filter, position))
        .orderBy(...orderBy(FREELANCER_SORT_KEYS[query.sort]))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(person).where(filter).$dynamic()),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf(query.sort, { ...r.user, createdKey: r.createdKey }));
    const online = await this.deps.presence.onlineAmong(kept.map((r) => r.user.id));
    // Sellers are counted exactly up to TOTAL_CAP: there are far fewer of them than of services.
    return { result: kept.map((r) => presentPublicUser(r.user, online.has(r.user.id))), total, total_exact: total <= TOTAL_CAP, next };
  }

  /** GET /api/users/{id}: a person's public page, as personPolicy lets the viewer see it (unknown and malformed ids are 404). */
  async profile(id: string, viewer: Actor = null): Promise<PublicProfile> {
    if (!isUuid(id)) throw notFound(PEOPLE_MESSAGES.userNotFound);
    const [row] = await profileOf(this.db).execute({ id });
    const { user, city, country } = personPolicy.authorize(viewer, 'view', row && { ...row, blockedAt: row.user.blockedAt });
    const [online, offered] = await Promise.all([
      this.deps.presence.onlineAmong([user.id]),
      sellerServiceCards(this.db, this.deps.presence, user.id, PROFILE_SERVICES_MAX),
    ]);
    return {
      ...presentPublicUser(user, online.has(user.id)),
      about: user.about,
      city,
      country,
      created_at: user.createdAt.toISOString(),
      services: offered.cards,
      services_total: offered.total,
    };
  }
}
