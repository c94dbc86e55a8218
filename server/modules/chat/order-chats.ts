import { and, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chats } from './schema.ts';
import { openChat } from './commands/open-chat.ts';

// An order's workspace chat, for the orders module: found by its order (a lookup, or a subquery of the caller's
// query) and opened once with both parties as members, in the order's transaction. Its system messages are posted
// with ChatService.postInTx.

/** The parties of an order as its chat needs them. */
export interface OrderChatParties {
  id: string;
  customerId: string;
  sellerId: string;
  serviceId: string | null;
}

/** The id of order `orderId`'s chat, or null while it has none (a draft's, until it is paid). */
export async function orderChatId(db: Db, orderId: string): Promise<string | null> {
  const [chat] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.orderId, orderId), eq(chats.kind, 'order')))
    .limit(1);
  return chat?.id ?? null;
}

/** The id of the chat of the order `orderId` (a column of the caller's query), as a subquery; null while it has none. */
export const orderChatIdOf = (orderId: SQLWrapper) =>
  sql<string | null>`(select ${chats.id} from ${chats} where ${chats.orderId} = ${orderId} and ${chats.kind} = 'order' limit 1)`;

/** The order's chat, opened once (its customer and seller as members) in the caller's transaction; answers its id. */
export async function openOrderChat(tx: Db, order: OrderChatParties): Promise<string> {
  const existing = await orderChatId(tx, order.id);
  if (existing) return existing;
  const chat = await openChat(tx, { kind: 'order', memberIds: [order.customerId, order.sellerId], orderId: order.id, serviceId: order.serviceId });
  return chat.id;
}
