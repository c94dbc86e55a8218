import { eq, inArray } from 'drizzle-orm';
import { disputes, type DisputeRow } from '../schema.ts';
import { addChatMember, disputeChatRow } from '../../chat/index.ts';
import { people, type UserRow } from '../../users/index.ts';
import type { LetterData } from '../../../platform/letters/index.ts';
import type { TxContext } from '../../../platform/tx.ts';
import type { DisputeServiceDeps } from '../deps.ts';

// The steps the dispute commands share, each in the command's transaction.

const party = people('party');

/** The dispute locked, then its order (the one order of locks of every dispute command). */
export async function lockDispute(ctx: TxContext, id: string): Promise<DisputeRow | null> {
  const [row] = await ctx.tx.select().from(disputes).where(eq(disputes.id, id)).for('update');
  return row ?? null;
}

/** The id of the dispute's chat (opened with the dispute, so it is there). */
export async function disputeChatId(ctx: TxContext, disputeId: string): Promise<string> {
  return (await disputeChatRow(ctx.tx, disputeId))!.id;
}

/** Adds the admin to the dispute's chat; the first admin becomes the arbiter. Answers whether they were new there. */
export async function joinDispute(deps: DisputeServiceDeps, ctx: TxContext, admin: UserRow, dispute: DisputeRow): Promise<boolean> {
  const chatId = await disputeChatId(ctx, dispute.id);
  const added = await addChatMember(ctx.tx, chatId, admin.id);
  if (!dispute.adminId) await ctx.tx.update(disputes).set({ adminId: admin.id, updatedAt: ctx.clock.now() }).where(eq(disputes.id, dispute.id));
  if (added) {
    await deps.chat.postInTx(ctx, { chatId, senderId: admin.id, kind: 'system', message: 'Администрация подключилась к спору.' });
  }
  return added;
}

/** The notification and letter of a dispute's event to these people, in the command's transaction. */
export async function tellParties(
  deps: DisputeServiceDeps,
  ctx: TxContext,
  to: string[],
  data: LetterData<'dispute.event'>,
) {
  const addressees = await ctx.tx
    .select({ id: party.id, email: party.email, name: party.name, preferences: party.preferences })
    .from(party)
    .where(inArray(party.id, to));
  for (const person of addressees) deps.letters.notify(ctx.outbox, person, 'dispute.event', data);
}
