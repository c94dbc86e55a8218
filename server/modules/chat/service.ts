import { and, asc, desc, eq, getTableColumns, gt, inArray, isNotNull, isNull, lte, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { chatMembers, chats, messages, type ChatKind } from '../../db/schema/chat.ts';
import { services } from '../../db/schema/catalog.ts';
import { files } from '../../db/schema/files.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/http.ts';
import { chatPolicy } from './policy.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Dispatcher } from '../../platform/dispatcher.ts';
import type { TxContext } from '../../platform/tx.ts';
import type { MessageKind } from '../../db/schema/chat.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { filesByPaths, parseFilePath, type FileRow } from '../../platform/files.ts';
import { maskContacts } from './contacts.ts';
import { SerialBatcher } from './fanout.ts';
import { presentChat, presentMessage, type ChatPerson, type ChatRow, type MessageRow } from './presenter.ts';
import {
  CHAT_MESSAGES,
  MESSAGES_PER_WINDOW,
  MESSAGES_WINDOW_MS,
  SOCKET_EVENTS,
  type Chat,
  type ChatListQuery,
  type CountersEvent,
  type Message,
  type MessagesQuery,
  type SendMessage,
  type SentMessage,
} from '#contract/chat';

// Chats and messages (SPEC §3, §4, §7; PRODUCT.md "Notifications and messages").
//
// Who may do what: chatPolicy (policy.ts). Admins are members like anyone else where they are members (dispute
// chats); they read any other chat only through the admin API (adminMessages).
//
// Deleting a chat hides it and its history up to that moment for the deleting member only (chat_members.
// deleted_at / cleared_at); a new message brings the chat back, with only the messages after the deletion.
// See docs/decisions/003-chat-deletion.md.
//
// Socket events leave only after the transaction that caused them has committed.

export interface ChatDeps {
  db: Db;
  realtime: Pick<Realtime, 'emitToUsers' | 'onlineAmong' | 'afterCommit'>;
  limiter: RateLimiter;
  log: Logger;
  /** Operator settings; defaults from contract/chat.ts. */
  limits?: { messagesPerWindow?: number; windowMs?: number };
  /**
   * What an order chat shows about its order (the orders feature); by default its id only. Per order, a view for
   * each member (the actions differ between the customer and the seller).
   */
  describeOrders?: (orderIds: string[]) => Promise<Map<string, OrderView>>;
  /** Where the chat registers its outbox jobs (CHAT_ANNOUNCE_JOB); without it, posted messages are not announced. */
  jobs?: Pick<Dispatcher, 'handle'>;
  /**
   * Told, once per fan-out batch, of the messages members wrote (not orders' system messages), each with its chat's
   * other members: the letter about unread messages (ADR 030). Off the send path: one call for a whole batch.
   */
  onSent?: (sent: { chatId: string; recipientIds: string[] }[]) => Promise<void>;
}

/** An order as one member of its chat sees it. */
export type OrderView = (viewerId: string) => Record<string, unknown> & { _id: string };

/** The outbox job that announces a message written inside another module's transaction (postInTx). */
export const CHAT_ANNOUNCE_JOB = 'chat.announce';

export interface Paged<T> {
  result: T[];
  total: number;
}

/** Messages a member sees: those after the moment they last deleted the chat. Needs chat_members joined. */
const visible = or(isNull(chatMembers.clearedAt), gt(messages.createdAt, chatMembers.clearedAt))!;

/** The membership of `userId` joined to messages of the same chat. */
const memberJoin = (userId: string) => and(eq(chatMembers.chatId, messages.chatId), eq(chatMembers.userId, userId))!;

/** Not seen yet. A literal, not a parameter: a prepared statement's generic plan could not use messages_unseen_idx. */
const notSeen = sql`${messages.seen} = false`;

/** Unseen by `userId` (an id, or the member column of a joined chat_members): from others, not seen, not hidden. */
const unseenBy = (userId: string | AnyColumn) => and(ne(messages.senderId, userId), notSeen, visible)!;

/** A direct chat; a literal for the same reason (chats_direct_key_idx is partial on it). */
const isDirect = sql`${chats.kind} = 'direct'`;

const count = sql<number>`count(*)::int`;

/** Text as the person typed it, minus what cannot be stored or shown: control characters, broken surrogates. */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .trim()
  );
}

const directKey = (a: string, b: string) => [a, b].sort().join(':');

/** The ids of a chat's members in the order they joined (a subquery; null when it has none). */
const memberIdsOf = (chatId: AnyColumn) =>
  sql<string[] | null>`(select json_agg(${chatMembers.userId} order by ${chatMembers.joinedAt}, ${chatMembers.userId}) from ${chatMembers} where ${chatMembers.chatId} = ${chatId})`;

/** The columns of a person that chats and messages show. */
const person = { id: users.id, activeRole: users.activeRole, name: users.name, surname: users.surname, avatar: users.avatar, userName: users.userName };

const p = sql.placeholder;

/**
 * Stores a message in chat `chatId` and, in the same statement (so in the same transaction), moves the chat up and
 * brings it back for the members who had deleted it.
 */
function insertMessageQuery(db: Db) {
  const moved = db.$with('moved').as(
    db
      .update(chats)
      // now(): the message's created_at, at full precision; never backwards when transactions overlap.
      .set({ lastMessageAt: sql`greatest(${chats.lastMessageAt}, now())` })
      .where(eq(chats.id, p('chatId')))
      .returning({ id: chats.id }),
  );
  const revived = db.$with('revived').as(
    db
      .update(chatMembers)
      .set({ deletedAt: null })
      .where(and(eq(chatMembers.chatId, p('chatId')), isNotNull(chatMembers.deletedAt)))
      .returning({ userId: chatMembers.userId }),
  );
  return db
    .with(moved, revived)
    .insert(messages)
    .values({ chatId: p('chatId'), senderId: p('senderId'), message: p('message'), files: p('files'), serviceId: p('serviceId'), masked: p('masked') })
    .returning();
}

/**
 * The usual message in one statement: into the chat `target` picks (none when the sender may not write there, or it
 * does not exist yet), masked if it is a direct chat, with the chat moved up and revived as insertMessageQuery does.
 * Returns the stored row and the chat's member ids, or nothing (then send() takes the long way, which also tells
 * what is wrong).
 */
function sendQuery(db: Db, target: 'direct' | 'chat') {
  // Aggregates, not exists(): the planner cannot turn them into joins that start from everyone's memberships, so the
  // chat is found by its key first (one row) and its members by their primary key.
  const members = (...userIds: SQL[]) =>
    sql`(select count(*) from ${chatMembers} where ${chatMembers.chatId} = ${chats.id} and ${chatMembers.userId} in (${sql.join(userIds, sql`, `)})) = ${sql.raw(String(userIds.length))}`;
  const into = db.$with('target').as(
    db
      .select({ id: chats.id, kind: chats.kind })
      .from(chats)
      .where(
        target === 'chat'
          ? and(eq(chats.id, p('chatId')), members(sql`${p('senderId')}::uuid`))
          : and(
              isDirect,
              eq(chats.directKey, p('key')),
              sql`exists (select 1 from ${users} where ${users.id} = ${p('recipient')} and ${users.blockedAt} is null)`,
              members(sql`${p('senderId')}::uuid`, sql`${p('recipient')}::uuid`),
            ),
      )
      .limit(1),
  );
  const moved = db.$with('moved').as(
    db
      .update(chats)
      .set({ lastMessageAt: sql`greatest(${chats.lastMessageAt}, now())` })
      .where(sql`${chats.id} in (select ${into.id} from ${into})`)
      .returning({ id: chats.id }),
  );
  const revived = db.$with('revived').as(
    db
      .update(chatMembers)
      .set({ deletedAt: null })
      .where(and(sql`${chatMembers.chatId} in (select ${into.id} from ${into})`, isNotNull(chatMembers.deletedAt)))
      .returning({ userId: chatMembers.userId }),
  );
  const direct = sql`${into.kind} = 'direct'`;
  // Every column in the table's order (drizzle's insert … select wants them so), defaults as the table has them.
  const row = db.select({
    id: sql`gen_random_uuid()`.as('id'),
    chatId: into.id,
    senderId: sql`${p('senderId')}::uuid`.as('sender_id'),
    message: sql`case when ${direct} then ${p('maskedText')}::text else ${p('text')}::text end`.as('message'),
    files: sql`${p('files')}::text[]`.as('files'),
    serviceId: sql`${p('serviceId')}::uuid`.as('service_id'),
    seen: sql`false`.as('seen'),
    masked: sql`(${direct} and ${p('masked')}::boolean)`.as('masked'),
    kind: sql`'text'`.as('kind'),
    createdAt: sql`now()`.as('created_at'),
  });
  return db
    .with(into, moved, revived)
    .insert(messages)
    .select(row.from(into))
    .returning({
      ...getTableColumns(messages),
      // Spelled out: in RETURNING drizzle leaves column names unqualified, and the subquery would take them for its own.
      memberIds: sql<string[] | null>`(select json_agg(m.user_id order by m.joined_at, m.user_id) from chat_members m where m.chat_id = messages.chat_id)`,
    });
}

/**
 * What the fan-out needs, in one query: every member of the chats `chats` with their chat, their unseen messages in
 * it and in all their chats, and the newest message they see in it, as things are when it runs (after the commits).
 */
function fanoutQuery(db: Db) {
  const others = alias(chatMembers, 'others');
  return db
    .select({
      chat: chats,
      member: person,
      // As unseenPerChat: unseen from others in this chat, after this member's deletion.
      unseen: sql<number>`(${db.select({ n: count }).from(messages).where(and(eq(messages.chatId, chatMembers.chatId), unseenBy(chatMembers.userId)))})`,
      // As unseenTotal: the same across the chats this member has not deleted.
      total: sql<number>`(${db
        .select({ n: count })
        .from(messages)
        .innerJoin(others, and(eq(others.chatId, messages.chatId), eq(others.userId, chatMembers.userId)))
        .where(
          and(
            isNull(others.deletedAt),
            ne(messages.senderId, chatMembers.userId),
            notSeen,
            or(isNull(others.clearedAt), gt(messages.createdAt, others.clearedAt)),
          ),
        )})`,
      // As chatsFor: the newest message of the chat this member sees.
      lastId: sql<string | null>`(${db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.chatId, chatMembers.chatId), visible))
        // "nulls last" as messages_chat_created_idx has it (the columns are never null), so the index gives the order.
        .orderBy(sql`${messages.createdAt} desc nulls last`, sql`${messages.id} desc nulls last`)
        .limit(1)})`,
    })
    .from(chatMembers)
    .innerJoin(users, eq(users.id, chatMembers.userId))
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .where(sql`${chatMembers.chatId} = any(${p('chats')}::uuid[])`)
    .orderBy(asc(chatMembers.joinedAt), asc(chatMembers.userId));
}

/**
 * The queries of sending a message and of its fan-out, built once per service: drizzle takes about as much CPU to
 * build each of them (0.2–1 ms) as PostgreSQL takes to run it. On PostgreSQL each is also prepared once per
 * connection (named statements), which spares the parsing and planning.
 */
function prepareStatements(db: Db) {
  return {
    /** The recipient, and the direct chat the two already have (with its members), if any. */
    direct: db
      .select({ recipient: { id: users.id, blockedAt: users.blockedAt }, chat: chats, memberIds: memberIdsOf(chats.id) })
      .from(users)
      .leftJoin(chats, and(isDirect, eq(chats.directKey, p('key'))))
      .where(eq(users.id, p('recipient')))
      .limit(1)
      .prepare('chat_send_direct'),
    /** As access(), with the chat's member ids. */
    access: db
      .select({ chat: chats, member: chatMembers.userId, memberIds: memberIdsOf(chats.id) })
      .from(chats)
      .leftJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, p('userId'))))
      .where(eq(chats.id, p('chatId')))
      .limit(1)
      .prepare('chat_send_access'),
    insert: insertMessageQuery(db).prepare('chat_send_insert'),
    sendDirect: sendQuery(db, 'direct').prepare('chat_send_fast_direct'),
    sendToChat: sendQuery(db, 'chat').prepare('chat_send_fast_chat'),
    fanout: fanoutQuery(db).prepare('chat_fanout'),
  };
}

/** A new message to announce: new_message to every member, get_counters to the others. */
interface MessageJob {
  kind: 'message';
  chatId: string;
  row: MessageRow;
  message: Message;
}

/** get_counters to one member; `settle` tells the caller it has left (or why not). */
interface CountersJob {
  kind: 'counters';
  userId: string;
  chatId: string;
  settle: (err?: unknown) => void;
}

type FanoutJob = MessageJob | CountersJob;

interface FanoutRow {
  chat: ChatRow;
  member: ChatPerson;
  unseen: number;
  total: number;
  lastId: string | null;
}

export class ChatService {
  private readonly perWindow: number;
  private readonly windowMs: number;
  /** Socket events of messages and counters, sent in order, one batch at a time (see SerialBatcher). */
  private readonly fanout: SerialBatcher<FanoutJob>;
  private statements?: ReturnType<typeof prepareStatements>;

  constructor(private readonly deps: ChatDeps) {
    this.perWindow = deps.limits?.messagesPerWindow ?? MESSAGES_PER_WINDOW;
    this.windowMs = deps.limits?.windowMs ?? MESSAGES_WINDOW_MS;
    this.fanout = new SerialBatcher<FanoutJob>(
      (batch) => this.fanOut(batch),
      (err) => deps.log.error({ err }, 'chat fan-out failed'),
    );
    deps.jobs?.handle<{ messageId: string }>(CHAT_ANNOUNCE_JOB, ({ messageId }) => this.announce(messageId));
  }

  private get db() {
    return this.deps.db;
  }

  private get prepared() {
    return (this.statements ??= prepareStatements(this.db));
  }

  // -------------------------------------------------------------------------------------------------------
  // Access
  // -------------------------------------------------------------------------------------------------------

  /** The chat, if `user` may take part in it (chatPolicy). */
  private async access(user: UserRow, chatId: string): Promise<ChatRow> {
    const [row] = await this.db
      .select({ chat: chats, member: chatMembers.userId })
      .from(chats)
      .leftJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, user.id)))
      .where(eq(chats.id, chatId))
      .limit(1);
    return chatPolicy.authorize(user, 'takePart', row).chat;
  }

  /** As access(), with the ids of the chat's members in the order they joined. */
  private async accessWithMembers(user: UserRow, chatId: string): Promise<{ chat: ChatRow; memberIds: string[] }> {
    const { chat, memberIds } = chatPolicy.authorize(user, 'takePart', (await this.prepared.access.execute({ userId: user.id, chatId }))[0]);
    return { chat, memberIds: memberIds ?? [] };
  }

  // -------------------------------------------------------------------------------------------------------
  // Presentation helpers
  // -------------------------------------------------------------------------------------------------------

  /** Members of the chats (what is shown of them), in the order they joined. */
  private async membersOf(chatIds: string[]): Promise<Map<string, ChatPerson[]>> {
    const byChat = new Map<string, ChatPerson[]>(chatIds.map((id) => [id, []]));
    if (chatIds.length === 0) return byChat;
    const rows = await this.db
      .select({ chatId: chatMembers.chatId, user: person })
      .from(chatMembers)
      .innerJoin(users, eq(users.id, chatMembers.userId))
      .where(inArray(chatMembers.chatId, chatIds))
      .orderBy(asc(chatMembers.joinedAt), asc(chatMembers.userId));
    for (const r of rows) byChat.get(r.chatId)?.push(r.user);
    return byChat;
  }

  private filesOf(rows: MessageRow[]): Promise<Map<string, FileRow>> {
    return filesByPaths(this.db, rows.flatMap((r) => r.files));
  }

  /** Presents messages; `membersByChat` may already hold the members of their chats. */
  private async presentMessages(rows: MessageRow[], membersByChat?: Map<string, ChatPerson[]>): Promise<Message[]> {
    if (rows.length === 0) return [];
    const chatIds = [...new Set(rows.map((r) => r.chatId))];
    const members = membersByChat && chatIds.every((id) => membersByChat.has(id)) ? membersByChat : await this.membersOf(chatIds);
    const usersById = new Map<string, ChatPerson>();
    for (const list of members.values()) for (const u of list) usersById.set(u.id, u);
    const missing = [...new Set(rows.map((r) => r.senderId))].filter((id) => !usersById.has(id));
    if (missing.length) for (const u of await this.db.select(person).from(users).where(inArray(users.id, missing))) usersById.set(u.id, u);
    const fileRows = await this.filesOf(rows);
    return rows.map((row) =>
      presentMessage(row, { users: usersById, memberIds: (members.get(row.chatId) ?? []).map((u) => u.id), files: fileRows }),
    );
  }

  /** Unseen messages of `userId` per chat (all their chats when `chatIds` is not given, deleted ones left out). */
  private async unseenPerChat(userId: string, chatIds?: string[]): Promise<Map<string, number>> {
    if (chatIds && chatIds.length === 0) return new Map();
    const rows = await this.db
      .select({ chatId: messages.chatId, n: count })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(userId))
      .where(and(unseenBy(userId), chatIds ? inArray(messages.chatId, chatIds) : isNull(chatMembers.deletedAt)))
      .groupBy(messages.chatId);
    return new Map(rows.map((r) => [r.chatId, r.n]));
  }

  /** The chats as `userId` sees them: members with online status, their unseen count, their last message. */
  async chatsFor(userId: string, rows: ChatRow[]): Promise<Chat[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((c) => c.id);
    const members = await this.membersOf(ids);
    // Online status is a nicety: a presence hiccup (Redis away) shows people offline rather than failing the list.
    const online = await this.deps.realtime.onlineAmong([...new Set([...members.values()].flat().map((u) => u.id))]).catch((err: unknown) => {
      this.deps.log.warn({ err }, 'presence unavailable');
      return new Set<string>();
    });
    const lastRows = await this.db
      .selectDistinctOn([messages.chatId], { message: messages })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(userId))
      .where(and(inArray(messages.chatId, ids), visible))
      .orderBy(messages.chatId, desc(messages.createdAt), desc(messages.id));
    const last = new Map((await this.presentMessages(lastRows.map((r) => r.message), members)).map((m) => [m.chat_id, m]));
    const unseen = await this.unseenPerChat(userId, ids);
    const orderIds = rows.flatMap((c) => (c.kind === 'order' && c.orderId ? [c.orderId] : []));
    const orders: Map<string, OrderView> = orderIds.length && this.deps.describeOrders ? await this.deps.describeOrders(orderIds) : new Map();
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

  /** Unseen messages of `userId` in these chats (disputes' admin queue). */
  unseenIn(userId: string, chatIds: string[]): Promise<Map<string, number>> {
    return this.unseenPerChat(userId, chatIds);
  }

  /** One chat as a member sees it (for other features: disputes embed their chat). */
  async chatFor(user: UserRow, chatId: string): Promise<Chat> {
    const chat = await this.access(user, chatId);
    return (await this.chatsFor(user.id, [chat]))[0]!;
  }

  // -------------------------------------------------------------------------------------------------------
  // Chats
  // -------------------------------------------------------------------------------------------------------

  /** GET /api/chat/my (direct chats) and /api/chat/my_by_order (order chats): the latest conversation first. */
  async listChats(user: UserRow, kind: Extract<ChatKind, 'direct' | 'order'>, query: ChatListQuery): Promise<Paged<Chat>> {
    const where = and(eq(chatMembers.userId, user.id), isNull(chatMembers.deletedAt), eq(chats.kind, kind));
    const rows = await this.db
      .select({ chat: chats })
      .from(chats)
      .innerJoin(chatMembers, eq(chatMembers.chatId, chats.id))
      .where(where)
      .orderBy(desc(chats.lastMessageAt), desc(chats.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    const [{ total } = { total: 0 }] = await this.db
      .select({ total: count })
      .from(chats)
      .innerJoin(chatMembers, eq(chatMembers.chatId, chats.id))
      .where(where);
    return { result: await this.chatsFor(user.id, rows.map((r) => r.chat)), total };
  }

  /**
   * DELETE /api/chat/{id}: hides a direct chat and its history so far for this member only. Order and dispute
   * chats keep the record of a deal and cannot be deleted.
   */
  async deleteChat(user: UserRow, chatId: string): Promise<void> {
    const chat = await this.access(user, chatId);
    if (chat.kind !== 'direct') throw badRequest(CHAT_MESSAGES.cannotDelete);
    await this.deps.realtime.afterCommit(async (outbox) => {
      await this.db
        .update(chatMembers)
        .set({ deletedAt: sql`now()`, clearedAt: sql`now()` })
        .where(and(eq(chatMembers.chatId, chatId), eq(chatMembers.userId, user.id)));
      outbox.emit([user.id], SOCKET_EVENTS.deleteChat, { id: chatId });
    });
    await this.sendCounters(user.id, chatId);
  }

  /**
   * Opens a chat of an order or a dispute (for those features), or returns the one the order already has.
   * Pass the caller's transaction to open it together with the order or dispute.
   */
  async openChat(
    input: { kind: 'order' | 'dispute'; memberIds: string[]; orderId?: string; disputeId?: string; serviceId?: string | null },
    tx: Db = this.db,
  ): Promise<ChatRow> {
    const [chat] = await tx
      .insert(chats)
      .values({ kind: input.kind, orderId: input.orderId ?? null, disputeId: input.disputeId ?? null, serviceId: input.serviceId ?? null })
      .returning();
    const memberIds = [...new Set(input.memberIds)];
    if (memberIds.length) await tx.insert(chatMembers).values(memberIds.map((userId) => ({ chatId: chat!.id, userId }))).onConflictDoNothing();
    return chat!;
  }

  // -------------------------------------------------------------------------------------------------------
  // Messages
  // -------------------------------------------------------------------------------------------------------

  /** GET /api/messages/chat/{id}: a page of the messages this member sees, newest first. */
  async messages(user: UserRow, chatId: string, query: MessagesQuery): Promise<Paged<Message>> {
    await this.access(user, chatId);
    const where = and(eq(messages.chatId, chatId), visible);
    const rows = await this.db
      .select({ message: messages })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(user.id))
      .where(where)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    const [{ total } = { total: 0 }] = await this.db.select({ total: count }).from(messages).innerJoin(chatMembers, memberJoin(user.id)).where(where);
    return { result: await this.presentMessages(rows.map((r) => r.message)), total };
  }

  /** GET /api/admin/chats/{id}/messages: every message of any chat, newest first (the admin area). */
  async adminMessages(chatId: string, query: MessagesQuery): Promise<Paged<Message>> {
    const [chat] = await this.db.select({ id: chats.id }).from(chats).where(eq(chats.id, chatId)).limit(1);
    if (!chat) throw notFound(CHAT_MESSAGES.chatNotFound);
    const rows = await this.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    const [{ total } = { total: 0 }] = await this.db.select({ total: count }).from(messages).where(eq(messages.chatId, chatId));
    return { result: await this.presentMessages(rows), total };
  }

  /** GET /api/messages/last_message/{chatId}: the newest message this member sees, or null. */
  async lastMessage(user: UserRow, chatId: string): Promise<Message | null> {
    await this.access(user, chatId);
    const [row] = await this.db
      .select({ message: messages })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(user.id))
      .where(and(eq(messages.chatId, chatId), visible))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    return row ? (await this.presentMessages([row.message]))[0]! : null;
  }

  /** GET /api/messages/unseen/count: unseen messages from others across the chats this person has not deleted. */
  async unseenTotal(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(userId))
      .where(and(unseenBy(userId), isNull(chatMembers.deletedAt)));
    return row?.n ?? 0;
  }

  /** Of unseenTotal, the unseen messages in the chats of this person's disputes (they are listed under «Споры»). */
  async unseenInDisputes(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count })
      .from(messages)
      .innerJoin(chatMembers, memberJoin(userId))
      .innerJoin(chats, and(eq(chats.id, messages.chatId), eq(chats.kind, 'dispute')))
      .where(and(unseenBy(userId), isNull(chatMembers.deletedAt)));
    return row?.n ?? 0;
  }

  /** GET /api/messages/{chatId}/unseen/count. */
  async unseenInChat(user: UserRow, chatId: string): Promise<number> {
    await this.access(user, chatId);
    return (await this.unseenPerChat(user.id, [chatId])).get(chatId) ?? 0;
  }

  /**
   * POST /api/messages/. Into `chat_id`, else into the direct chat with `recipient` (opened on the first message).
   * In direct chats (no order yet) contacts are masked. Stored, the chat moved up and revived for members who had
   * deleted it, in one transaction (one statement when the chat exists); the answer leaves once that has committed,
   * and the members are told after it (fanOut), through the fan-out queue.
   */
  async send(user: UserRow, input: SendMessage): Promise<SentMessage> {
    const { allowed } = await this.deps.limiter.hit(`chat:messages:${user.id}`, this.perWindow, this.windowMs);
    if (!allowed) throw new HttpError(429, CHAT_MESSAGES.tooMany);

    const text = cleanText(input.message);
    if (!text && input.files.length === 0) throw badRequest(CHAT_MESSAGES.empty, { message: [CHAT_MESSAGES.empty] });
    const attachments = await this.ownFiles(user.id, input.files);
    const serviceId = input.service_id ?? null;
    if (serviceId) {
      const [service] = await this.db.select({ id: services.id }).from(services).where(eq(services.id, serviceId)).limit(1);
      if (!service) throw badRequest(CHAT_MESSAGES.serviceNotFound, { service_id: [CHAT_MESSAGES.serviceNotFound] });
    }

    // Before an order exists (direct chats) contacts are masked; the administration writes as it must.
    const maskable = !user.roles.includes('admin');
    const { text: maskedText, masked } = maskable ? maskContacts(text) : { text, masked: false };
    const values = (chat: ChatRow) => ({
      chatId: chat.id,
      senderId: user.id,
      message: chat.kind === 'direct' ? maskedText : text,
      files: attachments,
      serviceId,
      masked: chat.kind === 'direct' && masked,
    });
    const fields = { senderId: user.id, text, maskedText, masked, files: attachments, serviceId };

    // The usual case in one statement: a chat that exists, which the sender may write to (and, for a recipient,
    // a recipient who is not blocked).
    const [fast] = input.chat_id
      ? await this.prepared.sendToChat.execute({ ...fields, chatId: input.chat_id })
      : input.recipient && input.recipient !== user.id
        ? await this.prepared.sendDirect.execute({ ...fields, recipient: input.recipient, key: directKey(user.id, input.recipient) })
        : [];

    // Otherwise the long way, which tells what is wrong, or opens the direct chat of a first message.
    const { chatId, row, memberIds } = fast
      ? (({ memberIds, ...row }) => ({ chatId: row.chatId, row, memberIds: memberIds ?? [] }))(fast)
      : await this.sendSlowly(user, input, values, serviceId);

    // Committed: the answer, and the members' events after it.
    const message = presentMessage(row, { users: new Map([[user.id, user]]), memberIds, files: await this.filesOf([row]) });
    this.fanout.push({ kind: 'message', chatId, row, message });
    return row.masked ? { ...message, notice: CHAT_MESSAGES.contactsMasked } : message;
  }

  /** send() when the one statement stored nothing: the checks one by one, or a direct chat to open. */
  private async sendSlowly(
    user: UserRow,
    input: SendMessage,
    values: (chat: ChatRow) => { chatId: string; senderId: string; message: string; files: string[]; serviceId: string | null; masked: boolean },
    serviceId: string | null,
  ): Promise<{ chatId: string; row: MessageRow; memberIds: string[] }> {
    if (input.chat_id) {
      const { chat, memberIds } = await this.accessWithMembers(user, input.chat_id);
      const [row] = await this.prepared.insert.execute(values(chat));
      return { chatId: chat.id, row: row!, memberIds };
    }
    if (!input.recipient) throw badRequest(CHAT_MESSAGES.noRecipient, { recipient: [CHAT_MESSAGES.noRecipient] });
    if (input.recipient === user.id) throw badRequest(CHAT_MESSAGES.notYourself, { recipient: [CHAT_MESSAGES.notYourself] });
    const [found] = await this.prepared.direct.execute({ recipient: input.recipient, key: directKey(user.id, input.recipient) });
    if (!found) throw notFound(CHAT_MESSAGES.recipientNotFound);
    if (found.recipient.blockedAt) throw forbidden(CHAT_MESSAGES.recipientBlocked);
    const recipient = found.recipient;
    const memberIds = found.memberIds ?? [];
    if (found.chat && memberIds.includes(user.id) && memberIds.includes(recipient.id)) {
      const [row] = await this.prepared.insert.execute(values(found.chat));
      return { chatId: found.chat.id, row: row!, memberIds };
    }
    // The first message of the two (or a chat that lost a member): opened, then written to, in one transaction.
    return this.db.transaction(async (tx) => {
      const chat = await this.openDirect(tx, user.id, recipient.id, serviceId);
      const [row] = await insertMessageQuery(tx).execute(values(chat));
      return { chatId: chat.id, row: row!, memberIds: [user.id, recipient.id] };
    });
  }

  /**
   * A message the platform writes in a chat inside another module's transaction (an order's state change, a
   * delivery), in the name of `senderId` (the member who acted). The chat moves up and comes back for members who
   * had deleted it, as with any message; the members hear of it (new_message, get_counters) once the transaction
   * has committed, through the outbox (CHAT_ANNOUNCE_JOB). Files must be checked by the caller (ownFilesOf).
   */
  async postInTx(
    { tx, outbox }: Pick<TxContext, 'tx' | 'outbox'>,
    input: { chatId: string; senderId: string; kind: Exclude<MessageKind, 'text'>; message: string; files?: string[] },
  ): Promise<MessageRow> {
    await tx
      .update(chats)
      .set({ lastMessageAt: sql`greatest(${chats.lastMessageAt}, now())` })
      .where(eq(chats.id, input.chatId));
    await tx
      .update(chatMembers)
      .set({ deletedAt: null })
      .where(and(eq(chatMembers.chatId, input.chatId), isNotNull(chatMembers.deletedAt)));
    const [row] = await tx
      .insert(messages)
      .values({ chatId: input.chatId, senderId: input.senderId, message: cleanText(input.message), files: input.files ?? [], kind: input.kind })
      .returning();
    outbox.job(CHAT_ANNOUNCE_JOB, { messageId: row!.id });
    return row!;
  }

  /** The fan-out of a message stored by postInTx (its job's handler); resolves once its events have left. */
  async announce(messageId: string): Promise<void> {
    const [row] = await this.db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
    if (!row) return;
    const [message] = await this.presentMessages([row]);
    this.fanout.push({ kind: 'message', chatId: row.chatId, row, message: message! });
    await this.fanout.idle();
  }

  /** The attachments as stored urls, each one uploaded by `userId` (403 otherwise): chat.send's rule, for others. */
  ownFilesOf(userId: string, urls: string[]): Promise<string[]> {
    return this.ownFiles(userId, urls);
  }

  /** The direct chat of two people, opened if they have none (one per pair, even when two first messages race). */
  private async openDirect(tx: Db, a: string, b: string, serviceId: string | null): Promise<ChatRow> {
    const key = directKey(a, b);
    await tx
      .insert(chats)
      .values({ kind: 'direct', directKey: key, serviceId })
      .onConflictDoNothing({ target: chats.directKey, where: sql`kind = 'direct'` });
    const [chat] = await tx
      .select()
      .from(chats)
      .where(and(eq(chats.kind, 'direct'), eq(chats.directKey, key)))
      .limit(1);
    await tx
      .insert(chatMembers)
      .values([a, b].map((userId) => ({ chatId: chat!.id, userId })))
      .onConflictDoNothing();
    return chat!;
  }

  /** The attachments as stored urls, each one uploaded by the sender (403 otherwise). */
  private async ownFiles(userId: string, urls: string[]): Promise<string[]> {
    const keys = [...new Set(urls.map((u) => parseFilePath(u)))];
    if (keys.length === 0) return [];
    if (keys.some((k) => k === null)) throw badRequest(CHAT_MESSAGES.badFile, { files: [CHAT_MESSAGES.badFile] });
    const found = await this.db.select().from(files).where(inArray(files.path, keys as string[]));
    const mine = new Set(found.filter((f) => f.ownerId === userId).map((f) => f.path));
    if (keys.some((k) => !mine.has(k!))) throw forbidden(CHAT_MESSAGES.notYourFile);
    return (keys as string[]).map((k) => `/uploads/${k}`);
  }

  /** get_counters to one person: their unseen messages everywhere and in this chat; resolves once it has left. */
  private sendCounters(userId: string, chatId: string): Promise<void> {
    return new Promise((resolve, reject) => this.fanout.push({ kind: 'counters', userId, chatId, settle: (err) => (err ? reject(err) : resolve()) }));
  }

  /** Resolves once every event queued so far has been sent (tests, shutdown). */
  idle(): Promise<void> {
    return this.fanout.idle();
  }

  /**
   * Sends a batch of the fan-out queue: for each new message, new_message to every member (the chat as each sees
   * it) and get_counters to each recipient; for each counters job, get_counters to that person. One query gets
   * every member of those chats with their counts and last visible message, as they are now (after the commits).
   * Failures are logged, and reported to whoever waits for their counters; one job's failure spares the others.
   */
  private async fanOut(batch: FanoutJob[]): Promise<void> {
    const failed = (err: unknown) => this.deps.log.error({ err }, 'chat fan-out failed (new_message / get_counters)');
    const sent = batch.filter((j): j is MessageJob => j.kind === 'message');
    const counted = batch.filter((j): j is CountersJob => j.kind === 'counters');
    const announced = [...new Set(sent.map((j) => j.chatId))];
    let rows: FanoutRow[];
    try {
      rows = await this.prepared.fanout.execute({ chats: [...new Set([...announced, ...counted.map((j) => j.chatId)])] });
    } catch (err) {
      failed(err);
      for (const job of counted) job.settle(err);
      return;
    }
    const byChat = new Map<string, FanoutRow[]>();
    for (const r of rows) {
      const list = byChat.get(r.chat.id);
      if (list) list.push(r);
      else byChat.set(r.chat.id, [r]);
    }

    if (sent.length) await this.announceMessages(sent, rows, byChat, failed).catch(failed);
    const written = sent.filter((j) => j.row.kind === 'text');
    if (written.length && this.deps.onSent) {
      const told = written.map((j) => ({
        chatId: j.chatId,
        recipientIds: (byChat.get(j.chatId) ?? []).map((r) => r.member.id).filter((id) => id !== j.row.senderId),
      }));
      // A reminder is a nicety: its failure fails no event and no message, both already out.
      await this.deps.onSent(told).catch((err: unknown) => this.deps.log.warn({ err }, 'unread letters not scheduled'));
    }

    for (const job of counted) {
      try {
        const r = byChat.get(job.chatId)?.find((m) => m.member.id === job.userId);
        if (r) await this.emitCounters(job.userId, job.chatId, r.total, r.unseen, r.chat.kind === 'dispute' ? r.chat.disputeId : null);
        // Not a member (any more): their counts as the API gives them.
        else await this.emitCounters(job.userId, job.chatId, await this.unseenTotal(job.userId), (await this.unseenPerChat(job.userId, [job.chatId])).get(job.chatId) ?? 0);
        job.settle();
      } catch (err) {
        failed(err);
        job.settle(err);
      }
    }
  }

  /** The new_message and get_counters events of a batch's messages, from the fan-out query's rows. */
  private async announceMessages(sent: MessageJob[], rows: FanoutRow[], byChat: Map<string, FanoutRow[]>, failed: (err: unknown) => void) {
    const announced = new Set(sent.map((j) => j.chatId));
    const inChats = rows.filter((r) => announced.has(r.chat.id));
    // Online status is a nicety: a presence hiccup (Redis away) shows people offline rather than failing the event.
    const online = await this.deps.realtime.onlineAmong([...new Set(inChats.map((r) => r.member.id))]).catch((err: unknown) => {
      this.deps.log.warn({ err }, 'presence unavailable');
      return new Set<string>();
    });
    const orderIds = [...new Set(inChats.flatMap((r) => (r.chat.kind === 'order' && r.chat.orderId ? [r.chat.orderId] : [])))];
    const orders: Map<string, OrderView> = orderIds.length && this.deps.describeOrders ? await this.deps.describeOrders(orderIds) : new Map();
    // Last messages: usually one of this batch's; any other (a member who deleted the chat meanwhile, a message
    // committed after this batch's) is read and presented.
    const last = new Map(sent.map((j) => [j.row.id, j.message]));
    const missing = [...new Set(inChats.flatMap((r) => (r.lastId && !last.has(r.lastId) ? [r.lastId] : [])))];
    if (missing.length) {
      const found = await this.db.select().from(messages).where(inArray(messages.id, missing));
      for (const m of await this.presentMessages(found)) last.set(m._id, m);
    }
    for (const job of sent) {
      try {
        const members = byChat.get(job.chatId) ?? [];
        const people = members.map((r) => r.member);
        for (const r of members) {
          const view = presentChat(r.chat, {
            members: people,
            online,
            unseen: r.unseen,
            lastMessage: r.lastId ? (last.get(r.lastId) ?? null) : null,
            order: r.chat.orderId ? orders.get(r.chat.orderId)?.(r.member.id) : undefined,
          });
          this.deps.realtime.emitToUsers([r.member.id], SOCKET_EVENTS.newMessage, { chat: view, newMessage: job.message });
          if (r.member.id !== job.row.senderId) await this.emitCounters(r.member.id, r.chat.id, r.total, r.unseen, r.chat.kind === 'dispute' ? r.chat.disputeId : null);
        }
      } catch (err) {
        failed(err);
      }
    }
  }

  private async emitCounters(userId: string, chatId: string, total: number, inChat: number, disputeId?: string | null): Promise<void> {
    const payload: CountersEvent = { totalUnseen: { [userId]: total }, chatTotalUnseen: { [userId]: inChat }, chat_id: chatId };
    // A dispute's chat: its count is the dispute's unseen count (SPEC §4), and the person's disputes' total changed.
    if (disputeId) {
      payload.dispute_id = disputeId;
      // A nicety: without it the event still goes (the menu's count catches up with the next one).
      const disputes = await this.unseenInDisputes(userId).catch((err: unknown) => {
        this.deps.log.warn({ err }, 'unseen count of disputes unavailable');
        return null;
      });
      if (disputes !== null) payload.disputesUnseen = { [userId]: disputes };
    }
    this.deps.realtime.emitToUsers([userId], SOCKET_EVENTS.counters, payload);
  }

  /**
   * PUT /api/messages/{id} { seen: true }: marks this message and every earlier unseen one from others in the
   * chat as seen by the caller; each sender hears update_message for each of theirs, the caller get_counters.
   */
  async markSeen(user: UserRow, messageId: string): Promise<Message> {
    const [found] = await this.db
      .select({ message: messages, member: chatMembers.userId, visible: sql<boolean>`${visible}` })
      .from(messages)
      .leftJoin(chatMembers, memberJoin(user.id))
      .where(eq(messages.id, messageId))
      .limit(1);
    if (!found) throw notFound(CHAT_MESSAGES.messageNotFound);
    if (!found.member) throw forbidden(CHAT_MESSAGES.notMember);
    if (!found.visible) throw notFound(CHAT_MESSAGES.messageNotFound);
    if (found.message.senderId === user.id) throw forbidden(CHAT_MESSAGES.ownMessage);
    const chatId = found.message.chatId;

    await this.deps.realtime.afterCommit(async (outbox) => {
      const target = sql`(select ${messages.createdAt} from ${messages} where ${messages.id} = ${messageId})`;
      const cleared = sql`(select ${chatMembers.clearedAt} from ${chatMembers} where ${chatMembers.chatId} = ${chatId} and ${chatMembers.userId} = ${user.id})`;
      const updated = await this.db
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
    await this.sendCounters(user.id, chatId);
    const [row] = await this.db.select().from(messages).where(eq(messages.id, messageId));
    return (await this.presentMessages([row!]))[0]!;
  }
}
