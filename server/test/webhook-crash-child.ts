/**
 * A server that dies with SIGKILL in the middle of a payment webhook, for server/modules/payments/crash.db.test.ts.
 * It opens an order, starts a card payment in the sandbox and confirms it there; the outbox then posts the signed
 * webhook to this server, and the webhook's transaction kills the process after its ledger transfers
 * (`payment:<payment>`, `escrow:<order>`) and the order's update, before the commit. The fault is injected here, by
 * wrapping the order service's markPaid (the last step of the webhook before the payment row and the commit):
 * no production code knows about it.
 *
 * Prints one line `setup {"orderId","paymentId","token"}` (the token is the customer's, for the test to read the
 * order through the API of the restarted server) and `dying` just before the kill.
 */
import { loadEnv } from '../env.ts';
import { createLogger } from '../logger.ts';
import { startServer } from '../server.ts';
import { createUser } from '../db/factories.ts';
import { createService } from '../db/catalog-factories.ts';

const env = loadEnv();
const server = await startServer(env, createLogger(env));
const { db } = server.database;
const { orders, payments, tokens } = server.app.services;

const seller = await createUser(db, { role: 'seller' });
const customer = await createUser(db, { role: 'customer' });
const service = await createService(db, seller.id, { price: 150_000 });
const order = await orders.create(customer, { service_id: service.id, package: null, extras: [] });
const started = await payments.pay(customer, { order_id: order._id, method: 'card' });
console.log(`setup ${JSON.stringify({ orderId: order._id, paymentId: started.payment_id, token: await tokens.sign(customer) })}`);

const markPaid = orders.markPaid.bind(orders);
orders.markPaid = async (ctx, orderId) => {
  const paid = await markPaid(ctx, orderId);
  console.log('dying');
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not delivered synchronously everywhere: never let the transaction go on to its commit.
  await new Promise(() => {});
  return paid;
};
// The customer confirms on the sandbox page: the webhook job is queued and the dispatcher delivers it at once.
await payments.sandboxDecide(started.payment_id, 'pay');
setInterval(() => {}, 60_000);
