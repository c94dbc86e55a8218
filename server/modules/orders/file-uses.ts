import { sql } from 'drizzle-orm';
import { orderDeliveries, orders } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): what a seller delivered is the order's parties' (the seller owns it).
export const orderFileUses = [
  defineFileUse({
    what: 'order deliveries',
    columns: [orderDeliveries.files],
    names: (file) => sql`exists (select 1 from ${orderDeliveries} where ${namesFile(orderDeliveries.files, file)})`,
    readers: (file, reader) =>
      sql`exists (select 1 from ${orderDeliveries} inner join ${orders} on ${orders.id} = ${orderDeliveries.orderId} where ${namesFile(orderDeliveries.files, file)} and ${reader} in (${orders.customerId}, ${orders.sellerId}))`,
  }),
];
