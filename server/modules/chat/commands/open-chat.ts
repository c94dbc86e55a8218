import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { chatMembers, chats } from '../schema.ts';
import type { ChatRow } from '../presenter.ts';
import { directKey } from '../query-parts.ts';

// Opening chats: an order's or a dispute's (for those modules), and the direct chat of two people (a first message).

/**
 * Opens a chat of an order or a dispute (for those features), or returns the one the order already has.
 * Pass the caller's transaction to open it together with the order or dispute.
 */
export async function openChat(
  tx: Db,
  input: {
    kind: 'order' | 'dispute';
    memberIds: string[];
    orderId?: string;
    disputeId?: string;
    serviceId?: string | null;
  },
): Promise<ChatRow> {
  const [chat] = await tx
    .insert(chats)
    .values({
      kind: input.kind,
      orderId: input.orderId ?? null,
      disputeId: input.disputeId ?? null,
      serviceId: input.serviceId ?? null,
    })
    .returning();
  const memberIds = [...new Set(input.memberIds)];
  if (memberIds.length)
    await tx
      .insert(chatMembers)
      .values(memberIds.map((userId) => ({ chatId: chat!.id, userId })))
      .onConflictDoNothing();
  return chat!;
}

/** The direct chat of two people, opened if they have none (one per pair, even when two first messages race). */
export async function openDirect(tx: Db, a: string, b: string, serviceId: string | null): Promise<ChatRow> {
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
