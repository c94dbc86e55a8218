import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { bids } from './schema.ts';
import { projectPolicy } from '../projects/index.ts';
import { people, type UserRow } from '../users/index.ts';
import { isUuid } from '../../lib/text.ts';
import type { adminBidsQuerySchema, Bid, myBidsQuerySchema, projectBidsQuerySchema } from '#contract/bids';
import type { BidServiceDeps, Page } from './deps.ts';
import { bidPolicy } from './policy.ts';
import { bidRecords, listBids, presentBids, projectRef, projectSubject } from './records.ts';

// The bids' lists: a project's, the seller's own, the customer's received, the admin area's; the seller's live bid
// on a project and the customer's unread flag.

const me = people('me');

/** GET /api/users/my_bid/{id}: the caller's live (not withdrawn) bid on the project, or null. */
export async function myBidOn(deps: BidServiceDeps, user: UserRow, projectId: string): Promise<Bid | null> {
  if (!isUuid(projectId)) return null;
  const [record] = await bidRecords(deps.db)
    .where(and(eq(bids.projectId, projectId), eq(bids.sellerId, user.id), ne(bids.status, 'withdrawn')))
    .limit(1);
  return record ? (await presentBids(deps.realtime, [record]))[0]! : null;
}

/** GET /api/projects/{id}/bids: the project's customer's and admins'. */
export async function bidsOfProject(deps: BidServiceDeps, user: UserRow, projectId: string, query: z.output<typeof projectBidsQuerySchema>): Promise<Page<Bid>> {
  const subject = projectPolicy.authorize(user, 'view', await projectSubject(deps.db, projectId));
  bidPolicy.authorize(user, 'list', subject);
  return listBids(deps, [eq(bids.projectId, subject.project.id)], query);
}

/** GET /api/bids/my: the seller's own bids. */
export function myBids(deps: BidServiceDeps, user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
  const where = [eq(bids.sellerId, user.id)];
  if (query.status) where.push(eq(bids.status, query.status));
  return listBids(deps, where, query);
}

/** GET /api/bids/received: bids on the customer's projects (withdrawn ones left out unless asked for). */
export function receivedBids(deps: BidServiceDeps, user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
  const where = [eq(projectRef.customerId, user.id), query.status ? eq(bids.status, query.status) : ne(bids.status, 'withdrawn')];
  return listBids(deps, where, query);
}

/** GET /api/admin/bids. */
export function adminListBids(deps: BidServiceDeps, query: z.output<typeof adminBidsQuerySchema>): Promise<Page<Bid>> {
  const where: SQL[] = [];
  if (query.status) where.push(eq(bids.status, query.status));
  if (query.project) where.push(eq(bids.projectId, query.project));
  if (query.seller) where.push(eq(bids.sellerId, query.seller));
  return listBids(deps, where, query);
}

/** Whether new bids arrived on the customer's projects since they last opened /profile/bids. */
export async function bidsFlag(deps: BidServiceDeps, user: UserRow): Promise<{ hasUnread: boolean }> {
  const [row] = await deps.db.select({ unread: me.bidsUnread }).from(me).where(eq(me.id, user.id));
  return { hasUnread: row?.unread ?? false };
}
