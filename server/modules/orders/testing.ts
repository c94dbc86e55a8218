import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orders } from './schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../ledger/index.ts';

// Test helpers of the orders module, for its tests and other modules' (not used by the application).

/**
 * Pays an order as a provider's payment would (ADR 025): external:card → the customer's balance (`payment:`),
 * the balance → the order's escrow (`escrow:<order>`), and orders.markPaid, in one transaction.
 */
export async function payOrderForTest(app: FastifyInstance, orderId: string): Promise<void> {
  const { platform, orders: orderService } = app.services;
  await platform.withTx(systemActor('test:pay'), async (ctx) => {
    const [order] = await ctx.tx.select().from(orders).where(eq(orders.id, orderId));
    if (!order) throw new Error(`payOrderForTest: no order ${orderId}`);
    await postTransfer(ctx.tx, {
      kind: 'payment',
      key: `payment:test-${orderId}`,
      orderId,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -order.price },
        { account: { kind: 'available', userId: order.customerId }, amount: order.price },
      ],
    });
    await postTransfer(ctx.tx, {
      kind: 'escrow',
      key: `escrow:${orderId}`,
      orderId,
      legs: [
        { account: { kind: 'available', userId: order.customerId }, amount: -order.price },
        { account: { kind: 'escrow', orderId }, amount: order.price },
      ],
    });
    await orderService.markPaid(ctx, orderId);
  });
}
