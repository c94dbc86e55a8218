import { and, eq, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { chatMembers, chats } from './schema.ts';

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

/**
 * The order's chat, opened once (its customer and seller as members) in the caller's transaction; answers its id.
 * One statement: found, or made with its members (the caller holds the order's row lock, so no other transaction
 * opens it meanwhile).
 */
export async function openOrderChat(tx: Db, order: OrderChatParties): Promise<string> {
  const members = [...new Set([order.customerId, order.sellerId])].map((id) => sql`(${id}::uuid)`);
  const { rows } = (await tx.execute(sql`
    with found as (
      select ${chats.id} as id from ${chats} where ${chats.orderId} = ${order.id} and ${chats.kind} = 'order' limit 1
    ), opened as (
      insert into ${chats} (kind, order_id, service_id)
      select 'order', ${order.id}::uuid, ${order.serviceId}::uuid where not exists (select 1 from found)
      returning id
    ), joined as (
      insert into ${chatMembers} (chat_id, user_id)
      select opened.id, member.id from opened, (values ${sql.join(members, sql`, `)}) as member (id)
      on conflict do nothing
    )
    select id from found union all select id from opened`)) as unknown as { rows: { id: string }[] };
  return rows[0]!.id;
}
