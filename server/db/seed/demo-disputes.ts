import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Services } from '../../app.ts';
import { users } from '../../modules/users/schema.ts';
import { services } from '../../modules/services/schema.ts';
import type { DemoAccount } from './demo.ts';

type Demo = Pick<Services, 'orders' | 'payments' | 'disputes'>;

/** What the demo customer says in the demo dispute. */
export const DEMO_DISPUTE_DESCRIPTION =
  'Презентация сдана, но в ней 8 слайдов вместо 15 по заданию и нет графиков из наших таблиц. Исполнитель отвечает, что так «лучше смотрится», доработать отказывается.';

/**
 * One open dispute for the demo (issue 14, ADR 034), made through the real commands after seedDemoOrders: the demo
 * customer orders the demo seller's service again, pays from the balance, the seller delivers, and the customer
 * opens a dispute. The order stays `disputed`; /admin/disputes has it waiting for an arbiter, /profile/disputes
 * shows it to both.
 */
export async function seedDemoDisputes(demo: Demo, db: Db, accounts: Pick<DemoAccount, 'email' | 'role'>[]): Promise<void> {
  const emailOf = (role: string) => accounts.find((a) => a.role === role)?.email;
  const [customer] = await db.select().from(users).where(eq(users.email, emailOf('customer') ?? ''));
  const [seller] = await db.select().from(users).where(eq(users.email, emailOf('seller') ?? ''));
  if (!customer || !seller) throw new Error('demo disputes: no demo customer or seller');
  const [service] = await db
    .select()
    .from(services)
    .where(and(eq(services.sellerId, seller.id), eq(services.status, 'active')))
    .orderBy(asc(services.createdAt), asc(services.id))
    .limit(1);
  if (!service) throw new Error('demo disputes: the demo seller has no active service');

  const order = await demo.orders.create(customer, { service_id: service.id, package: null, extras: [] });
  await demo.payments.pay(customer, { order_id: order._id, method: 'balance' });
  await demo.orders.deliver(seller, order._id, { message: 'Готово: презентация во вложении, 8 слайдов.', files: [] });
  await demo.disputes.create(customer, { order_id: order._id, reason: 'poor_quality', description: DEMO_DISPUTE_DESCRIPTION, files: [] });
}
