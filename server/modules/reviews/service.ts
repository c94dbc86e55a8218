import { and, count, eq, isNotNull, isNull, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { reviews } from './schema.ts';
import { isPublicServiceId, serviceRefs } from '../services/index.ts';
import { people, personPolicy, type People, type UserRow } from '../users/index.ts';
import { badRequest, HttpError, notFound } from '../../lib/http.ts';
import { displayName, isUuid } from '../../lib/text.ts';
import { MESSAGES } from '#contract/messages';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Actor } from '../../platform/policy.ts';
import { userActor } from '../../platform/actor.ts';
import type { TxContext } from '../../platform/tx.ts';
import { audit } from '../../platform/audit.ts';
import { cursorPosition, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal, TOTAL_CAP } from '../../platform/listing/totals.ts';
import { completedOrdersOf, isCompleted, lockOrder, orderCompletedAt, orderHeadline } from '../orders/index.ts';
import { reviewOrderPolicy, reviewPolicy } from './policy.ts';
import { presentReview, type ReviewRecord } from './presenter.ts';
import { publishDue, publishReviews, schedulePublication } from './publication.ts';
import { recomputeRatings, refreshRatingWindow } from './ratings.ts';
import {
  REVIEW_MESSAGES,
  type answerReviewSchema,
  type createReviewSchema,
  type myReviewsQuerySchema,
  type PendingReview,
  type Review,
  type reviewsQuerySchema,
} from '#contract/reviews';

export interface ReviewServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
}

export { PUBLISH_REVIEWS_JOB } from './publication.ts';
export { RATING_WINDOW_JOB } from './ratings.ts';

const DAY_MS = 86_400_000;

const author = people('review_author');
const target = people('review_target');
const reviewed = serviceRefs('reviewed_service');
const person = people('person');
const personOf = (t: People) => ({ id: t.id, name: t.name, surname: t.surname, userName: t.userName, avatar: t.avatar });

const PUBLISHED_SORT: readonly SortKey[] = [
  { expr: reviews.publishedAt, dir: 'desc', kind: 'timestamptz' },
  { expr: reviews.id, dir: 'desc', kind: 'uuid' },
];
const WRITTEN_SORT: readonly SortKey[] = [
  { expr: reviews.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: reviews.id, dir: 'desc', kind: 'uuid' },
];

/** Whether a service is public: its list of reviews is (GET /api/services/{id}/reviews). */
const publicServiceById = statement((db) =>
  db
    .select({ id: reviewed.id })
    .from(reviewed)
    .where(and(eq(reviewed.id, sql.placeholder('id')), isPublicServiceId(reviewed.id)))
    .limit(1)
    .prepare('public_service_by_id'),
);

/** Reviews with their author, subject, service and the keys of their sorts (a ReviewRecord). */
function selectRecords(db: Db | TxContext['tx']) {
  return db
    .select({
      review: reviews,
      author: personOf(author),
      target: personOf(target),
      service: { id: reviewed.id, title: reviewed.title },
      completedAt: orderCompletedAt(reviews.orderId),
      publishedKey: timestampKey(reviews.publishedAt),
      createdKey: timestampKey(reviews.createdAt),
    })
    .from(reviews)
    .innerJoin(author, eq(author.id, reviews.authorId))
    .innerJoin(target, eq(target.id, reviews.targetId))
    .leftJoin(reviewed, eq(reviewed.id, reviews.serviceId))
    .$dynamic();
}

const visible = and(isNotNull(reviews.publishedAt), isNull(reviews.removedAt))!;

/** A service's reviews as its page lists them: the customers' (a seller's review is about the customer), published. */
const aboutService = (serviceId: SQLWrapper | string) => and(eq(reviews.serviceId, serviceId), eq(reviews.authorRole, 'customer'), visible)!;

/**
 * The first page of a service's reviews, only while the service is public (a condition PostgreSQL checks once, not
 * per row), and their count (up to TOTAL_CAP + 1), built once: every service page reads them. Later pages take
 * listPage's way, and count again (the first page's count is not kept for them to reuse).
 */
const serviceReviewsFirst = statement((db) =>
  selectRecords(db)
    .where(and(aboutService(sql.placeholder('id')), isPublicServiceId(sql.placeholder('id'))))
    .orderBy(...orderBy(PUBLISHED_SORT))
    .limit(sql.placeholder('limit'))
    .prepare('service_reviews_first'),
);
const serviceReviewsTotal = statement((db) =>
  db
    .select({ n: count() })
    .from(db.select({ one: sql`1` }).from(reviews).where(aboutService(sql.placeholder('id'))).limit(TOTAL_CAP + 1).as('capped'))
    .prepare('service_reviews_total'),
);

type Page<T> = { result: T[]; total: number; next: string | null };
type Query = z.output<typeof reviewsQuerySchema>;

const length = (text: string) => Array.from(text).length;

/**
 * Reviews of completed orders (ADR 029): double-blind, one per party, answered once, removed only by an admin; the
 * seller's and the service's ratings (mean × 100 of the customers' reviews of the last reviews.ratingMonths) are
 * kept in users.rating and services.rating, recomputed when reviews are published or removed and when one leaves
 * the window.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  // -------------------------------------------------------------------------------------------------------
  // Reads
  // -------------------------------------------------------------------------------------------------------

  private records(db: Db | TxContext['tx'] = this.db) {
    return selectRecords(db);
  }

  private async present(records: ReviewRecord[], viewer: Actor): Promise<Review[]> {
    const blindDays = await this.deps.settings.get('reviews.blindDays');
    return records.map((r) => presentReview(r, viewer, blindDays));
  }

  private async listPage(where: SQL, query: Query, sort: readonly SortKey[], viewer: Actor): Promise<Page<Review>> {
    const name = sort === PUBLISHED_SORT ? 'published' : 'written';
    const position = query.cursor ? keysetAfter(sort, cursorPosition(query.cursor, name, sort)) : undefined;
    const [rows, total] = await Promise.all([
      this.records()
        .where(and(where, position))
        .orderBy(...orderBy(sort))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(reviews).where(where).$dynamic()),
    ]);
    return this.pageOf(rows, query.limit, sort, total, viewer);
  }

  /** A page of `limit` of these rows (one more tells there is a next page), presented for the viewer. */
  private async pageOf(rows: (ReviewRecord & { publishedKey: string; createdKey: string })[], limit: number, sort: readonly SortKey[], total: number, viewer: Actor): Promise<Page<Review>> {
    const name = sort === PUBLISHED_SORT ? 'published' : 'written';
    const { rows: kept, next } = page(rows, limit, (r): CursorValue[] => [name, sort === PUBLISHED_SORT ? r.publishedKey : r.createdKey, r.review.id]);
    return { result: await this.present(kept, viewer), total, next };
  }

  /** GET /api/services/{id}/reviews: a public service's published customer reviews (unknown, malformed or hidden: 404). */
  async ofService(id: string, query: Query, viewer: Actor): Promise<Page<Review>> {
    if (!isUuid(id)) throw notFound(MESSAGES.notFound);
    if (!query.cursor) {
      // A service page's read, so one query when it can be: rows prove the service public, and a first page with no
      // next one is the whole list, its count its length.
      const rows = await serviceReviewsFirst(this.db).execute({ id, limit: query.limit + 1 });
      if (rows.length === 0) await this.publicService(id);
      const total = rows.length > query.limit ? ((await serviceReviewsTotal(this.db).execute({ id }))[0]?.n ?? 0) : rows.length;
      return this.pageOf(rows, query.limit, PUBLISHED_SORT, total, viewer);
    }
    await this.publicService(id);
    return this.listPage(aboutService(id), query, PUBLISHED_SORT, viewer);
  }

  /** Throws the 404 of a service that is unknown or not public. */
  private async publicService(id: string): Promise<void> {
    const [service] = await publicServiceById(this.db).execute({ id });
    if (!service) throw notFound('Услуга не найдена');
  }

  /** GET /api/users/{id}/reviews: published reviews about a person the viewer may see (personPolicy). */
  async ofUser(id: string, query: Query, viewer: Actor): Promise<Page<Review>> {
    if (!isUuid(id)) throw notFound(REVIEW_MESSAGES.notFound);
    const [found] = await this.db.select({ blockedAt: person.blockedAt }).from(person).where(eq(person.id, id)).limit(1);
    personPolicy.authorize(viewer, 'view', found);
    return this.listPage(and(eq(reviews.targetId, id), visible)!, query, PUBLISHED_SORT, viewer);
  }

  /** GET /api/reviews/my: received (published) or given (hidden ones too; not those an admin removed). */
  async mine(user: UserRow, query: z.output<typeof myReviewsQuerySchema>): Promise<Page<Review>> {
    if (query.box === 'received') return this.listPage(and(eq(reviews.targetId, user.id), visible)!, query, PUBLISHED_SORT, user);
    return this.listPage(and(eq(reviews.authorId, user.id), isNull(reviews.removedAt))!, query, WRITTEN_SORT, user);
  }

  /** GET /api/reviews/pending: the caller's completed orders still open for their review, newest first. */
  async pending(user: UserRow): Promise<PendingReview[]> {
    const blindDays = await this.deps.settings.get('reviews.blindDays');
    const since = new Date(this.deps.platform.clock.now().getTime() - blindDays * DAY_MS);
    const rows = await completedOrdersOf(this.db, user.id, since, {
      where: (orderId) => sql`not exists (select 1 from ${reviews} where ${reviews.orderId} = ${orderId} and ${reviews.authorId} = ${user.id})`,
      // Whether the other party reviewed it already.
      flag: (orderId) => sql`exists (select 1 from ${reviews} where ${reviews.orderId} = ${orderId} and ${reviews.authorId} <> ${user.id} and ${reviews.removedAt} is null)`,
      limit: 100,
    });
    return rows.map((r) => {
      const asCustomer = r.order.customerId === user.id;
      const other = asCustomer ? r.seller : r.customer;
      return {
        order_id: r.order.id,
        number: r.order.number,
        title: r.order.title,
        role: asCustomer ? 'customer' : 'seller',
        target: { _id: other.id, name: other.name, surname: other.surname, user_name: other.userName, avatar: other.avatar },
        service_id: r.order.serviceId,
        completed_at: r.order.completedAt!.toISOString(),
        until: new Date(r.order.completedAt!.getTime() + blindDays * DAY_MS).toISOString(),
        other_reviewed: Boolean(r.flag),
      };
    });
  }

  private async one(id: string, viewer: Actor): Promise<Review> {
    const [record] = await this.records().where(eq(reviews.id, id)).limit(1);
    if (!record) throw notFound(REVIEW_MESSAGES.notFound);
    const [review] = await this.present([record], viewer);
    return review!;
  }

  // -------------------------------------------------------------------------------------------------------
  // Commands
  // -------------------------------------------------------------------------------------------------------

  /**
   * POST /api/orders/{id}/reviews: a party of a completed, paid order reviews it once, within reviews.blindDays of
   * its completion. Hidden until the other party's review comes (both are published then) or the period ends
   * (the delayed job publishes it).
   */
  async create(user: UserRow, orderId: string, input: z.output<typeof createReviewSchema>): Promise<Review> {
    const id = await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const order = await lockOrder(ctx, orderId);
      reviewOrderPolicy.authorize(user, 'review', order);
      const o = order!;
      if (!isCompleted(o) || !o.paidAt || !o.completedAt) throw new HttpError(409, REVIEW_MESSAGES.notCompleted);
      const [blindDays, minText] = await Promise.all([this.deps.settings.get('reviews.blindDays', ctx.tx), this.deps.settings.get('reviews.minText', ctx.tx)]);
      const until = new Date(o.completedAt.getTime() + blindDays * DAY_MS);
      if (ctx.clock.now() >= until) throw new HttpError(409, REVIEW_MESSAGES.windowClosed);
      const role = user.id === o.customerId ? 'customer' : 'seller';
      // The customer's text is required; the seller's is optional, but not a token one when given (ADR 029).
      if ((role === 'customer' || input.text !== '') && length(input.text) < minText) {
        throw badRequest(MESSAGES.validation, { text: [input.text === '' ? REVIEW_MESSAGES.textEmpty : REVIEW_MESSAGES.textTooShort(minText)] });
      }
      const [mine] = await ctx.tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.orderId, o.id), eq(reviews.authorId, user.id)));
      if (mine) throw new HttpError(409, REVIEW_MESSAGES.already);
      const [created] = await ctx.tx
        .insert(reviews)
        .values({
          orderId: o.id,
          authorId: user.id,
          targetId: role === 'customer' ? o.sellerId : o.customerId,
          authorRole: role,
          serviceId: o.serviceId,
          rating: input.rating,
          text: input.text,
          createdAt: ctx.clock.now(),
        })
        .returning({ id: reviews.id });
      const [other] = await ctx.tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.orderId, o.id), ne(reviews.authorId, user.id), isNull(reviews.removedAt)));
      if (other) await publishReviews(ctx, this.deps, o.id);
      else schedulePublication(ctx, o.id, until);
      return created!.id;
    });
    return this.one(id, user);
  }

  /** POST /api/reviews/{id}/answer: the person a published review is about answers it, once. */
  async answer(user: UserRow, id: string, input: z.output<typeof answerReviewSchema>): Promise<Review> {
    await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const [review] = await ctx.tx.select().from(reviews).where(eq(reviews.id, id)).for('update');
      reviewPolicy.authorize(user, 'answer', review);
      if (review!.answer !== null) throw new HttpError(409, REVIEW_MESSAGES.alreadyAnswered);
      await ctx.tx.update(reviews).set({ answer: input.text, answeredAt: ctx.clock.now() }).where(eq(reviews.id, id));
      const order = await orderHeadline(ctx.tx, review!.orderId);
      const [addressee] = await ctx.tx
        .select({ id: author.id, email: author.email, name: author.name, preferences: author.preferences })
        .from(author)
        .where(eq(author.id, review!.authorId));
      if (addressee && order) {
        this.deps.letters.notify(ctx.outbox, addressee, 'review.answered', { author: displayName(user), number: order.number, title: order.title, path: '/profile/reviews?box=given' });
      }
    });
    return this.one(id, user);
  }

  /** DELETE /api/admin/reviews/{id}: an admin removes a review, audited; the ratings it counted in are recomputed. */
  async adminRemove(admin: UserRow, id: string): Promise<{ _id: string }> {
    await this.deps.platform.withTx(userActor(admin), async (ctx) => {
      const [review] = await ctx.tx.select().from(reviews).where(eq(reviews.id, id)).for('update');
      if (!review || review.removedAt) throw notFound(REVIEW_MESSAGES.notFound);
      await ctx.tx.update(reviews).set({ removedAt: ctx.clock.now(), removedBy: admin.id }).where(eq(reviews.id, id));
      await audit(ctx.tx, {
        actorId: admin.id,
        action: 'review.remove',
        targetType: 'review',
        targetId: id,
        details: { order: review.orderId, author: review.authorId, target: review.targetId, rating: review.rating, published: review.publishedAt !== null, text: review.text },
      });
      if (review.authorRole === 'customer' && review.publishedAt) await recomputeRatings(ctx, this.deps.settings, review.targetId, review.serviceId);
    });
    return { _id: id };
  }

  // -------------------------------------------------------------------------------------------------------
  // Publication and ratings (publication.ts, ratings.ts)
  // -------------------------------------------------------------------------------------------------------

  /** The publication job: at the end of the blind period the order's hidden reviews become visible. */
  publishDue(ctx: TxContext, orderId: string): Promise<void> {
    return publishDue(ctx, this.deps, orderId);
  }

  /** The seller's and the service's ratings recomputed (also by the demo seed). */
  recompute(ctx: Pick<TxContext, 'tx' | 'clock'>, sellerId: string, serviceId: string | null): Promise<void> {
    return recomputeRatings(ctx, this.deps.settings, sellerId, serviceId);
  }

  /** The daily job over the ratings' window; answers how many sellers' ratings were recomputed. */
  refreshRatingWindow(): Promise<number> {
    return refreshRatingWindow(this.deps);
  }
}
