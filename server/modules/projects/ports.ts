import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { TxContext } from '../../platform/tx.ts';
import { isUuid } from '../../lib/text.ts';
import { people } from '../users/index.ts';
import { projects } from './schema.ts';
import { projectColumns } from './presenter.ts';

// What the bids module reads and writes of a project (ADR 047): the project with its customer for the bids'
// policies, the bids' count on the project, and the move to in_progress when a bid is accepted. Each write takes
// the caller's transaction, so it commits with the bid's change.

type Tx = TxContext['tx'];

const customer = people('customer');

/**
 * A project with its customer (what the policies and the customer's letters need); null when the id is malformed
 * or unknown. `lock`: the project's row is locked for update (the customer's is not).
 */
export async function projectWithCustomer(db: Db, id: string, lock = false) {
  if (!isUuid(id)) return null;
  const q = db
    .select({
      project: projectColumns,
      customer: { id: customer.id, email: customer.email, name: customer.name, preferences: customer.preferences, blockedAt: customer.blockedAt },
    })
    .from(projects)
    .innerJoin(customer, eq(customer.id, projects.customerId))
    .where(eq(projects.id, id));
  const [row] = lock ? await q.for('update', { of: projects }) : await q;
  return row ?? null;
}

/** A bid was placed on the project. */
export async function countBid(tx: Tx, projectId: string): Promise<void> {
  await tx
    .update(projects)
    .set({ bidsCount: sql`${projects.bidsCount} + 1` })
    .where(eq(projects.id, projectId));
}

/** A bid on the project was withdrawn or removed (the count never goes below zero). */
export async function uncountBid(tx: Tx, projectId: string): Promise<void> {
  await tx
    .update(projects)
    .set({ bidsCount: sql`greatest(${projects.bidsCount} - 1, 0)` })
    .where(eq(projects.id, projectId));
}

/** A bid on the project was accepted: active → in_progress at `now`; false when it was not active any more. */
export async function startProject(tx: Tx, projectId: string, now: Date): Promise<boolean> {
  const moved = await tx
    .update(projects)
    .set({ status: 'in_progress', updatedAt: now })
    .where(and(eq(projects.id, projectId), eq(projects.status, 'active')))
    .returning({ id: projects.id });
  return moved.length > 0;
}
