import { and, asc, count, desc, eq, inArray, not, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userActor } from '../../platform/actor.ts';
import type { Tx, WithTx } from '../../platform/tx.ts';
import { FAVORITE_TYPES, favorites, type FavoriteType } from './schema.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { publicFreelancersByIds } from '../people/index.ts';
import { isPublicProjectId, type ProjectService } from '../projects/index.ts';
import { isPublicServiceId, publicServiceCardsByIds, recentlyViewedCards } from '../services/index.ts';
import { people, visibleFreelancerOf, type UserRow } from '../users/index.ts';
import type { Favorite, Project, PublicUser, ServiceCard } from '#contract/catalog';

// SPEC §3/§4 favourites ({id, type}) of a signed-in person. The web keeps the list locally and, once signed in,
// toggles on the server and merges a guest's list into the account (sync).
//
// An item that stops being public (a hidden or deleted service or project, a blocked person) drops out of every
// answer, but its row stays: when the item comes back, so does the favourite.

/** At most this many favourites per person (a cap on abuse, far above real use). */
export const FAVORITES_MAX = 500;

// Candidates for contract/catalog.ts once the web client shows them.
export const FAVORITE_MESSAGES = {
  tooMany: `В избранном может быть не больше ${FAVORITES_MAX} элементов`,
  itemNotFound: 'Объявление или исполнитель не найдены',
} as const;


/** People as the favourites read them: the freelancers of the favourites, and the person whose favourites change. */
const person = people('person');

/**
 * The item of a favourite is public now, by its module's policy (a public service, a public project, a visible
 * freelancer). `itemId` is the favourites column (the subqueries name their own tables).
 */
function publicItem(type: FavoriteType, itemId: SQLWrapper): SQL {
  switch (type) {
    case 'service':
      return isPublicServiceId(itemId);
    case 'project':
      return isPublicProjectId(itemId);
    case 'freelancer':
      return sql`exists (select 1 from ${person} where ${person.id} = ${itemId} and ${visibleFreelancerOf(person)})`;
  }
}

/**
 * One person's favourites change one request at a time (the cap holds under concurrent requests): their row is
 * locked, through the users module's read model (a lock on a subquery locks the rows it reads of its table).
 */
async function lockPerson(tx: Tx, userId: string): Promise<void> {
  await tx.select({ id: person.id }).from(person).where(eq(person.id, userId)).for('update');
}

/** Everyone's favourites of an item that is gone (run in the transaction that deleted it). */
export async function forgetFavoritesOf(tx: Tx, type: FavoriteType, itemId: string): Promise<void> {
  await tx.delete(favorites).where(and(eq(favorites.type, type), eq(favorites.itemId, itemId)));
}

/** The favourite row's item is public, whatever its type. */
const rowIsPublic = or(...FAVORITE_TYPES.map((type) => and(eq(favorites.type, type), publicItem(type, favorites.itemId))))!;

/** Newest first; the rest of the key only makes the order total. */
const newestFirst = [desc(favorites.createdAt), asc(favorites.type), desc(favorites.itemId)];

export type FavoriteCards = ServiceCard[] | Project[] | PublicUser[];

type Presence = Pick<Realtime, 'onlineAmong'>;

export class FavoriteService {
  constructor(private readonly deps: { db: Db; presence: Presence; projects: ProjectService; withTx: WithTx }) {}

  private get db() {
    return this.deps.db;
  }

  /** GET /api/favorites: the person's favourites that are public now, newest first. */
  async list(user: UserRow): Promise<Favorite[]> {
    return this.db
      .select({ id: favorites.itemId, type: favorites.type })
      .from(favorites)
      .where(and(eq(favorites.userId, user.id), rowIsPublic))
      .orderBy(...newestFirst)
      .limit(FAVORITES_MAX);
  }

  /** GET /api/favorites/items: the cards of one type for /profile/saved, newest favourite first, public only. */
  async items(user: UserRow, type: FavoriteType, limit = FAVORITES_MAX): Promise<FavoriteCards> {
    const rows = await this.db
      .select({ id: favorites.itemId })
      .from(favorites)
      .where(and(eq(favorites.userId, user.id), eq(favorites.type, type), publicItem(type, favorites.itemId)))
      .orderBy(...newestFirst)
      .limit(Math.min(limit, FAVORITES_MAX));
    const ids = rows.map((r) => r.id);
    if (type === 'service') return publicServiceCardsByIds(this.db, this.deps.presence, ids);
    if (type === 'project') return this.deps.projects.publicByIds(ids);
    return publicFreelancersByIds(this.db, this.deps.presence, ids);
  }

  /**
   * GET /api/favorites/recent: the services the person opened last that are public now, the latest first. Views
   * are recorded by the service page's read (services module); one row per service, so the list has no repeats.
   */
  async recent(user: UserRow, limit: number): Promise<ServiceCard[]> {
    return recentlyViewedCards(this.db, this.deps.presence, user.id, limit);
  }

  /**
   * POST /api/favorites/toggle: removes the item when it is a favourite (whatever its state now), else adds it
   * — it must exist and be public (404 otherwise). Answers whether it is a favourite now.
   */
  async toggle(user: UserRow, item: Favorite): Promise<{ favorite: boolean }> {
    return this.deps.withTx(userActor(user), async ({ tx }) => {
      await lockPerson(tx, user.id);
      const key = and(eq(favorites.userId, user.id), eq(favorites.type, item.type), eq(favorites.itemId, item.id))!;
      const removed = await tx.delete(favorites).where(key).returning({ id: favorites.itemId });
      if (removed.length > 0) return { favorite: false };

      await tx.insert(favorites).values({ userId: user.id, type: item.type, itemId: item.id }).onConflictDoNothing();
      // Checked on the row itself, with the same predicate as the lists; a failure rolls the insert back.
      const [kept] = await tx.select({ id: favorites.itemId }).from(favorites).where(and(key, publicItem(item.type, favorites.itemId)));
      if (!kept) throw notFound(FAVORITE_MESSAGES.itemNotFound);
      const [total] = await tx.select({ n: count() }).from(favorites).where(eq(favorites.userId, user.id));
      if ((total?.n ?? 0) > FAVORITES_MAX) throw badRequest(FAVORITE_MESSAGES.tooMany);
      return { favorite: true };
    });
  }

  /**
   * POST /api/favorites/sync: merges a guest's list (in the order the web keeps it, oldest first) into the
   * account: items already there stay as they are, unknown or non-public ones are skipped, and past the cap
   * the oldest of the new ones are left out. Answers the merged list, as GET /api/favorites.
   */
  async sync(user: UserRow, items: Favorite[]): Promise<Favorite[]> {
    const unique = [...new Map(items.map((i) => [`${i.type}:${i.id}`, i])).values()];
    if (unique.length > 0) {
      await this.deps.withTx(userActor(user), async ({ tx }) => {
        await lockPerson(tx, user.id);
        const mine = eq(favorites.userId, user.id);
        const have = await tx.select({ id: favorites.itemId, type: favorites.type, createdAt: favorites.createdAt }).from(favorites).where(mine);
        const known = new Set(have.map((f) => `${f.type}:${f.id}`));
        const fresh = unique.filter((i) => !known.has(`${i.type}:${i.id}`));
        if (fresh.length === 0) return;

        // The last of the list is the newest, and the whole list newer than what the account had: a millisecond apart,
        // ending now, or starting just after the account's newest when that was added in those last milliseconds.
        const newest = have.reduce((max, f) => Math.max(max, f.createdAt.getTime()), 0);
        const first = Math.max(Date.now() - (fresh.length - 1), newest + 1);
        await tx
          .insert(favorites)
          .values(fresh.map((i, n) => ({ userId: user.id, type: i.type, itemId: i.id, createdAt: new Date(first + n) })))
          .onConflictDoNothing();
        const freshIds = fresh.map((i) => i.id);
        await tx.delete(favorites).where(and(mine, inArray(favorites.itemId, freshIds), not(rowIsPublic)));

        const [total] = await tx.select({ n: count() }).from(favorites).where(mine);
        const surplus = (total?.n ?? 0) - FAVORITES_MAX;
        if (surplus > 0) {
          const dropped = await tx
            .select({ id: favorites.itemId })
            .from(favorites)
            .where(and(mine, inArray(favorites.itemId, freshIds)))
            .orderBy(asc(favorites.createdAt), asc(favorites.itemId))
            .limit(surplus);
          await tx.delete(favorites).where(and(mine, inArray(favorites.itemId, dropped.map((d) => d.id))));
        }
      });
    }
    return this.list(user);
  }
}
