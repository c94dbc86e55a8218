import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { orders } from '../schema.ts';
import { orderChatId } from '../../chat/index.ts';
import { people } from '../../users/index.ts';
import { systemActor } from '../../../platform/actor.ts';
import type { OrderServiceDeps } from '../deps.ts';
import { orderChatPath, orderNameOf } from '../naming.ts';

// The funding reminder of a stage (ADR 065): the stage before it completed, and it stays unfunded
// orders.stageFundingReminderDays days later. The customer is asked to pay it, the seller told to wait for it; once
// per stage, whatever instances run the job and however often it is retried.

/** The recurring job's name (server/jobs.db.test.ts lists it). */
export const STAGE_FUNDING_JOB = 'orders-stage-funding';
const BATCH = 100;
const DAY_MS = 86_400_000;

const stage = alias(orders, 'stage');
const before = alias(orders, 'before');
const recipient = people('recipient');

type Deps = Pick<OrderServiceDeps, 'db' | 'platform' | 'settings' | 'letters'>;

/**
 * The stages due: unfunded, never reminded of, whose previous stage still counted (not dropped: cancelled without
 * ever being paid) completed at least `days` ago. A stage whose previous one was cancelled after funding, or that
 * has none left (every earlier stage dropped), is not reminded of: the parties decide what goes on.
 */
async function dueStages(deps: Deps, now: Date, days: number): Promise<string[]> {
  const since = new Date(now.getTime() - days * DAY_MS);
  const previous = sql`(select max(q.stage) from ${orders} q where q.head_id = ${stage.headId} and q.stage < ${stage.stage}
    and not (q.status = 'cancelled' and q.paid_at is null))`;
  const rows = await deps.db
    .select({ id: stage.id })
    .from(stage)
    .innerJoin(before, and(eq(before.headId, stage.headId), eq(before.stage, previous)))
    .where(
      and(
        sql`${stage.headId} is not null`,
        eq(stage.status, 'awaiting_payment'),
        isNull(stage.stageRemindedAt),
        eq(before.status, 'completed'),
        sql`${before.completedAt} <= ${since.toISOString()}::timestamptz`,
      ),
    )
    .limit(BATCH);
  return rows.map((r) => r.id);
}

/** The recurring job: each due stage's reminder in its own transaction. Answers how many were sent. */
export async function remindStageFunding(deps: Deps): Promise<number> {
  const days = await deps.settings.get('orders.stageFundingReminderDays');
  let sent = 0;
  for (const id of await dueStages(deps, deps.platform.clock.now(), days)) sent += Number(await remindOne(deps, id));
  return sent;
}

async function remindOne(deps: Deps, stageId: string): Promise<boolean> {
  return deps.platform.withTx(systemActor('orders.stage-funding'), async (ctx) => {
    // The claim: of two instances (or a retry after a commit), the one whose update finds the stage unreminded and
    // still unfunded sends; the other's update finds nothing. It rolls back with the letters if the step fails.
    const [claimed] = await ctx.tx
      .update(orders)
      .set({ stageRemindedAt: ctx.clock.now() })
      .where(and(eq(orders.id, stageId), isNull(orders.stageRemindedAt), eq(orders.status, 'awaiting_payment')))
      .returning();
    if (!claimed?.headId) return false;
    const name = await orderNameOf(ctx.tx, claimed);
    const chatId = await orderChatId(ctx.tx, claimed.headId);
    const parties = await ctx.tx
      .select({ id: recipient.id, email: recipient.email, name: recipient.name, preferences: recipient.preferences })
      .from(recipient)
      .where(inArray(recipient.id, [claimed.customerId, claimed.sellerId]));
    for (const person of parties) {
      const seller = person.id === claimed.sellerId;
      const path = seller ? (chatId ? orderChatPath(chatId) : '/profile/orders') : `/payments/${claimed.id}`;
      deps.letters.notify(ctx.outbox, person, 'order.stageFunding', { ...name, seller, path });
    }
    return true;
  });
}
