import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { services } from '../../db/schema/catalog.ts';
import { categories, cities, countries } from '../../db/schema/lookups.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import { presentPublicUser } from './query.ts';
import { presentServiceCard, publicService } from '../services/index.ts';
import { personPolicy, visibleFreelancer } from './policy.ts';
import type { Actor } from '../../platform/policy.ts';
import {
  cappedTotal,
  TOTAL_CAP,
  cursorPosition,
  keysetAfter,
  levelCondition,
  onlineCondition,
  orderBy,
  page,
  timestampKey,
  type CursorValue,
  type SortKey,
} from '../../platform/listing/listing.ts';
import type { Presence } from '../projects/index.ts';
import { CATALOG_MESSAGES, type freelancersQuerySchema, type PublicProfile, type PublicUser, type ServiceCard } from '#contract/catalog';

// People in the catalogue: the freelancers listing and a person's public page.

/** How many of a person's services their public page shows. */
export const PROFILE_SERVICES_MAX = 12;

// Candidates for contract/catalog.ts once the web client shows them.
export const PEOPLE_MESSAGES = { userNotFound: CATALOG_MESSAGES.personNotFound } as const;

export type { PublicProfile } from '#contract/catalog';

/** Service cards of public services matching `where` (services joined with their seller and category). */
async function serviceCards(db: Db, presence: Presence, where: SQL, opts: { order?: SQL[]; limit?: number } = {}): Promise<ServiceCard[]> {
  const query = db
    .select({
      id: services.id,
      title: services.title,
      images: services.images,
      price: services.price,
      days: services.days,
      rating: services.rating,
      reviewsCount: services.reviewsCount,
      categorySlug: categories.slug,
      seller: users,
    })
    .from(services)
    .innerJoin(users, eq(users.id, services.sellerId))
    .innerJoin(categories, eq(categories.id, services.categoryId))
    .where(and(publicService(), where))
    .orderBy(...(opts.order ?? []))
    .$dynamic();
  const rows = await (opts.limit ? query.limit(opts.limit) : query);
  const online = await presence.onlineAmong(rows.map((r) => r.seller.id));
  return rows.map((row) => presentServiceCard(row, online.has(row.seller.id)));
}

/** Cards of those of these services that are public, in the order of `ids`. */
export async function publicServiceCardsByIds(db: Db, presence: Presence, ids: string[]): Promise<ServiceCard[]> {
  if (ids.length === 0) return [];
  const cards = new Map((await serviceCards(db, presence, inArray(services.id, ids))).map((c) => [c._id, c]));
  return ids.flatMap((id) => cards.get(id) ?? []);
}

/** Those of these people who are public freelancers, presented, in the order of `ids`. */
export async function publicFreelancersByIds(db: Db, presence: Presence, ids: string[]): Promise<PublicUser[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(users).where(and(visibleFreelancer(), inArray(users.id, ids)));
  const online = await presence.onlineAmong(rows.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, presentPublicUser(r, online.has(r.id))]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type FreelancerSort = z.output<typeof freelancersQuerySchema>['sort'];

/** Sorts of the freelancers listing, each a total order ending with the id (exported for the cursor tests). */
export const FREELANCER_SORT_KEYS = {
  rating: [
    { expr: users.rating, dir: 'desc', kind: 'int4' },
    { expr: users.reviewsCount, dir: 'desc', kind: 'int4' },
    { expr: users.id, dir: 'desc', kind: 'uuid' },
  ],
  orders: [
    { expr: users.completedOrders, dir: 'desc', kind: 'int4' },
    { expr: users.id, dir: 'desc', kind: 'uuid' },
  ],
  new: [
    { expr: users.createdAt, dir: 'desc', kind: 'timestamptz' },
    { expr: users.id, dir: 'desc', kind: 'uuid' },
  ],
} as const satisfies Record<FreelancerSort, readonly SortKey[]>;

function cursorOf(sort: FreelancerSort, row: UserRow & { createdKey: string }): CursorValue[] {
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
    const inCategory = query.category
      ? sql` and ${services.categoryId} = (select ${categories.id} from ${categories} where ${categories.slug} = ${query.category})`
      : sql``;
    const where: SQL[] = [
      visibleFreelancer(),
      sql`exists (select 1 from ${services} where ${services.sellerId} = ${users.id} and ${services.status} = 'active'${inCategory})`,
    ];
    if (query.level) where.push(levelCondition(query.level, { completedOrders: users.completedOrders, rating: users.rating, lostDisputeAt: users.lostDisputeAt }));
    if (query.online) where.push(onlineCondition(users.lastSeenAt));
    const filter = and(...where)!;

    const [rows, total] = await Promise.all([
      this.db
        .select({ user: users, createdKey: timestampKey(users.createdAt) })
        .from(users)
        .where(and(filter, position))
        .orderBy(...orderBy(FREELANCER_SORT_KEYS[query.sort]))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(users).where(filter).$dynamic()),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf(query.sort, { ...r.user, createdKey: r.createdKey }));
    const online = await this.deps.presence.onlineAmong(kept.map((r) => r.user.id));
    // Sellers are counted exactly up to TOTAL_CAP: there are far fewer of them than of services.
    return { result: kept.map((r) => presentPublicUser(r.user, online.has(r.user.id))), total, total_exact: total <= TOTAL_CAP, next };
  }

  /** GET /api/users/{id}: a person's public page, as personPolicy lets the viewer see it (unknown and malformed ids are 404). */
  async profile(id: string, viewer: Actor = null): Promise<PublicProfile> {
    if (!isUuid(id)) throw notFound(PEOPLE_MESSAGES.userNotFound);
    const [row] = await this.db
      .select({ user: users, city: cities.title, country: countries.title })
      .from(users)
      .leftJoin(cities, eq(cities.id, users.cityId))
      .leftJoin(countries, eq(countries.id, users.countryId))
      .where(eq(users.id, id))
      .limit(1);
    const { user, city, country } = personPolicy.authorize(viewer, 'view', row && { ...row, blockedAt: row.user.blockedAt });
    const [online, cards, [counted]] = await Promise.all([
      this.deps.presence.onlineAmong([user.id]),
      serviceCards(this.db, this.deps.presence, eq(services.sellerId, user.id), {
        order: [desc(services.popularity), desc(services.id)],
        limit: PROFILE_SERVICES_MAX,
      }),
      this.db
        .select({ n: count() })
        .from(services)
        .where(and(publicService(), eq(services.sellerId, user.id))),
    ]);
    return {
      ...presentPublicUser(user, online.has(user.id)),
      about: user.about,
      city,
      country,
      created_at: user.createdAt.toISOString(),
      services: cards,
      services_total: counted?.n ?? 0,
    };
  }
}
