import { eq, sql } from 'drizzle-orm';
import { statement } from '../../../db/prepared.ts';
import { orders, type OrderRow } from '../schema.ts';
import { orderChatId } from '../../chat/index.ts';
import { people, type UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { userActor } from '../../../platform/actor.ts';
import type { OrderLetterEvent } from '../../../platform/letters/index.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { ORDER_MESSAGES, type OrderAction } from '#contract/orders';
import type { OrderServiceDeps } from '../deps.ts';
import { orderPolicy } from '../policy.ts';
import { isDraft, refusalOf, sideOf } from '../state.ts';
import { rollUp } from '../stages.ts';
import { orderChatPath, orderNameOf } from '../naming.ts';

// What every step of an order shares: the row locked and the step checked (policy, then the lifecycle's table),
// the row written, and the step announced in the order's chat, to both parties and by letter.

/** The columns that clear a pending cancellation proposal (a step that moves the order ends it). */
export const NO_PROPOSAL = { cancelProposedBy: null, cancelProposedAt: null, cancelProposalReason: null };

/** What one transition tells: its system message, its letter (and to whom). */
export interface Announcement {
  message: string;
  kind?: 'system' | 'delivery';
  files?: string[];
  letter?: { to: 'customer' | 'seller' | 'both'; event: OrderLetterEvent; reason?: string | null };
  /** The order's chat when the caller has it at hand (it just opened it); read otherwise. */
  chatId?: string;
}

/** Who an order's letter goes to, read through the users module's read model; every step reads them. */
const recipient = people('recipient');
const recipientsOf = statement((db) =>
  db
    .select({ id: recipient.id, email: recipient.email, name: recipient.name, preferences: recipient.preferences })
    .from(recipient)
    .where(sql`${recipient.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('order_letter_recipients'),
);

/** A party's step of the lifecycle's table (pay is the payments module's). */
export type PartyAction = Exclude<OrderAction, 'pay'>;

const POLICY_ACTION = {
  deliver: 'deliver',
  revision: 'revision',
  accept: 'accept',
  cancel: 'cancel',
  propose_cancel: 'proposeCancel',
  answer_cancel: 'answerCancel',
} as const satisfies Record<PartyAction, string>;

/**
 * One transition: the order locked, the caller authorized for `action` (404 / 403), the lifecycle's table asked
 * whether the state and time allow it (409, state.ts), then `write` changes it; all in one transaction with its
 * message, events and letters.
 */
export async function runTransition(
  deps: Pick<OrderServiceDeps, 'platform' | 'settings'>,
  user: UserRow,
  id: string,
  action: PartyAction,
  write: (ctx: TxContext, order: OrderRow) => Promise<void>,
): Promise<void> {
  await deps.platform.withTx(userActor(user), async (ctx) => {
    const [found] = await ctx.tx.select().from(orders).where(eq(orders.id, id)).for('update');
    const { order } = orderPolicy.authorize(user, POLICY_ACTION[action], found ? { order: found } : null);
    const cancelWindowMinutes = await deps.settings.get('orders.cancelWindowMinutes', ctx.tx);
    const refusal = refusalOf(action, sideOf(user.id, order)!, order, { now: ctx.clock.now(), cancelWindowMinutes });
    if (refusal) throw new HttpError(409, refusal);
    await write(ctx, order);
  });
}

/** The order locked in the caller's transaction (null when it does not exist). */
export async function lockOrder(ctx: TxContext, id: string): Promise<OrderRow | null> {
  const [order] = await ctx.tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return order ?? null;
}

/**
 * Every step's write of an order: a stage's head is rolled up with it, and a head is refused, its state being its
 * stages' roll-up (ADR 065; 409, and the caller's transaction rolls back).
 */
export async function updateOrder(ctx: TxContext, id: string, values: Partial<typeof orders.$inferInsert>): Promise<OrderRow> {
  const [stage] = await ctx.tx.select({ id: orders.id }).from(orders).where(eq(orders.headId, id)).limit(1);
  if (stage) throw new HttpError(409, ORDER_MESSAGES.headByStages);
  const [row] = await ctx.tx
    .update(orders)
    .set({ ...values, updatedAt: ctx.clock.now() })
    .where(eq(orders.id, id))
    .returning();
  await stageChanged(ctx, row!);
  return row!;
}

/** After any write of an order's state: a stage's head follows it, in the same transaction. */
export async function stageChanged(ctx: TxContext, order: Pick<OrderRow, 'headId'>): Promise<void> {
  if (order.headId) await rollUp(ctx, order.headId);
}

/**
 * What every state change writes besides the state, in its transaction: the system message in the order's chat
 * (fanned out after the commit by the chat's outbox job), order_updated to both parties, and the letter.
 */
export async function announce(
  ctx: TxContext,
  deps: Pick<OrderServiceDeps, 'chat' | 'letters'>,
  order: OrderRow,
  actorId: string,
  a: Announcement,
): Promise<void> {
  // A stage's steps are told in its head's chat, the job's workspace, and name the stage (ADR 065).
  const chatId = a.chatId ?? (await orderChatId(ctx.tx, order.headId ?? order.id));
  const message = a.message && order.stage ? `Этап ${order.stage} «${order.stageTitle ?? ''}»: ${a.message}` : a.message;
  if (chatId && message) await deps.chat.postInTx(ctx, { chatId, senderId: actorId, kind: a.kind ?? 'system', message, files: a.files });
  // A draft concerns its customer alone: its seller learns of the order once it is paid (ADR 042).
  const parties = isDraft(order) ? [order.customerId] : [order.customerId, order.sellerId];
  ctx.outbox.emit(parties, 'order_updated', { _id: order.id, number: order.number, status: order.status });
  if (order.headId) {
    // The head's card follows its stages: its roll-up was written in this transaction.
    const [head] = await ctx.tx.select({ id: orders.id, number: orders.number, status: orders.status }).from(orders).where(eq(orders.id, order.headId));
    if (head) ctx.outbox.emit(parties, 'order_updated', { _id: head.id, number: head.number, status: head.status });
  }
  if (!a.letter) return;
  const letter = a.letter;
  const to = (letter.to === 'both' ? [order.customerId, order.sellerId] : [letter.to === 'customer' ? order.customerId : order.sellerId]).filter((id) => parties.includes(id));
  if (to.length === 0) return;
  const recipients = await recipientsOf(ctx.tx).execute({ ids: to });
  // A stage is named as one; its letter opens its head's chat like its message (ADR 065).
  const name = await orderNameOf(ctx.tx, order);
  for (const person of recipients) {
    deps.letters.notify(ctx.outbox, person, 'order.event', {
      ...name,
      event: letter.event,
      reason: letter.reason ?? null,
      path: chatId ? orderChatPath(chatId) : '/profile/orders',
    });
  }
}

/** The other party of the one acting, as the letters name them. */
export const otherSide = (order: OrderRow, actorId: string): 'customer' | 'seller' => (actorId === order.customerId ? 'seller' : 'customer');

/** What a system message calls the order: a stage is «этап» (ADR 065; announce names which one). */
export const jobWord = (order: Pick<OrderRow, 'headId'>, capital = false) => (order.headId ? (capital ? 'Этап' : 'этап') : capital ? 'Заказ' : 'заказ');

/** The acting party as the chat's system messages name them. */
export const actorWord = (order: OrderRow, actorId: string) => (actorId === order.customerId ? 'Заказчик' : 'Исполнитель');
