/**
 * A server that dies with SIGKILL between ЮKassa's answer to a payment and our note of it, for
 * server/modules/payments/provider-crash.db.test.ts (issue 27). Its environment points ЮKassa at the test's fake.
 * It opens an order and starts a card payment; the ЮKassa provider's createPayment is wrapped here (no production
 * code knows about it): once ЮKassa has made the payment, the process is killed before the payment's id is written.
 *
 * Prints `setup {"orderId","paymentId","token"}` once the payment row exists, and `dying` just before the kill.
 */
import { eq } from 'drizzle-orm';
import { loadEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { startServer } from '../server.ts';
import { createUser } from '../db/factories.ts';
import { createService } from '../db/catalog-factories.ts';
import { payments as paymentsTable } from '../modules/payments/schema.ts';

const env = loadEnv();
const server = await startServer(env, createLogger(env));
const { db } = server.database;
const { orders, payments, tokens } = server.app.services;

const seller = await createUser(db, { role: 'seller' });
const customer = await createUser(db, { role: 'customer' });
const service = await createService(db, seller.id, { price: 150_000 });
const order = await orders.create(customer, { service_id: service.id, package: null, extras: [] });

const provider = payments.providers.byName('yookassa')!;
const createPayment = provider.createPayment.bind(provider);
provider.createPayment = async (payment) => {
  console.log(`setup ${JSON.stringify({ orderId: order._id, paymentId: payment.id, token: await tokens.sign(customer) })}`);
  await createPayment(payment);
  const [row] = await db.select().from(paymentsTable).where(eq(paymentsTable.id, payment.id));
  if (row?.providerRef) throw new Error('the payment was noted before the kill');
  console.log('dying');
  process.kill(process.pid, 'SIGKILL');
  await new Promise(() => {});
  throw new Error('unreachable');
};
await payments.pay(customer, { order_id: order._id, method: 'card' });
setInterval(() => {}, 60_000);
