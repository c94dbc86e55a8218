import { and, eq, inArray } from 'drizzle-orm';
import { bids } from '../schema.ts';
import { startProject } from '../../projects/index.ts';
import { people, type UserRow } from '../../users/index.ts';
import { userActor } from '../../../platform/actor.ts';
import { pagesChanged } from '../../../platform/page-cache.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { BID_MESSAGES, type AcceptBidInput, type BidStage } from '#contract/bids';
import type { BidServiceDeps } from '../deps.ts';
import { bidPolicy } from '../policy.ts';
import { bidSubject } from '../records.ts';
import { conflict, uniqueViolation } from './rules.ts';

const sellers = people('seller');

/** The revisions of an order made from a bid (PRODUCT.md: a service's default). */
export const BID_ORDER_REVISIONS = 2;

/**
 * POST /api/bids/{id}/accept: one transaction opens the order (awaiting payment, with its chat), accepts the
 * bid, rejects the project's other active bids and moves the project to in_progress. The project's row lock
 * makes a second accept (of this bid or another) wait and then find the project in progress: 409. The customer
 * accepts the bid on the terms they saw (`seen`): an edit made since is a 409, not the order's price.
 */
export async function acceptBid(deps: BidServiceDeps, user: UserRow, id: string, seen: AcceptBidInput): Promise<{ order_id: string; chat_id: string }> {
  try {
    return await deps.platform.withTx(userActor(user), (ctx) => acceptInTx(deps, ctx, user, id, seen));
  } catch (err) {
    // The unique index of orders on bid_id: a second order for this bid lost a race.
    if (uniqueViolation(err)) throw conflict(BID_MESSAGES.closed);
    throw err;
  }
}

/** The bid's stages are those the customer saw: field by field (jsonb keeps no key order). */
function sameStages(stored: readonly BidStage[] | null, seen: readonly BidStage[] | null | undefined): boolean {
  const a = stored ?? [];
  const b = seen ?? [];
  return a.length === b.length && a.every((s, i) => s.title === b[i]!.title && s.deliverable === b[i]!.deliverable && s.amount === b[i]!.amount && s.days === b[i]!.days);
}

async function acceptInTx(deps: BidServiceDeps, ctx: TxContext, user: UserRow, id: string, seen: AcceptBidInput) {
  const { tx, outbox, clock } = ctx;
  const now = clock.now();
  const { bid, project } = bidPolicy.authorize(user, 'accept', await bidSubject(tx, id, true));
  if (project.status !== 'active') throw conflict(BID_MESSAGES.closed);
  if (bid.status !== 'active') throw conflict(BID_MESSAGES.notActive);
  if (bid.price !== seen.price || bid.days !== seen.days || !sameStages(bid.stages, seen.stages)) throw conflict(BID_MESSAGES.changed);
  const [seller] = await tx.select({ blockedAt: sellers.blockedAt }).from(sellers).where(eq(sellers.id, bid.sellerId));
  if (!seller || seller.blockedAt) throw conflict(BID_MESSAGES.sellerBlocked);

  const { order, chatId: openedChat } = await deps.orders.open(ctx, {
    customerId: project.customerId,
    sellerId: bid.sellerId,
    projectId: project.id,
    bidId: bid.id,
    title: project.title,
    price: bid.price,
    days: bid.days,
    revisions: BID_ORDER_REVISIONS,
    // In stages, the order is their head and each stage an order of its own (ADR 065).
    stages: bid.stages?.map((s) => ({ title: s.title, deliverable: s.deliverable, price: s.amount, days: s.days })) ?? null,
  });
  // An accepted bid's order comes with its chat (only a service's unpaid order waits for one: ADR 042).
  const chatId = openedChat!;
  await tx.update(bids).set({ status: 'accepted', updatedAt: now }).where(eq(bids.id, bid.id));
  const rejected = await tx
    .update(bids)
    .set({ status: 'rejected', updatedAt: now })
    .where(and(eq(bids.projectId, project.id), eq(bids.status, 'active')))
    .returning({ sellerId: bids.sellerId });
  if (!(await startProject(tx, project.id, now))) throw conflict(BID_MESSAGES.closed);

  const sellerIds = [bid.sellerId, ...rejected.map((r) => r.sellerId)];
  const recipients = await tx
    .select({ id: sellers.id, email: sellers.email, name: sellers.name, preferences: sellers.preferences })
    .from(sellers)
    .where(inArray(sellers.id, sellerIds));
  for (const person of recipients) {
    if (person.id === bid.sellerId) deps.letters.notify(outbox, person, 'bid.accepted', { title: project.title, chatId });
    else deps.letters.notify(outbox, person, 'bid.rejected', { title: project.title });
  }
  // The project left the listing: guests' kept pages show it at once.
  pagesChanged(outbox);
  return { order_id: order.id, chat_id: chatId };
}
