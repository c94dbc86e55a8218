import { and, eq, inArray } from 'drizzle-orm';
import { disputes, type DisputeRow } from '../schema.ts';
import { chatMembers, chats } from '../../chat/schema.ts';
import { users, type UserRow } from '../../users/schema.ts';
import type { DisputeLetterEvent } from '../../../platform/letters/index.ts';
import type { TxContext } from '../../../platform/tx.ts';
import type { DisputeServiceDeps } from '../deps.ts';

// The steps the dispute commands share, each in the command's transaction.

/** The dispute locked, then its order (the one order of locks of every dispute command). */
export async function lockDispute(ctx: TxContext, id: string): Promise<DisputeRow | null> {
  const [row] = await ctx.tx.select().from(disputes).where(eq(disputes.id, id)).for('update');
  return row ?? null;
}

export async function disputeChatId(ctx: TxContext, disputeId: string): Promise<string> {
  const [chat] = await ctx.tx
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.disputeId, disputeId), eq(chats.kind, 'dispute')))
    .limit(1);
  return chat!.id;
}

/** Adds the admin to the dispute's chat; the first admin becomes the arbiter. Answers whether they were new there. */
export async function joinDispute(deps: DisputeServiceDeps, ctx: TxContext, admin: UserRow, dispute: DisputeRow): Promise<boolean> {
  const chatId = await disputeChatId(ctx, dispute.id);
  const added = await ctx.tx.insert(chatMembers).values({ chatId, userId: admin.id }).onConflictDoNothing().returning({ userId: chatMembers.userId });
  if (!dispute.adminId) await ctx.tx.update(disputes).set({ adminId: admin.id, updatedAt: ctx.clock.now() }).where(eq(disputes.id, dispute.id));
  if (added.length) {
    await deps.chat.postInTx(ctx, { chatId, senderId: admin.id, kind: 'system', message: 'Администрация подключилась к спору.' });
  }
  return added.length > 0;
}

/** The notification and letter of a dispute's event to these people, in the command's transaction. */
export async function tellParties(
  deps: DisputeServiceDeps,
  ctx: TxContext,
  to: string[],
  data: { id: string; number: number; title: string; event: DisputeLetterEvent; decision: string | null },
) {
  const people = await ctx.tx
    .select({ id: users.id, email: users.email, name: users.name, preferences: users.preferences })
    .from(users)
    .where(inArray(users.id, to));
  for (const person of people) deps.letters.notify(ctx.outbox, person, 'dispute.event', data);
}
