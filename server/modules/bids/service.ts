import type { z } from 'zod';
import type { UserRow } from '../users/index.ts';
import type { AcceptBidInput, adminBidsQuerySchema, Bid, bidInputSchema, myBidsQuerySchema, projectBidsQuerySchema } from '#contract/bids';
import { acceptBid } from './commands/accept.ts';
import { adminRemoveBid } from './commands/admin-remove.ts';
import { clearBidsFlag } from './commands/clear-flag.ts';
import { placeBid } from './commands/place.ts';
import { updateBid } from './commands/update.ts';
import { withdrawBid } from './commands/withdraw.ts';
import type { BidServiceDeps, Page } from './deps.ts';
import { adminListBids, bidsFlag, bidsOfProject, myBidOn, myBids, receivedBids } from './queries.ts';
import { presentBidById } from './records.ts';

export type { BidServiceDeps, Page } from './deps.ts';
export { BID_ORDER_REVISIONS } from './commands/accept.ts';

type BidInputData = z.output<typeof bidInputSchema>;

/**
 * Sellers' bids on customers' projects (ADR 025, PRODUCT.md "Bids"); accepting one opens an order. The face the
 * routes call: every write is one withTx command of commands/, the reads are queries.ts.
 */
export class BidService {
  constructor(private readonly deps: BidServiceDeps) {}

  // Reads

  myBid(user: UserRow, projectId: string): Promise<Bid | null> {
    return myBidOn(this.deps, user, projectId);
  }

  ofProject(user: UserRow, projectId: string, query: z.output<typeof projectBidsQuerySchema>): Promise<Page<Bid>> {
    return bidsOfProject(this.deps, user, projectId, query);
  }

  mine(user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
    return myBids(this.deps, user, query);
  }

  received(user: UserRow, query: z.output<typeof myBidsQuerySchema>): Promise<Page<Bid>> {
    return receivedBids(this.deps, user, query);
  }

  adminList(query: z.output<typeof adminBidsQuerySchema>): Promise<Page<Bid>> {
    return adminListBids(this.deps, query);
  }

  // The bids flag

  flag(user: UserRow): Promise<{ hasUnread: boolean }> {
    return bidsFlag(this.deps, user);
  }

  async clearFlag(user: UserRow): Promise<{ hasUnread: boolean }> {
    await clearBidsFlag(this.deps, user);
    return { hasUnread: false };
  }

  // The seller's writes: each answers the bid after it.

  async create(user: UserRow, projectId: string, input: BidInputData, ip: string): Promise<Bid> {
    return presentBidById(this.deps, await placeBid(this.deps, user, projectId, input, ip));
  }

  async update(user: UserRow, id: string, input: BidInputData): Promise<Bid> {
    await updateBid(this.deps, user, id, input);
    return presentBidById(this.deps, id);
  }

  async withdraw(user: UserRow, id: string): Promise<Bid> {
    await withdrawBid(this.deps, user, id);
    return presentBidById(this.deps, id);
  }

  // The customer's choice

  accept(user: UserRow, id: string, seen: AcceptBidInput): Promise<{ order_id: string; chat_id: string }> {
    return acceptBid(this.deps, user, id, seen);
  }

  // Admin area

  adminRemove(admin: UserRow, id: string): Promise<void> {
    return adminRemoveBid(this.deps, admin, id);
  }
}
