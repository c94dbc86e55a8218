import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { chatMembers, chats, messages, type ChatKind } from '../../db/schema/chat.ts';
import { services } from '../../db/schema/catalog.ts';
import { files } from '../../db/schema/files.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/http.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { parseFilePath, type FileRow } from '../files/service.ts';
import { maskContacts } from './contacts.ts';
import { presentChat, presentMessage, type ChatRow, type MessageRow } from './presenter.ts';
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
// Who may do what: only members read or write a chat. An unknown chat or message is a 404; an existing chat
// of which the caller is not a member is a 403 (the id of a chat is no secret worth a lie, and the client can
// tell "gone" from "not yours"). Admins are members like anyone else where they are members (dispute chats);
// they read any other chat only through the admin API (adminMessages).
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
  /** What an order chat shows about its order (the orders feature); by default its id only. */
  describeOrders?: (orderIds: string[]) => Promise<Map<string, Record<string, unknown> & { _id: string }>>;
}

export interface Paged<T> {
  result: T[];
  total: number;
}

/** Messages a member sees: those after the moment they last deleted the chat. Needs chat_members joined. */
const visible = or(isNull(chatMembers.clearedAt), gt(messages.createdAt, chatMembers.clearedAt))!;

/** The membership of `userId` joined to messages of the same chat. */
const memberJoin = (userId: string) => and(eq(chatMembers.chatId, messages.chatId), eq(chatMembers.userId, userId))!;

/** Unseen by `userId`: from others, not seen, not hidden by a deletion. */
const unseenBy = (userId: string) => and(ne(messages.senderId, userId), eq(messages.seen, false), visible)!;

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

export class ChatService {
  private readonly perWindow: number;
  private readonly windowMs: number;

  constructor(private readonly deps: ChatDeps) {
    this.perWindow = deps.limits?.messagesPerWindow ?? MESSAGES_PER_WINDOW;
    this.windowMs = deps.limits?.windowMs ?? MESSAGES_WINDOW_MS;
  }

  private get db() {
    return this.deps.db;
  }

  // -------------------------------------------------------------------------------------------------------
  // Access
  // -------------------------------------------------------------------------------------------------------

  /** The chat, if `userId` is a member: 404 when there is no such chat, 403 when it is someone else's. */
  private async access(userId: string, chatId: string): Promise<ChatRow> {
    const [row] = await this.db
      .select({ chat: chats, member: chatMembers.userId })
      .from(chats)
      .leftJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, userId)))
      .where(eq(chats.id, chatId))
      .limit(1);
    if (!row) throw notFound(CHAT_MESSAGES.chatNotFound);
    if (!row.member) throw forbidden(CHAT_MESSAGES.notMember);
    return row.chat;
  }

  // -------------------------------------------------------------------------------------------------------
  // Presentation helpers
  // -------------------------------------------------------------------------------------------------------

  /** Members of the chats with their user rows, in the order they joined. */
  private async membersOf(chatIds: string[]): Promise<Map<string, UserRow[]>> {
    const byChat = new Map<string, UserRow[]>(chatIds.map((id) => [id, []]));
    if (chatIds.length === 0) return byChat;
    const rows = await this.db
      .select({ chatId: chatMembers.chatId, user: users })
      .from(chatMembers)
      .innerJoin(users, eq(users.id, chatMembers.userId))
      .where(inArray(chatMembers.chatId, chatIds))
      .orderBy(asc(chatMembers.joinedAt), asc(chatMembers.userId));
    for (const r of rows) byChat.get(r.chatId)?.push(r.user);
    return byChat;
  }

  private async filesOf(rows: MessageRow[]): Promise<Map<string, FileRow>> {
    const keys = [...new Set(rows.flatMap((r) => r.files.map(parseFilePath).filter((k): k is string => k !== null)))];
    if (keys.length === 0) return new Map();
    const found = await this.db.select().from(files).where(inArray(files.path, keys));
    return new Map(found.map((f) => [f.path, f]));
  }

  /** Presents messages; `membersByChat` may already hold the members of their chats. */
  private async presentMessages(rows: MessageRow[], membersByChat?: Map<string, UserRow[]>): Promise<Message[]> {
    if (rows.length === 0) return [];
    const chatIds = [...new Set(rows.map((r) => r.chatId))];
    const members = membersByChat && chatIds.every((id) => membersByChat.has(id)) ? membersByChat : await this.membersOf(chatIds);
    const usersById = new Map<string, UserRow>();
    for (const list of members.values()) for (const u of list) usersById.set(u.id, u);
    const missing = [...new Set(rows.map((r) => r.senderId))].filter((id) => !usersById.has(id));
    if (missing.length) for (const u of await this.db.select().from(users).where(inArray(users.id, missing))) usersById.set(u.id, u);
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
    const orders = orderIds.length && this.deps.describeOrders ? await this.deps.describeOrders(orderIds) : new Map();
    return rows.map((chat) =>
      presentChat(chat, {
        members: members.get(chat.id) ?? [],
        online,
        unseen: unseen.get(chat.id) ?? 0,
        lastMessage: last.get(chat.id) ?? null,
        order: chat.orderId ? orders.get(chat.orderId) : undefined,
      }),
    );
  }

  /** One chat as a member sees it (for other features: disputes embed their chat). */
  async chatFor(userId: string, chatId: string): Promise<Chat> {
    const chat = await this.access(userId, chatId);
    return (await this.chatsFor(userId, [chat]))[0]!;
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
    const chat = await this.access(user.id, chatId);
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
    await this.access(user.id, chatId);
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
    await this.access(user.id, chatId);
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

  /** GET /api/messages/{chatId}/unseen/count. */
  async unseenInChat(user: UserRow, chatId: string): Promise<number> {
    await this.access(user.id, chatId);
    return (await this.unseenPerChat(user.id, [chatId])).get(chatId) ?? 0;
  }

  /**
   * POST /api/messages/. Into `chat_id`, else into the direct chat with `recipient` (opened on the first message).
   * In direct chats (no order yet) contacts are masked. Stored, the chat moved up and revived for members who had
   * deleted it, in one transaction; the members are told after the commit.
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

    let existing: ChatRow | null = null;
    let recipient: UserRow | null = null;
    if (input.chat_id) {
      existing = await this.access(user.id, input.chat_id);
    } else {
      if (!input.recipient) throw badRequest(CHAT_MESSAGES.noRecipient, { recipient: [CHAT_MESSAGES.noRecipient] });
      if (input.recipient === user.id) throw badRequest(CHAT_MESSAGES.notYourself, { recipient: [CHAT_MESSAGES.notYourself] });
      [recipient = null] = await this.db.select().from(users).where(eq(users.id, input.recipient)).limit(1);
      if (!recipient) throw notFound(CHAT_MESSAGES.recipientNotFound);
      if (recipient.blockedAt) throw forbidden(CHAT_MESSAGES.recipientBlocked);
    }

    const { chat, row } = await this.db.transaction(async (tx) => {
      const chat = existing ?? (await this.openDirect(tx as unknown as Db, user.id, recipient!.id, serviceId));
      // Before an order exists (direct chats) contacts are masked; the administration writes as it must.
      const masking = chat.kind === 'direct' && !user.roles.includes('admin');
      const { text: stored, masked } = masking ? maskContacts(text) : { text, masked: false };
      const [row] = await tx
        .insert(messages)
        .values({ chatId: chat.id, senderId: user.id, message: stored, files: attachments, serviceId, masked })
        .returning();
      await tx
        .update(chats)
        // now(): the message's created_at, at full precision; never backwards when transactions overlap.
        .set({ lastMessageAt: sql`greatest(${chats.lastMessageAt}, now())` })
        .where(eq(chats.id, chat.id));
      await tx.update(chatMembers).set({ deletedAt: null }).where(and(eq(chatMembers.chatId, chat.id), isNotNull(chatMembers.deletedAt)));
      return { chat, row: row! };
    });

    const [message] = await this.presentMessages([row]);
    await this.announceMessage(chat.id, row, message!).catch((err) => this.deps.log.error({ err }, 'new_message fan-out failed'));
    return row.masked ? { ...message!, notice: CHAT_MESSAGES.contactsMasked } : message!;
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

  /** new_message to every member (the chat as each sees it), get_counters to each recipient. */
  private async announceMessage(chatId: string, row: MessageRow, message: Message): Promise<void> {
    const [chat] = await this.db.select().from(chats).where(eq(chats.id, chatId)).limit(1);
    if (!chat) return;
    const members = [...((await this.membersOf([chatId])).get(chatId) ?? [])];
    for (const member of members) {
      const [view] = await this.chatsFor(member.id, [chat]);
      this.deps.realtime.emitToUsers([member.id], SOCKET_EVENTS.newMessage, { chat: view, newMessage: message });
      if (member.id !== row.senderId) await this.sendCounters(member.id, chatId, view!.unseen_messages);
    }
  }

  /** get_counters to one person: their unseen messages everywhere and in this chat. */
  private async sendCounters(userId: string, chatId: string, inChat?: number): Promise<void> {
    const total = await this.unseenTotal(userId);
    const chatUnseen = inChat ?? (await this.unseenPerChat(userId, [chatId])).get(chatId) ?? 0;
    const payload: CountersEvent = { totalUnseen: { [userId]: total }, chatTotalUnseen: { [userId]: chatUnseen }, chat_id: chatId };
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
