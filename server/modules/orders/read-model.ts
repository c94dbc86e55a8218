import { QueryBuilder } from 'drizzle-orm/pg-core';
import { orders } from './schema.ts';

// What other modules may read of an order (ADR 049): a read-only subquery joined under an alias of the caller's
// choice (`orderRefs('o')`). An order's state changes only through the orders module's commands and ports.

const qb = new QueryBuilder();

/** Orders as another module joins them, under the alias `as`. */
export const orderRefs = <A extends string>(as: A) =>
  qb
    .select({
      id: orders.id,
      number: orders.number,
      customerId: orders.customerId,
      sellerId: orders.sellerId,
      serviceId: orders.serviceId,
      projectId: orders.projectId,
      title: orders.title,
      price: orders.price,
      commissionBp: orders.commissionBp,
      status: orders.status,
      paidAt: orders.paidAt,
      deadlineAt: orders.deadlineAt,
      deliveredAt: orders.deliveredAt,
      completedAt: orders.completedAt,
      cancelledAt: orders.cancelledAt,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
    })
    .from(orders)
    .as(as);
export type OrderRefs = ReturnType<typeof orderRefs>;
