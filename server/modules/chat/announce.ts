import { inArray } from 'drizzle-orm';
import { messages } from './schema.ts';
import { SOCKET_EVENTS, type CountersEvent } from '#contract/chat';
import type { ChatEnv, CountersJob, FanoutJob, MessageJob, OrderView } from './context.ts';
import { presentChat } from './presenter.ts';
import { presentMessages } from './queries/present-messages.ts';
import { unseenInDisputes, unseenPerChat, unseenTotal } from './queries/unseen.ts';
import { messageById, type FanoutRow } from './statements.ts';

// Telling the members (SPEC §7 socket events): new_message with the chat as each member sees it, and get_counters.
// Everything goes through the service's fan-out queue (env.fanout), after the transaction that caused it committed.

/** get_counters to one person: their unseen messages everywhere and in this chat; resolves once it has left. */
export function sendCounters(env: ChatEnv, userId: string, chatId: string): Promise<void> {
  return new Promise((resolve, reject) =>
    env.fanout.push({ kind: 'counters', userId, chatId, settle: (err) => (err ? reject(err) : resolve()) }),
  );
}

/** The fan-out of a message stored by postInTx (its job's handler); resolves once its events have left. */
export async function announceStored(env: ChatEnv, messageId: string): Promise<void> {
  const [row] = await messageById(env.db).execute({ id: messageId });
  if (!row) return;
  const [message] = await presentMessages(env, [row]);
  env.fanout.push({ kind: 'message', chatId: row.chatId, row, message: message! });
  await env.fanout.idle();
}

/**
 * Sends a batch of the fan-out queue: for each new message, new_message to every member (the chat as each sees
 * it) and get_counters to each recipient; for each counters job, get_counters to that person. One query gets
 * every member of those chats with their counts and last visible message, as they are now (after the commits).
 * Failures are logged, and reported to whoever waits for their counters; one job's failure spares the others.
 */
export async function fanOut(env: ChatEnv, batch: FanoutJob[]): Promise<void> {
  const { deps } = env;
  const failed = (err: unknown) => deps.log.error({ err }, 'chat fan-out failed (new_message / get_counters)');
  const sent = batch.filter((j): j is MessageJob => j.kind === 'message');
  const counted = batch.filter((j): j is CountersJob => j.kind === 'counters');
  const announced = [...new Set(sent.map((j) => j.chatId))];
  let rows: FanoutRow[];
  try {
    rows = await env.statements.fanout.execute({
      chats: [...new Set([...announced, ...counted.map((j) => j.chatId)])],
    });
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

  if (sent.length) await announceMessages(env, sent, rows, byChat, failed).catch(failed);
  const written = sent.filter((j) => j.row.kind === 'text');
  if (written.length && deps.onSent) {
    const told = written.map((j) => ({
      chatId: j.chatId,
      recipientIds: (byChat.get(j.chatId) ?? []).map((r) => r.member.id).filter((id) => id !== j.row.senderId),
    }));
    // A reminder is a nicety: its failure fails no event and no message, both already out.
    await deps.onSent(told).catch((err: unknown) => deps.log.warn({ err }, 'unread letters not scheduled'));
  }

  for (const job of counted) {
    try {
      const r = byChat.get(job.chatId)?.find((m) => m.member.id === job.userId);
      if (r) {
        await emitCountersOf(env, r);
      } else {
        // Not a member (any more): their counts as the API gives them.
        const total = await unseenTotal(env, job.userId);
        const inChat = (await unseenPerChat(env, job.userId, [job.chatId])).get(job.chatId) ?? 0;
        await emitCounters(env, job.userId, job.chatId, total, inChat);
      }
      job.settle();
    } catch (err) {
      failed(err);
      job.settle(err);
    }
  }
}

/** The new_message and get_counters events of a batch's messages, from the fan-out query's rows. */
async function announceMessages(
  env: ChatEnv,
  sent: MessageJob[],
  rows: FanoutRow[],
  byChat: Map<string, FanoutRow[]>,
  failed: (err: unknown) => void,
) {
  const { deps } = env;
  const announced = new Set(sent.map((j) => j.chatId));
  const inChats = rows.filter((r) => announced.has(r.chat.id));
  // Online status is a nicety: a presence hiccup (Redis away) shows people offline rather than failing the event.
  const online = await deps.realtime
    .onlineAmong([...new Set(inChats.map((r) => r.member.id))])
    .catch((err: unknown) => {
      deps.log.warn({ err }, 'presence unavailable');
      return new Set<string>();
    });
  const orderIds = [
    ...new Set(inChats.flatMap((r) => (r.chat.kind === 'order' && r.chat.orderId ? [r.chat.orderId] : []))),
  ];
  const orders: Map<string, OrderView> =
    orderIds.length && deps.describeOrders ? await deps.describeOrders(orderIds) : new Map();
  // Last messages: usually one of this batch's; any other (a member who deleted the chat meanwhile, a message
  // committed after this batch's) is read and presented.
  const last = new Map(sent.map((j) => [j.row.id, j.message]));
  const missing = [...new Set(inChats.flatMap((r) => (r.lastId && !last.has(r.lastId) ? [r.lastId] : [])))];
  if (missing.length) {
    const found = await env.db.select().from(messages).where(inArray(messages.id, missing));
    for (const m of await presentMessages(env, found)) last.set(m._id, m);
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
        deps.realtime.emitToUsers([r.member.id], SOCKET_EVENTS.newMessage, { chat: view, newMessage: job.message });
        if (r.member.id !== job.row.senderId) await emitCountersOf(env, r);
      }
    } catch (err) {
      failed(err);
    }
  }
}

/** get_counters to the member of a fan-out row, with the counts the statement found. */
function emitCountersOf(env: ChatEnv, r: FanoutRow): Promise<void> {
  return emitCounters(
    env,
    r.member.id,
    r.chat.id,
    r.total,
    r.unseen,
    r.chat.kind === 'dispute' ? r.chat.disputeId : null,
  );
}

async function emitCounters(
  env: ChatEnv,
  userId: string,
  chatId: string,
  total: number,
  inChat: number,
  disputeId?: string | null,
): Promise<void> {
  const payload: CountersEvent = {
    totalUnseen: { [userId]: total },
    chatTotalUnseen: { [userId]: inChat },
    chat_id: chatId,
  };
  // A dispute's chat: its count is the dispute's unseen count (SPEC §4), and the person's disputes' total changed.
  if (disputeId) {
    payload.dispute_id = disputeId;
    // A nicety: without it the event still goes (the menu's count catches up with the next one).
    const disputes = await unseenInDisputes(env, userId).catch((err: unknown) => {
      env.deps.log.warn({ err }, 'unseen count of disputes unavailable');
      return null;
    });
    if (disputes !== null) payload.disputesUnseen = { [userId]: disputes };
  }
  env.deps.realtime.emitToUsers([userId], SOCKET_EVENTS.counters, payload);
}
