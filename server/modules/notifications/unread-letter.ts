import { and, eq } from 'drizzle-orm';
import { chatUnreadLetters } from './schema.ts';
import { accountById } from '../users/index.ts';
import { senderName } from '../../lib/text.ts';
import { systemActor } from '../../platform/actor.ts';
import type { JobContext } from '../../platform/dispatcher.ts';
import { wantsEmail } from '../../platform/letters/index.ts';
import { unseenForLetter } from '../chat/index.ts';
import type { NotificationDeps } from './context.ts';

// The letter about chat messages left unread by a member who is offline (ADR 030).

/** The job that decides, a while after a message, whether its recipient gets a letter about it. */
export const UNREAD_LETTER_JOB = 'notifications.unreadLetter';

/** How much of each unseen message the letter quotes, and how many. */
const QUOTED_LINES = 3;
const QUOTED_CHARS = 200;

const unreadKey = (chatId: string, userId: string) => `${UNREAD_LETTER_JOB}:${chatId}:${userId}`;

/**
 * After messages were sent (the chat's fan-out, a batch at a time): for each recipient, a job a few minutes later
 * that sends them a letter if they are still offline and the message still unseen. One pending job per chat and
 * recipient (its dedupe key), so a burst of messages makes one letter.
 */
export async function scheduleUnreadLetters(
  deps: NotificationDeps,
  sent: { chatId: string; recipientIds: string[] }[],
): Promise<void> {
  const pairs = new Map(
    sent.flatMap(({ chatId, recipientIds }) =>
      recipientIds.map((userId) => [unreadKey(chatId, userId), { chatId, userId }] as const),
    ),
  );
  if (pairs.size === 0) return;
  const delay = await deps.settings.get('notifications.unreadLetterDelayMinutes');
  await deps.platform.withTx(systemActor('chat.unread'), async ({ outbox }) => {
    for (const [key, payload] of pairs)
      outbox.job(UNREAD_LETTER_JOB, payload, { delayMs: delay * 60_000, dedupeKey: key });
  });
}

/** UNREAD_LETTER_JOB: the letter, if the recipient still wants it, is offline and has unseen messages in the chat. */
export async function sendUnreadLetter(
  deps: NotificationDeps,
  { chatId, userId }: { chatId: string; userId: string },
  job: JobContext,
): Promise<void> {
  const { db } = deps;
  const recipient = await accountById(db, userId);
  if (!recipient || recipient.blockedAt || !wantsEmail(recipient, 'messages')) return;
  // Online, they see the chat's counters: no letter.
  const online = await deps.realtime.onlineAmong([userId]);
  if (online.has(userId)) return;

  const unseen = await unseenForLetter(db, chatId, userId, QUOTED_LINES);
  if (!unseen || unseen.count === 0) return;
  const interval = (await deps.settings.get('notifications.unreadLetterIntervalMinutes')) * 60_000;

  await job.withTx(async ({ tx, outbox, clock }) => {
    const now = clock.now();
    const [last] = await tx
      .select()
      .from(chatUnreadLetters)
      .where(and(eq(chatUnreadLetters.chatId, chatId), eq(chatUnreadLetters.userId, userId)))
      .for('update');
    if (last && now.getTime() - last.sentAt.getTime() < interval) {
      // A letter about this chat went out less than the interval ago: ask again when it has passed.
      outbox.job(
        UNREAD_LETTER_JOB,
        { chatId, userId },
        { at: new Date(last.sentAt.getTime() + interval), dedupeKey: unreadKey(chatId, userId) },
      );
      return;
    }
    await tx
      .insert(chatUnreadLetters)
      .values({ chatId, userId, sentAt: now })
      .onConflictDoUpdate({ target: [chatUnreadLetters.chatId, chatUnreadLetters.userId], set: { sentAt: now } });
    deps.letters.notify(outbox, recipient, 'chat.unread', {
      from: senderName(unseen.first[0]!),
      lines: unseen.first.map((m) => quote(m.message)).filter(Boolean),
      count: unseen.count,
      chatId,
      orderChat: unseen.kind === 'order',
      disputeId: unseen.kind === 'dispute' ? unseen.disputeId : null,
    });
  });
}

/** The first line of a message, shortened; an attachment-only message reads as such. */
function quote(message: string): string {
  const line = message.trim().split('\n', 1)[0]!.trim();
  if (!line) return '📎 Вложение';
  return line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS - 1)}…` : line;
}
