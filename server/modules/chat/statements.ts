import { and, asc, eq, getTableColumns, gt, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/prepared.ts';
import { chatMembers, chats, messages } from './schema.ts';
import { people } from '../users/index.ts';
import type { ChatPerson, ChatRow } from './presenter.ts';
import { chatPeople, count, isDirect, memberIdsOf, movedUp, notSeen, person, unseenBy, visible } from './query-parts.ts';

const p = sql.placeholder;

/** The person a direct message goes to (the users module's read model). */
const recipient = people('recipient');

/**
 * Stores a message in chat `chatId` and, in the same statement (so in the same transaction), moves the chat up and
 * brings it back for the members who had deleted it: a member's message, or a system one written inside another
 * module's transaction (postInTx).
 */
function insertMessageQuery(db: Db) {
  const moved = db.$with('moved').as(
    db
      .update(chats)
      .set({ lastMessageAt: movedUp })
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
    .values({
      chatId: p('chatId'),
      senderId: p('senderId'),
      message: p('message'),
      files: p('files'),
      serviceId: p('serviceId'),
      masked: p('masked'),
      kind: p('kind'),
    })
    .returning();
}

/** insertMessageQuery built once, on the database or in a transaction (server/db/prepared.ts). */
export const insertMessage = statement((db) => insertMessageQuery(db).prepare('chat_insert_message'));

/** A stored message, read again for its fan-out (announceStored). */
export const messageById = statement((db) => db.select().from(messages).where(eq(messages.id, p('id'))).limit(1).prepare('chat_message_by_id'));

/**
 * The usual message in one statement: into the chat `target` picks (none when the sender may not write there, or it
 * does not exist yet), masked if it is a direct chat, with the chat moved up and revived as insertMessageQuery does.
 * Returns the stored row and the chat's member ids, or nothing (then sendMessage takes the long way, where chatPolicy
 * and recipientPolicy tell what is wrong): the conditions here are those policies' rules, in SQL.
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
              sql`exists (select 1 from ${recipient} where ${recipient.id} = ${p('recipient')} and ${recipient.blockedAt} is null)`,
              members(sql`${p('senderId')}::uuid`, sql`${p('recipient')}::uuid`),
            ),
      )
      .limit(1),
  );
  const moved = db.$with('moved').as(
    db
      .update(chats)
      .set({ lastMessageAt: movedUp })
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
      unseen: sql<number>`(${db
        .select({ n: count })
        .from(messages)
        .where(and(eq(messages.chatId, chatMembers.chatId), unseenBy(chatMembers.userId)))})`,
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
    .innerJoin(chatPeople, eq(chatPeople.id, chatMembers.userId))
    .innerJoin(chats, eq(chats.id, chatMembers.chatId))
    .where(sql`${chatMembers.chatId} = any(${p('chats')}::uuid[])`)
    .orderBy(asc(chatMembers.joinedAt), asc(chatMembers.userId));
}

/**
 * The queries of sending a message and of its fan-out, built once per service: drizzle takes about as much CPU to
 * build each of them (0.2–1 ms) as PostgreSQL takes to run it. On PostgreSQL each is also prepared once per
 * connection (named statements), which spares the parsing and planning.
 */
export function prepareStatements(db: Db) {
  return {
    /** The recipient, and the direct chat the two already have (with its members), if any. */
    direct: db
      .select({
        recipient: { id: recipient.id, blockedAt: recipient.blockedAt },
        chat: chats,
        memberIds: memberIdsOf(chats.id),
      })
      .from(recipient)
      .leftJoin(chats, and(isDirect, eq(chats.directKey, p('key'))))
      .where(eq(recipient.id, p('recipient')))
      .limit(1)
      .prepare('chat_send_direct'),
    /** As chatToTakePart(), with the chat's member ids. */
    access: db
      .select({ chat: chats, member: chatMembers.userId, memberIds: memberIdsOf(chats.id) })
      .from(chats)
      .leftJoin(chatMembers, and(eq(chatMembers.chatId, chats.id), eq(chatMembers.userId, p('userId'))))
      .where(eq(chats.id, p('chatId')))
      .limit(1)
      .prepare('chat_send_access'),
    sendDirect: sendQuery(db, 'direct').prepare('chat_send_fast_direct'),
    sendToChat: sendQuery(db, 'chat').prepare('chat_send_fast_chat'),
    fanout: fanoutQuery(db).prepare('chat_fanout'),
  };
}

export type ChatStatements = ReturnType<typeof prepareStatements>;

/** A row of the fan-out statement: one member of one of the chats. */
export interface FanoutRow {
  chat: ChatRow;
  member: ChatPerson;
  unseen: number;
  total: number;
  lastId: string | null;
}
