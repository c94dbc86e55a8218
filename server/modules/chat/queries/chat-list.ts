import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { chatMembers, chats, messages, type ChatKind } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import type { Chat, ChatListQuery } from '#contract/chat';
import { chatToTakePart } from '../access.ts';
import type { ChatEnv, OrderView, Paged } from '../context.ts';
import { presentChat, type ChatRow } from '../presenter.ts';
import { count, memberJoin, visible } from '../query-parts.ts';
import { membersOf, presentMessages } from './present-messages.ts';
import { unseenPerChat } from './unseen.ts';

// Chats as their members see them: the lists of direct and order chats, and one chat for other modules.

/** The chats as `userId` sees them: members with online status, their unseen count, their last message. */
export async function chatsFor(env: ChatEnv, userId: string, rows: ChatRow[]): Promise<Chat[]> {
  if (rows.length === 0) return [];
  const { db, deps } = env;
  const ids = rows.map((c) => c.id);
  const members = await membersOf(env, ids);
  // Online status is a nicety: a presence hiccup (Redis away) shows people offline rather than failing the list.
  const online = await deps.realtime
    .onlineAmong([...new Set([...members.values()].flat().map((u) => u.id))])
    .catch((err: unknown) => {
      deps.log.warn({ err }, 'presence unavailable');
      return new Set<string>();
    });
  const lastRows = await db
    .selectDistinctOn([messages.chatId], { message: messages })
    .from(messages)
    .innerJoin(chatMembers, memberJoin(userId))
    .where(and(inArray(messages.chatId, ids), visible))
    .orderBy(messages.chatId, desc(messages.createdAt), desc(messages.id));
  const last = new Map(
    (
      await presentMessages(
        env,
        lastRows.map((r) => r.message),
        members,
      )
    ).map((m) => [m.chat_id, m]),
  );
  const unseen = await unseenPerChat(env, userId, ids);
  const orderIds = rows.flatMap((c) => (c.kind === 'order' && c.orderId ? [c.orderId] : []));
  const orders: Map<string, OrderView> =
    orderIds.length && deps.describeOrders ? await deps.describeOrders(orderIds) : new Map();
  return rows.map((chat) =>
    presentChat(chat, {
      members: members.get(chat.id) ?? [],
      online,
      unseen: unseen.get(chat.id) ?? 0,
      lastMessage: last.get(chat.id) ?? null,
      order: chat.orderId ? orders.get(chat.orderId)?.(userId) : undefined,
    }),
  );
}

/** One chat as a member sees it (for other features: disputes embed their chat). */
export async function chatFor(env: ChatEnv, user: UserRow, chatId: string): Promise<Chat> {
  const chat = await chatToTakePart(env, user, chatId);
  return (await chatsFor(env, user.id, [chat]))[0]!;
}

/** GET /api/chat/my (direct chats) and /api/chat/my_by_order (order chats): the latest conversation first. */
export async function listChats(
  env: ChatEnv,
  user: UserRow,
  kind: Extract<ChatKind, 'direct' | 'order'>,
  query: ChatListQuery,
): Promise<Paged<Chat>> {
  const where = and(eq(chatMembers.userId, user.id), isNull(chatMembers.deletedAt), eq(chats.kind, kind));
  const rows = await env.db
    .select({ chat: chats })
    .from(chats)
    .innerJoin(chatMembers, eq(chatMembers.chatId, chats.id))
    .where(where)
    .orderBy(desc(chats.lastMessageAt), desc(chats.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [{ total } = { total: 0 }] = await env.db
    .select({ total: count })
    .from(chats)
    .innerJoin(chatMembers, eq(chatMembers.chatId, chats.id))
    .where(where);
  return {
    result: await chatsFor(
      env,
      user.id,
      rows.map((r) => r.chat),
    ),
    total,
  };
}
