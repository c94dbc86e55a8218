import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bids } from './schema.ts';
import { categoryRefs } from '../lookups/index.ts';
import { projectRefs, projectWithCustomer } from '../projects/index.ts';
import { people, presentPublicUser, publicPersonColumns } from '../users/index.ts';
import { notFound } from '../../lib/http.ts';
import { cursorPosition, keysetAfter, orderBy, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal } from '../../platform/listing/totals.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { BID_MESSAGES, type Bid } from '#contract/bids';
import type { Page } from './deps.ts';

// Bids as the module reads them: with their sellers and projects for the answers, and with the project and its
// customer for the policies.

type Presence = Pick<Realtime, 'onlineAmong'>;

const sellerRef = people('seller');
/** The bids' projects as the lists join them (the customer's received bids filter on their customer). */
export const projectRef = projectRefs('project');
const categoryRef = categoryRefs('category');

const SORT: readonly SortKey[] = [
  { expr: bids.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: bids.id, dir: 'desc', kind: 'uuid' },
];

/** Bids with their sellers' public columns and their projects. */
export function bidRecords(db: Db) {
  return db
    .select({
      bid: bids,
      seller: publicPersonColumns(sellerRef),
      project: { id: projectRef.id, title: projectRef.title, status: projectRef.status, customerId: projectRef.customerId },
      category: categoryRef.slug,
      createdKey: timestampKey(bids.createdAt),
    })
    .from(bids)
    .innerJoin(sellerRef, eq(sellerRef.id, bids.sellerId))
    .innerJoin(projectRef, eq(projectRef.id, bids.projectId))
    .innerJoin(categoryRef, eq(categoryRef.id, projectRef.categoryId))
    .$dynamic();
}
type BidRecord = Awaited<ReturnType<typeof bidRecords>>[number];

export async function presentBids(presence: Presence, records: BidRecord[]): Promise<Bid[]> {
  const online = await presence.onlineAmong([...new Set(records.map((r) => r.seller.id))]);
  return records.map(({ bid, seller, project, category }) => ({
    _id: bid.id,
    project_id: bid.projectId,
    price: bid.price,
    days: bid.days,
    comment: bid.comment,
    stages: bid.stages ?? null,
    status: bid.status,
    created_at: bid.createdAt.toISOString(),
    updated_at: bid.updatedAt.toISOString(),
    seller: presentPublicUser(seller, online.has(seller.id)),
    project: { _id: project.id, title: project.title, status: project.status, category, customer_id: project.customerId },
  }));
}

/** One bid presented, read anew (after a change); 404 when it is gone. */
export async function presentBidById(deps: { db: Db; realtime: Presence }, id: string): Promise<Bid> {
  const [record] = await bidRecords(deps.db).where(eq(bids.id, id)).limit(1);
  if (!record) throw notFound(BID_MESSAGES.notFound);
  return (await presentBids(deps.realtime, [record]))[0]!;
}

/** One keyset page of bids matching `where`, newest first. */
export async function listBids(deps: { db: Db; realtime: Presence }, where: SQL[], query: { cursor?: string; limit: number }): Promise<Page<Bid>> {
  const { db } = deps;
  const position = query.cursor ? keysetAfter(SORT, cursorPosition(query.cursor, 'new', SORT)) : undefined;
  const filter = where.length ? and(...where) : undefined;
  const rows = await bidRecords(db)
    .where(and(filter, position))
    .orderBy(...orderBy(SORT))
    .limit(query.limit + 1);
  const { rows: kept, next } = page(rows, query.limit, (r) => ['new', r.createdKey, r.bid.id]);
  const total = await cappedTotal(db, db.select({ one: sql`1` }).from(bids).innerJoin(projectRef, eq(projectRef.id, bids.projectId)).where(filter).$dynamic(), query.cursor);
  return { result: await presentBids(deps.realtime, kept), total, next };
}

/** A project with its customer, for the policies (the projects module's read); null when the id is malformed or unknown. */
export function projectSubject(db: Db, id: string, lock = false) {
  return projectWithCustomer(db, id, lock);
}

/**
 * A bid with its project and the project's customer; null when the id is unknown. Locked, the project's row
 * first and then the bid's, in the same order in every command (accept, edit, withdraw), so none deadlocks.
 */
export async function bidSubject(db: Db, id: string, lock = false) {
  const [found] = await db.select({ projectId: bids.projectId }).from(bids).where(eq(bids.id, id));
  if (!found) return null;
  const project = await projectSubject(db, found.projectId, lock);
  if (!project) return null;
  const q = db.select({ bid: bids }).from(bids).where(eq(bids.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row ? { bid: row.bid, ...project } : null;
}
