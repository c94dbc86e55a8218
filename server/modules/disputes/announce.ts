import { and, eq, sql } from 'drizzle-orm';
import { disputes } from './schema.ts';
import { chats } from '../chat/schema.ts';
import { users } from '../users/schema.ts';
import type { DisputeStatus } from '#contract/disputes';
import { SOCKET_EVENTS } from '#contract/chat';
import type { DisputeServiceDeps } from './deps.ts';

/** The outbox job that sends new_dispute to a dispute's parties and every admin, each with the chat as they see it. */
export const DISPUTE_ANNOUNCE_JOB = 'disputes.announce';

/**
 * new_dispute (the DISPUTE_ANNOUNCE_JOB's handler, after the commit): to the parties and every admin, the dispute's
 * chat as each sees it and its state. The client replaces the matching chat (SPEC §4) and refreshes the dispute.
 */
export async function announceDispute(deps: DisputeServiceDeps, disputeId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db
    .select({ dispute: disputes, chat: chats })
    .from(disputes)
    .innerJoin(chats, and(eq(chats.disputeId, disputes.id), eq(chats.kind, 'dispute')))
    .where(eq(disputes.id, disputeId))
    .limit(1);
  if (!row) return;
  const admins = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`'admin' = any(${users.roles})`);
  const to = [...new Set([row.dispute.openedBy, row.dispute.respondentId, ...admins.map((a) => a.id)])];
  for (const userId of to) {
    const [chat] = await deps.chat.chatsFor(userId, [row.chat]);
    if (chat) deps.realtime.emitToUsers([userId], SOCKET_EVENTS.newDispute, { chat, dispute_id: disputeId, status: row.dispute.status as DisputeStatus });
  }
}
