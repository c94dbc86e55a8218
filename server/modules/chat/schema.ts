import { sql } from 'drizzle-orm';
import { pgTable, text, uuid, timestamp, boolean, index, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../users/schema.ts';

// SPEC §3 chats and messages. A chat has a kind: a direct conversation (optionally about a service),
// an order's workspace (orders issue) or a dispute (disputes issue, with an admin member).

export const CHAT_KINDS = ['direct', 'order', 'dispute'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

export const MESSAGE_KINDS = ['text', 'system', 'delivery'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const chats = pgTable(
  'chats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<ChatKind>().notNull().default('direct'),
    /** For direct chats: the two member ids, sorted and joined, so a pair has one chat. */
    directKey: text('direct_key'),
    orderId: uuid('order_id'),
    disputeId: uuid('dispute_id'),
    /** The service the conversation started about, if any. */
    serviceId: uuid('service_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chats_direct_key_idx').on(t.directKey).where(sql`kind = 'direct'`),
    index('chats_order_idx').on(t.orderId),
    index('chats_dispute_idx').on(t.disputeId).where(sql`dispute_id is not null`),
  ],
);

export const chatMembers = pgTable(
  'chat_members',
  {
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Deleting a chat hides it for this member only, until a new message arrives. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Messages before this moment stay hidden for this member after a deletion. */
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index('chat_members_user_idx').on(t.userId)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull().default(''),
    files: text('files').array().notNull().default(sql`'{}'::text[]`),
    serviceId: uuid('service_id'),
    /** SPEC: seen false → true when the recipient opens the chat (PUT /api/messages/{id}). */
    seen: boolean('seen').notNull().default(false),
    /** Whether contacts were masked in this message (PRODUCT.md: before an order exists). */
    masked: boolean('masked').notNull().default(false),
    /** text: written by a member; system: an order's state change, written by the platform in the sender's name
     * (or the member who acted); delivery: a seller's delivery of an order, with its files. */
    kind: text('kind').$type<MessageKind>().notNull().default('text'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_chat_created_idx').on(t.chatId, t.createdAt.desc(), t.id.desc()),
    index('messages_unseen_idx').on(t.chatId, t.senderId).where(sql`seen = false`),
    // Who may open an attachment, and whether a file is still used (uploads cleanup).
    index('messages_files_idx').using('gin', t.files),
  ],
);
