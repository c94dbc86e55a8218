import type { z } from 'zod';
import type { UserRow } from '../users/index.ts';
import type { AdminDisputeRow, adminDisputesQuerySchema, createDisputeSchema, Dispute, myDisputesQuerySchema, resolveDisputeSchema } from '#contract/disputes';
import { announceDispute } from './announce.ts';
import { cancelDispute } from './commands/cancel.ts';
import { openDispute } from './commands/open.ts';
import { resolveDispute } from './commands/resolve.ts';
import { takeDispute } from './commands/take.ts';
import type { DisputeServiceDeps } from './deps.ts';
import { adminListDisputes, countOpenDisputes, disputeTitleFor, lostDisputeRecently, myDisputes } from './queries.ts';
import { viewDispute } from './records.ts';

export type { DisputeServiceDeps } from './deps.ts';
export { DISPUTE_ANNOUNCE_JOB } from './announce.ts';
export { LOST_BELOW_PERCENT } from './queries.ts';

/**
 * Disputes over orders (issue 14, ADR 034). Opening freezes the order (`disputed`) and opens the dispute's chat with
 * both parties; an admin joins it by taking the dispute (or by resolving it). Cancelling returns the order to the
 * state it froze; resolving settles the escrow through the orders module in the same transaction. Every change is
 * one withTx with its chat messages, letters and the new_dispute events (an outbox job, which presents the chat to
 * each addressee after the commit). The face the routes and other modules call: each change is a file of
 * commands/, the reads are queries.ts.
 */
export class DisputeService {
  constructor(private readonly deps: DisputeServiceDeps) {}

  // Reads

  mine(user: UserRow, query: z.output<typeof myDisputesQuerySchema>): Promise<{ result: Dispute[]; total: number }> {
    return myDisputes(this.deps, user, query);
  }

  adminList(admin: UserRow, query: z.output<typeof adminDisputesQuerySchema>): Promise<{ result: AdminDisputeRow[]; total: number; next: string | null }> {
    return adminListDisputes(this.deps, admin, query);
  }

  /** GET /api/admin/disputes/{id}. */
  adminGet(admin: UserRow, id: string): Promise<Dispute> {
    return viewDispute(this.deps, admin, id);
  }

  titleFor(user: UserRow, id: string): Promise<string | null> {
    return disputeTitleFor(this.deps.db, user, id);
  }

  countOpen(): Promise<number> {
    return countOpenDisputes(this.deps.db);
  }

  lostRecently(sellerId: string): Promise<boolean> {
    return lostDisputeRecently(this.deps, sellerId);
  }

  // Commands: each answers the dispute after it, as the caller sees it.

  async create(user: UserRow, input: z.output<typeof createDisputeSchema>): Promise<Dispute> {
    return viewDispute(this.deps, user, await openDispute(this.deps, user, input));
  }

  async cancel(user: UserRow, id: string): Promise<Dispute> {
    await cancelDispute(this.deps, user, id);
    return viewDispute(this.deps, user, id);
  }

  async take(admin: UserRow, id: string): Promise<Dispute> {
    await takeDispute(this.deps, admin, id);
    return viewDispute(this.deps, admin, id);
  }

  async resolve(admin: UserRow, id: string, input: z.output<typeof resolveDisputeSchema>): Promise<Dispute> {
    await resolveDispute(this.deps, admin, id, input);
    return viewDispute(this.deps, admin, id);
  }

  /** The announce job's handler (announce.ts). */
  announce(disputeId: string): Promise<void> {
    return announceDispute(this.deps, disputeId);
  }
}
