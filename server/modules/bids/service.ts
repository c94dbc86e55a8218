import { and, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { bids, type BidRow } from '../../db/schema/money.ts';
import { projects } from '../../db/schema/catalog.ts';
import { categories } from '../../db/schema/lookups.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest, HttpError, notFound } from '../../lib/http.ts';
import { displayName, isUuid } from '../../lib/text.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { Realtime } from '../../realtime/socket.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { OrderService } from '../orders/index.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { pagesChanged } from '../../platform/page-cache.ts';
import type { Tx } from '../../platform/tx.ts';
import { cappedTotal, cursorPosition, keysetAfter, orderBy, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import { presentPublicUser, publicUserColumns } from '../people/index.ts';
import { projectPolicy } from '../projects/index.ts';
import { bidPolicy } from './policy.ts';
import { MESSAGES } from '#contract/messages';
import {
  BID_MESSAGES,
  type adminBidsQuerySchema,
  type Bid,
  type bidInputSchema,
  type myBidsQuerySchema,
  type projectBidsQuerySchema,
} from '#contract/bids';

// Sellers' bids on customers' projects (ADR 025, PRODUCT.md "Bids"). Every write is one withTx command: the bid,
// the project's count, the customer's flag and the outbox rows (socket event, letter) commit together.

export interface BidServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  realtime: Realtime;
  limiter: RateLimiter;
  orders: OrderService;
  log: Logger;
}

type BidInputData = z.output<typeof bidInputSchema>;

/** The revisions of an order made from a bid (PRODUCT.md: a service's default). */
export const BID_ORDER_REVISIONS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;
/** New bids from one address in a day, as a multiple of the per-seller limit (several sellers behind one NAT). */
const ADDRESS_FACTOR = 10;

const SORT: readonly SortKey[] = [
  { expr: bids.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: bids.id, dir: 'desc', kind: 'uuid' },
];

/** Bids with their sellers' public columns and their projects. */
function bidRecords(db: Db) {
  return db
    .select({
      bid: bids,
      seller: publicUserColumns,
      project: { id: projects.id, title: projects.title, status: projects.status, customerId: projects.customerId },
      category: categories.slug,
      createdKey: timestampKey(bids.createdAt),
    })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.sellerId))
    .innerJoin(projects, eq(projects.id, bids.projectId))
    .innerJoin(categories, eq(categories.id, projects.categoryId))
    .$dynamic();
}
type BidRecord = Awaited<ReturnType<typeof bidRecords>>[number];

export interface Page<T> {
  result: T[];
  total: number;
  next: string | null;
}

const conflict = (message: string) => new HttpError(409, message);

/** Whether an error is a unique violation (23505), from the driver or wrapped by Drizzle. */
function uniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
}

/** "1 500 ₽" from kopecks. */
const rubles = (kopecks: number) => `${(kopecks / 100).toLocaleString('ru-RU', { maximumFractionDigits: 2 })} ₽`;
function daysText(n: number): string {
  const form = new Intl.PluralRules('ru').select(n);
  return `${n} ${form === 'one' ? 'день' : form === 'few' ? 'дня' : 'дней'}`;
}
/** Characters as a person counts them (the form's counter counts the same way). */
const length = (text: string) => Array.from(text).length;

/** Sellers' bids on customers' projects; accepting one opens an order (ADR 025). */
export class BidService {
  private readonly db: Db;

  constructor(private readonly deps: BidServiceDeps) {
    this.db = deps.db;
  }

  // -------------------------------------------------------------------------------------------------------
  // Reading
  // -------------------------------------------------------------------------------------------------------

  private records(db: Db = this.db) {
    return bidRecords(db);
  }

  private async present(records: BidRecord[]): Promise<Bid[]> {
    const online = await this.deps.realtime.onlineAmong([...new Set(records.map((r) => r.seller.id))]);
    return records.map(({ bid, seller, project, category }) => ({
      _id: bid.id,
      project_id: bid.projectId,
      price: bid.price,
      days: bid.days,
      comment: bid.comment,
      status: bid.status,
      created_at: bid.createdAt.toISOString(),
      updated_at: bid.updatedAt.toISOString(),
      seller: presentPublicUser(seller, online.has(seller.id)),
      project: { _id: project.id, title: project.title, status: project.status, category, customer_id: project.customerId },
    }));
  }

  private async presentOne(id: string, db: Db = this.db): Promise<Bid> {
    const [record] = await this.records(db).where(eq(bids.id, id)).limit(1);
    if (!record) throw notFound(BID_MESSAGES.notFound);
    return (await this.present([record]))[0]!;
  }

  /** One keyset page of bids matching `where`, newest first. */
  private async list(where: SQL[], query: { cursor?: string; limit: number }): Promise<Page<Bid>> {
    const position = query.cursor ? keysetAfter(SORT, cursorPosition(query.cursor, 'new', SORT)) : undefined;
    const filter = where.length ? and(...where) : undefined;
    const rows = await this.records()
      .where(and(filter, position))
      .orderBy(...orderBy(SORT))
      .limit(query.limit + 1);
    const { rows: kept, next } = page(rows, query.limit, (r) => ['new', r.createdKey, r.bid.id]);
    const total = await cappedTotal(this.db, this.db.select({ one: sql`1` }).from(bids).innerJoin(projects, eq(projects.id, bids.projectId)).where(filter).$dynamic(), query.cursor);
    return { result: await this.present(kept), total, next };
  }

  /** A project with its customer, for the policies; null when the id is malformed or unknown. */
  private async project(id: string, db: Db = this.db, lock = false) {
    if (!isUuid(id)) return null;
    const q = db.select({ project: projects, customer: users }).from(projects).innerJoin(users, eq(users.id, projects.customerId)).where(eq(projects.id, id));
    const [row] = lock ? await q.for('update', { of: projects }) : await q;
    return row ?? null;
  }

  /**
   * A bid with its project and the project's customer; null when the id is unknown. Locked, the project's row
   * first and then the bid's, in the same order in every command (accept, edit, withdraw), so none deadlocks.
   */
  private async bidSubject(id: string, db: Db, lock = false) {
    const [found] = await db.select({ projectId: bids.projectId }).from(bids).where(eq(bids.id, id));
    if (!found) return null;
    const project = await this.project(found.projectId, db, lock);
    if (!project) return null;
    const q = db.select({ bid: bids }).from(bids).where(eq(bids.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row ? { bid: row.bid, ...project } : null;
  }

  /** GET /api/users/my_bid/{id}: the caller's live (not withdrawn) bid on the project, or null. */
  async myBid(user: UserRow, projectId: string): Promise<Bid | null> {
    if (!isUuid(projectId)) return null;
    const [record] = await this.records()
      .where(and(eq(bids.projectId, projectId), eq(bids.sellerId, user.id), ne(bids.status, 'withdrawn')))
      .limit(1);
    return record ? (await this.present([record]))[0]! : null;
  }

  /** GET /api/projects/{id}/bids: the project's customer's and admins'. */
  async ofProject(user: UserRow, projectId: string, query: z.output<typeof projectBidsQuerySchema>): Promise<Page<Bid>> {
    const subject = projectPolicy.authorize(user, 'view', await this.project(projectId));
    bidPolicy.authorize(user, 'list', subject);
    return this.list([eq(bids.projectId, subject.project.id)], query);
  }

  /** GET /api/bids/my: the seller's own bids. */
  async mine(user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
    const where = [eq(bids.sellerId, user.id)];
    if (query.status) where.push(eq(bids.status, query.status));
    return this.list(where, query);
  }

  /** GET /api/bids/received: bids on the customer's projects (withdrawn ones left out unless asked for). */
  async received(user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
    const where = [eq(projects.customerId, user.id), query.status ? eq(bids.status, query.status) : ne(bids.status, 'withdrawn')];
    return this.list(where, query);
  }

  /** GET /api/admin/bids. */
  async adminList(query: z.output<typeof adminBidsQuerySchema>): Promise<Page<Bid>> {
    const where: SQL[] = [];
    if (query.status) where.push(eq(bids.status, query.status));
    if (query.project) where.push(eq(bids.projectId, query.project));
    if (query.seller) where.push(eq(bids.sellerId, query.seller));
    return this.list(where, query);
  }

  // -------------------------------------------------------------------------------------------------------
  // The bids flag
  // -------------------------------------------------------------------------------------------------------

  async flag(user: UserRow): Promise<{ hasUnread: boolean }> {
    const [row] = await this.db.select({ unread: users.bidsUnread }).from(users).where(eq(users.id, user.id));
    return { hasUnread: row?.unread ?? false };
  }

  /** PUT /api/notifications/bids/flag: the customer opened /profile/bids; their other tabs hear it. */
  async clearFlag(user: UserRow): Promise<{ hasUnread: boolean }> {
    await this.deps.platform.withTx(userActor(user), async ({ tx, outbox }) => {
      const cleared = await tx
        .update(users)
        .set({ bidsUnread: false })
        .where(and(eq(users.id, user.id), eq(users.bidsUnread, true)))
        .returning({ id: users.id });
      if (cleared.length) outbox.emit([user.id], 'bids_flag', { hasUnread: false });
    });
    return { hasUnread: false };
  }

  // -------------------------------------------------------------------------------------------------------
  // The seller's writes
  // -------------------------------------------------------------------------------------------------------

  private async checkComment(comment: string) {
    const min = await this.deps.settings.get('bids.minComment');
    if (length(comment) < min) throw badRequest(MESSAGES.validation, { comment: [BID_MESSAGES.commentTooShort(min)] });
  }

  /** POST /api/projects/{id}/bids. */
  async create(user: UserRow, projectId: string, input: BidInputData, ip: string): Promise<Bid> {
    const subject = projectPolicy.authorize(user, 'view', await this.project(projectId));
    bidPolicy.authorize(user, 'place', subject);
    if (subject.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
    await this.checkComment(input.comment);
    const perDay = await this.deps.settings.get('bids.perDay');
    const address = await this.deps.limiter.hit(`bids:ip:${ip}`, perDay * ADDRESS_FACTOR, DAY_MS);
    if (!address.allowed) throw new HttpError(429, BID_MESSAGES.tooFast);

    const id = await this.deps.platform.withTx(userActor(user), async ({ tx, outbox, clock }) => {
      const now = clock.now();
      // The seller's row lock serialises their bids: the duplicate check and the daily count are exact.
      // (No key update: an order's foreign key to the seller may share the row meanwhile.)
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
      const locked = await this.project(subject.project.id, tx, true);
      if (!locked || locked.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
      const [live] = await tx
        .select({ id: bids.id })
        .from(bids)
        .where(and(eq(bids.projectId, locked.project.id), eq(bids.sellerId, user.id), ne(bids.status, 'withdrawn')));
      if (live) throw conflict(BID_MESSAGES.duplicate);
      const [today] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(bids)
        .where(and(eq(bids.sellerId, user.id), gt(bids.createdAt, new Date(now.getTime() - DAY_MS))));
      if ((today?.n ?? 0) >= perDay) throw new HttpError(429, BID_MESSAGES.perDay(perDay));

      let row: BidRow;
      try {
        [row] = (await tx
          .insert(bids)
          .values({ projectId: locked.project.id, sellerId: user.id, ...input, createdAt: now, updatedAt: now })
          .returning()) as [BidRow];
      } catch (err) {
        if (uniqueViolation(err)) throw conflict(BID_MESSAGES.duplicate);
        throw err;
      }
      await tx.update(projects).set({ bidsCount: sql`${projects.bidsCount} + 1` }).where(eq(projects.id, locked.project.id));
      await tx.update(users).set({ bidsUnread: true }).where(eq(users.id, locked.customer.id));
      outbox.emit([locked.customer.id], 'bids_flag', { hasUnread: true });
      this.deps.letters.notify(outbox, locked.customer, 'bid.new', {
        title: locked.project.title,
        seller: displayName(user),
        price: rubles(row.price),
        days: daysText(row.days),
      });
      return row.id;
    });
    return this.presentOne(id);
  }

  /** The seller's active bid on an active project, locked, for an edit or a withdrawal. */
  private async ownActive(tx: Tx, user: UserRow, id: string) {
    const subject = bidPolicy.authorize(user, 'change', await this.bidSubject(id, tx, true));
    if (subject.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
    if (subject.bid.status !== 'active') throw conflict(BID_MESSAGES.notActive);
    return subject;
  }

  /** PUT /api/bids/{id}: price, days and comment, while the bid and the project are active. */
  async update(user: UserRow, id: string, input: BidInputData): Promise<Bid> {
    await this.checkComment(input.comment);
    await this.deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
      const { bid } = await this.ownActive(tx, user, id);
      await tx
        .update(bids)
        .set({ ...input, updatedAt: clock.now() })
        .where(eq(bids.id, bid.id));
    });
    return this.presentOne(id);
  }

  /** DELETE /api/bids/{id}: withdrawn; the seller may bid on the project again (it counts as a new bid). */
  async withdraw(user: UserRow, id: string): Promise<Bid> {
    await this.deps.platform.withTx(userActor(user), async ({ tx, clock }) => {
      const { bid } = await this.ownActive(tx, user, id);
      await tx.update(bids).set({ status: 'withdrawn', updatedAt: clock.now() }).where(eq(bids.id, bid.id));
      await tx.update(projects).set({ bidsCount: sql`greatest(${projects.bidsCount} - 1, 0)` }).where(eq(projects.id, bid.projectId));
    });
    return this.presentOne(id);
  }

  // -------------------------------------------------------------------------------------------------------
  // The customer's choice
  // -------------------------------------------------------------------------------------------------------

  /**
   * POST /api/bids/{id}/accept: one transaction opens the order (awaiting payment, with its chat), accepts the
   * bid, rejects the project's other active bids and moves the project to in_progress. The project's row lock
   * makes a second accept (of this bid or another) wait and then find the project in progress: 409.
   */
  async accept(user: UserRow, id: string): Promise<{ order_id: string; chat_id: string }> {
    try {
      return await this.deps.platform.withTx(userActor(user), async (ctx) => {
        const { tx, outbox, clock } = ctx;
        const now = clock.now();
        const subject = bidPolicy.authorize(user, 'accept', await this.bidSubject(id, tx, true));
        const { bid, project } = subject;
        if (project.status !== 'active') throw conflict(BID_MESSAGES.closed);
        if (bid.status !== 'active') throw conflict(BID_MESSAGES.notActive);
        const [seller] = await tx.select({ blockedAt: users.blockedAt }).from(users).where(eq(users.id, bid.sellerId));
        if (!seller || seller.blockedAt) throw conflict(BID_MESSAGES.sellerBlocked);

        const { order, chatId } = await this.deps.orders.open(ctx, {
          customerId: project.customerId,
          sellerId: bid.sellerId,
          projectId: project.id,
          bidId: bid.id,
          title: project.title,
          price: bid.price,
          days: bid.days,
          revisions: BID_ORDER_REVISIONS,
        });
        await tx.update(bids).set({ status: 'accepted', updatedAt: now }).where(eq(bids.id, bid.id));
        const rejected = await tx
          .update(bids)
          .set({ status: 'rejected', updatedAt: now })
          .where(and(eq(bids.projectId, project.id), eq(bids.status, 'active')))
          .returning({ sellerId: bids.sellerId });
        const moved = await tx
          .update(projects)
          .set({ status: 'in_progress', updatedAt: now })
          .where(and(eq(projects.id, project.id), eq(projects.status, 'active')))
          .returning({ id: projects.id });
        if (moved.length === 0) throw conflict(BID_MESSAGES.closed);

        const sellerIds = [bid.sellerId, ...rejected.map((r) => r.sellerId)];
        const people = await tx.select().from(users).where(inArray(users.id, sellerIds));
        for (const person of people) {
          if (person.id === bid.sellerId) this.deps.letters.notify(outbox, person, 'bid.accepted', { title: project.title, chatId });
          else this.deps.letters.notify(outbox, person, 'bid.rejected', { title: project.title });
        }
        // The project left the listing: guests' kept pages show it at once.
        pagesChanged(outbox);
        return { order_id: order.id, chat_id: chatId };
      });
    } catch (err) {
      // The unique index of orders on bid_id: a second order for this bid lost a race.
      if (uniqueViolation(err)) throw conflict(BID_MESSAGES.closed);
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Admin area
  // -------------------------------------------------------------------------------------------------------

  /** DELETE /api/admin/bids/{id}: an abusive bid goes, with an audit row; an accepted one stays (its order). */
  async adminRemove(admin: UserRow, id: string): Promise<void> {
    await this.deps.platform.withTx(userActor(admin), async ({ tx }) => {
      const [bid] = await tx.select().from(bids).where(eq(bids.id, id)).for('update');
      if (!bid) throw notFound(BID_MESSAGES.notFound);
      if (bid.status === 'accepted') throw conflict(BID_MESSAGES.acceptedRemove);
      await tx.delete(bids).where(eq(bids.id, id));
      if (bid.status !== 'withdrawn') {
        await tx.update(projects).set({ bidsCount: sql`greatest(${projects.bidsCount} - 1, 0)` }).where(eq(projects.id, bid.projectId));
      }
      await audit(tx, {
        actorId: admin.id,
        action: 'bid.remove',
        targetType: 'bid',
        targetId: id,
        details: { project: bid.projectId, seller: bid.sellerId, status: bid.status, price: bid.price },
      });
    });
  }
}
