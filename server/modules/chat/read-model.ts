import { QueryBuilder } from 'drizzle-orm/pg-core';
import { chatMembers, chats } from './schema.ts';

// What other modules may read of chats (ADR 049): read-only subqueries joined under an alias of the caller's choice.
// Messages and membership changes go through the chat module's commands and ports.

const qb = new QueryBuilder();

/** Chats as another module joins them, under the alias `as`. */
export const chatRefs = <A extends string>(as: A) =>
  qb
    .select({
      id: chats.id,
      kind: chats.kind,
      orderId: chats.orderId,
      disputeId: chats.disputeId,
      serviceId: chats.serviceId,
      lastMessageAt: chats.lastMessageAt,
      createdAt: chats.createdAt,
    })
    .from(chats)
    .as(as);

/** Chat memberships as another module joins them, under the alias `as`. */
export const chatMemberRefs = <A extends string>(as: A) =>
  qb
    .select({ chatId: chatMembers.chatId, userId: chatMembers.userId, deletedAt: chatMembers.deletedAt, joinedAt: chatMembers.joinedAt })
    .from(chatMembers)
    .as(as);
