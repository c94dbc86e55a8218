import { and, eq, gt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { chatMembers, messages } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { SOCKET_EVENTS, type Message } from '#contract/chat';
import { sendCounters } from '../announce.ts';
import type { ChatEnv } from '../context.ts';
import { messagePolicy } from '../policy.ts';
import { presentMessages } from '../queries/present-messages.ts';
import { memberJoin, visible } from '../query-parts.ts';

/**
 * PUT /api/messages/{id} { seen: true }: marks this message and every earlier unseen one from others in the
 * chat as seen by the caller; each sender hears update_message for each of theirs, the caller get_counters.
 */
export async function markSeen(env: ChatEnv, user: UserRow, messageId: string): Promise<Message> {
  const { db } = env;
  const [found] = await db
    .select({ message: messages, member: chatMembers.userId, visible: sql<boolean>`${visible}` })
    .from(messages)
    .leftJoin(chatMembers, memberJoin(user.id))
    .where(eq(messages.id, messageId))
    .limit(1);
  const chatId = messagePolicy.authorize(user, 'markSeen', found).message.chatId;

  await env.deps.realtime.afterCommit(async (outbox) => {
    const target = sql`(select ${messages.createdAt} from ${messages} where ${messages.id} = ${messageId})`;
    const cleared = sql`(select ${chatMembers.clearedAt} from ${chatMembers} where ${chatMembers.chatId} = ${chatId} and ${chatMembers.userId} = ${user.id})`;
    const updated = await db
      .update(messages)
      .set({ seen: true })
      .where(
        and(
          eq(messages.chatId, chatId),
          ne(messages.senderId, user.id),
          eq(messages.seen, false),
          lte(messages.createdAt, target),
          or(sql`${cleared} is null`, gt(messages.createdAt, cleared)) as SQL,
        ),
      )
      .returning({ id: messages.id, senderId: messages.senderId });
    for (const m of updated) outbox.emit([m.senderId], SOCKET_EVENTS.updateMessage, { id: m.id });
  });
  await sendCounters(env, user.id, chatId);
  const [row] = await db.select().from(messages).where(eq(messages.id, messageId));
  return (await presentMessages(env, [row!]))[0]!;
}
