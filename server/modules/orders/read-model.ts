import { sql } from 'drizzle-orm';
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
      // Orders in stages (ADR 065): a stage is shown by its head's number, and its workspace is its head's chat.
      headId: orders.headId,
      stage: orders.stage,
      stageTitle: orders.stageTitle,
      // Qualified by hand: drizzle leaves a one-table select's columns bare, which the inner alias would capture.
      shownNumber: sql<number>`coalesce((select h.number from orders h where h.id = orders.head_id), orders.number)`.mapWith(Number).as('shown_number'),
      workspaceId: sql<string>`coalesce(orders.head_id, orders.id)`.as('workspace_id'),
    })
    .from(orders)
    .as(as);
export type OrderRefs = ReturnType<typeof orderRefs>;
