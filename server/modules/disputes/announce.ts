import { eq, sql } from 'drizzle-orm';
import { disputes } from './schema.ts';
import { disputeChatRow } from '../chat/index.ts';
import { people } from '../users/index.ts';
import type { DisputeStatus } from '#contract/disputes';
import { SOCKET_EVENTS } from '#contract/chat';
import type { DisputeServiceDeps } from './deps.ts';

const admin = people('admin');

/** The outbox job that sends new_dispute to a dispute's parties and every admin, each with the chat as they see it. */
export const DISPUTE_ANNOUNCE_JOB = 'disputes.announce';

/**
 * new_dispute (the DISPUTE_ANNOUNCE_JOB's handler, after the commit): to the parties and every admin, the dispute's
 * chat as each sees it and its state. The client replaces the matching chat (SPEC §4) and refreshes the dispute.
 */
export async function announceDispute(deps: DisputeServiceDeps, disputeId: string): Promise<void> {
  const { db } = deps;
  const [dispute] = await db.select().from(disputes).where(eq(disputes.id, disputeId)).limit(1);
  const disputeChat = dispute ? await disputeChatRow(db, disputeId) : undefined;
  if (!dispute || !disputeChat) return;
  const admins = await db
    .select({ id: admin.id })
    .from(admin)
    .where(sql`'admin' = any(${admin.roles})`);
  const to = [...new Set([dispute.openedBy, dispute.respondentId, ...admins.map((a) => a.id)])];
  for (const userId of to) {
    const [chat] = await deps.chat.chatsFor(userId, [disputeChat]);
    if (chat) deps.realtime.emitToUsers([userId], SOCKET_EVENTS.newDispute, { chat, dispute_id: disputeId, status: dispute.status as DisputeStatus });
  }
}
