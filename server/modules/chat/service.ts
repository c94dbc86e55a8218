import type { Db } from '../../db/client.ts';
import type { ChatKind, MessageKind } from './schema.ts';
import type { UserRow } from '../users/index.ts';
import { systemClock } from '../../platform/clock.ts';
import { createWithTx, type TxContext } from '../../platform/tx.ts';
import type { Chat, ChatListQuery, Message, MessagesQuery, SendMessage, SentMessage } from '#contract/chat';
import { announceStored, fanOut } from './announce.ts';
import { ownFiles } from './attachments.ts';
import { deleteChat } from './commands/delete-chat.ts';
import { markSeen } from './commands/mark-seen.ts';
import { openChat } from './commands/open-chat.ts';
import { postInTx } from './commands/post-in-tx.ts';
import { sendMessage } from './commands/send-message.ts';
import { type ChatDeps, type ChatEnv, type FanoutJob, type Paged } from './context.ts';
import { SerialBatcher } from './fanout.ts';
import type { ChatRow, MessageRow } from './presenter.ts';
import { chatFor, chatsFor, listChats } from './queries/chat-list.ts';
import { adminMessages, lastMessage, messagesPage } from './queries/messages.ts';
import { unseenInChat, unseenInDisputes, unseenPerChat, unseenTotal } from './queries/unseen.ts';
import { prepareStatements, type ChatStatements } from './statements.ts';

// Chats and messages (SPEC §3, §4, §7; PRODUCT.md "Notifications and messages"): the module's face for its routes,
// app.ts and other modules. Each command lives in commands/, each group of reads in queries/; this class only holds
// what they share (ChatEnv) and hands it to them.
//
// Who may do what: the endpoint's guard, then policy.ts. Admins are members like anyone else where they are members
// (dispute chats); they read any other chat only through the admin API (adminMessages).
//
// Deleting a chat hides it and its history up to that moment for the deleting member only (chat_members.
// deleted_at / cleared_at); a new message brings the chat back, with only the messages after the deletion.
// See docs/decisions/003-chat-deletion.md.
//
// Socket events leave only after the transaction that caused them has committed.

export class ChatService {
  private readonly env: ChatEnv;

  constructor(deps: ChatDeps) {
    let statements: ChatStatements | undefined;
    const env: ChatEnv = {
      deps,
      db: deps.db,
      withTx: deps.platform?.withTx ?? createWithTx({ db: deps.db, clock: systemClock }),
      get statements() {
        return (statements ??= prepareStatements(deps.db));
      },
      fanout: new SerialBatcher<FanoutJob>(
        (batch) => fanOut(env, batch),
        (err) => deps.log.error({ err }, 'chat fan-out failed'),
      ),
    };
    this.env = env;
  }

  // Queries

  /** GET /api/chat/my (direct chats) and /api/chat/my_by_order (order chats): the latest conversation first. */
  listChats(user: UserRow, kind: Extract<ChatKind, 'direct' | 'order'>, query: ChatListQuery): Promise<Paged<Chat>> {
    return listChats(this.env, user, kind, query);
  }

  /** The chats as `userId` sees them: members with online status, their unseen count, their last message. */
  chatsFor(userId: string, rows: ChatRow[]): Promise<Chat[]> {
    return chatsFor(this.env, userId, rows);
  }

  /** One chat as a member sees it (for other features: disputes embed their chat). */
  chatFor(user: UserRow, chatId: string): Promise<Chat> {
    return chatFor(this.env, user, chatId);
  }

  /** GET /api/messages/chat/{id}: a page of the messages this member sees, newest first. */
  messages(user: UserRow, chatId: string, query: MessagesQuery): Promise<Paged<Message>> {
    return messagesPage(this.env, user, chatId, query);
  }

  /** GET /api/admin/chats/{id}/messages: every message of any chat, newest first (the admin area). */
  adminMessages(chatId: string, query: MessagesQuery): Promise<Paged<Message>> {
    return adminMessages(this.env, chatId, query);
  }

  /** GET /api/messages/last_message/{chatId}: the newest message this member sees, or null. */
  lastMessage(user: UserRow, chatId: string): Promise<Message | null> {
    return lastMessage(this.env, user, chatId);
  }

  /** GET /api/messages/unseen/count: unseen messages from others across the chats this person has not deleted. */
  unseenTotal(userId: string): Promise<number> {
    return unseenTotal(this.env, userId);
  }

  /** Of unseenTotal, the unseen messages in the chats of this person's disputes (they are listed under «Споры»). */
  unseenInDisputes(userId: string): Promise<number> {
    return unseenInDisputes(this.env, userId);
  }

  /** GET /api/messages/{chatId}/unseen/count. */
  unseenInChat(user: UserRow, chatId: string): Promise<number> {
    return unseenInChat(this.env, user, chatId);
  }

  /** Unseen messages of `userId` in these chats (disputes' admin queue). */
  unseenIn(userId: string, chatIds: string[]): Promise<Map<string, number>> {
    return unseenPerChat(this.env, userId, chatIds);
  }

  // Commands

  /** POST /api/messages/: a message into a chat, or into the direct chat with a recipient (see sendMessage). */
  send(user: UserRow, input: SendMessage): Promise<SentMessage> {
    return sendMessage(this.env, user, input);
  }

  /** PUT /api/messages/{id} { seen: true }: this message and every earlier one from others, seen by the caller. */
  markSeen(user: UserRow, messageId: string): Promise<Message> {
    return markSeen(this.env, user, messageId);
  }

  /** DELETE /api/chat/{id}: hides a direct chat and its history so far for this member only. */
  deleteChat(user: UserRow, chatId: string): Promise<void> {
    return deleteChat(this.env, user, chatId);
  }

  /**
   * Opens a chat of an order or a dispute (for those features), or returns the one the order already has.
   * Pass the caller's transaction to open it together with the order or dispute.
   */
  openChat(
    input: {
      kind: 'order' | 'dispute';
      memberIds: string[];
      orderId?: string;
      disputeId?: string;
      serviceId?: string | null;
    },
    tx: Db = this.env.db,
  ): Promise<ChatRow> {
    return openChat(tx, input);
  }

  /** A message the platform writes inside another module's transaction, announced after its commit (see postInTx). */
  postInTx(
    ctx: Pick<TxContext, 'tx' | 'outbox'>,
    input: { chatId: string; senderId: string; kind: MessageKind; message: string; files?: string[] },
  ): Promise<MessageRow> {
    return postInTx(ctx, input);
  }

  /** The fan-out of a message stored by postInTx (its job's handler); resolves once its events have left. */
  announce(messageId: string): Promise<void> {
    return announceStored(this.env, messageId);
  }

  /** The attachments as stored urls, each one uploaded by `userId` (403 otherwise): chat.send's rule, for others. */
  ownFilesOf(userId: string, urls: string[]): Promise<string[]> {
    return ownFiles(this.env.db, userId, urls);
  }

  /** Resolves once every event queued so far has been sent (tests, shutdown). */
  idle(): Promise<void> {
    return this.env.fanout.idle();
  }
}
