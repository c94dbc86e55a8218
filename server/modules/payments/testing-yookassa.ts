import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type Person, signedInPerson } from '../../test/app.ts';
import { createService } from '../../db/catalog-factories.ts';
import { commissionOn } from '#contract/money';
import type { OrderDetail } from '#contract/orders';
import { payments } from './schema.ts';
import { call } from '../../test/api.ts';
import { fakeProvidersEnv } from '../../test/payment-fakes.ts';
import { checkLedger } from '../ledger/index.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import type { YookassaProvider } from './providers/yookassa/provider.ts';

// The app against the local ЮKassa, for the db tests of money inside a safe deal (refunds, ADR 051; payouts out of
// it, ADR 053): the fake's notifications reach the app's webhook, the outbox runs when the test says so, and the
// client's retries are quick.

export function useYookassaApp() {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let fake: FakeYookassa;
  beforeAll(async () => {
    fake = await startFakeYookassa();
    t = await createTestApp({ ...fakeProvidersEnv({ yookassa: fake }), PUBLIC_URL: 'https://podryad.example' }, { dispatch: false });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    fake.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
    Object.assign(yookassa().client.options, { timeoutMs: 400, backoffMs: 10 });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  const yookassa = () => t.app.services.payments.providers.byName('yookassa') as YookassaProvider;
  const post = <T = unknown>(who: Person, url: string, body: unknown = {}) => call<T>(t.app, 'POST', url, { token: who.token, body, headers: { 'idempotency-key': randomUUID() } });

  /** An order of a fresh seller's service for `price`, paid by a fresh customer's card through ЮKassa, in its deal. */
  async function paidByCard(price: number) {
    const db = t.database.db;
    const seller = await signedInPerson(t.app, db, { role: 'seller' });
    const customer = await signedInPerson(t.app, db);
    const service = await createService(db, seller.user.id, { price, days: 3, revisions: 1 });
    const order = (await post<OrderDetail>(customer, '/api/orders', { service_id: service.id })).body.result;
    const paid = await post<{ payment_id: string }>(customer, '/api/payments/pay', { order_id: order._id, method: 'card' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const [payment] = await db.select().from(payments).where(eq(payments.id, paid.body.result.payment_id));
    await fake.pay(payment!.providerRef!);
    // The order's rate, from its commission on the price (exact for prices of 100 ₽ and more).
    const commissionBp = Math.round((order.commission * 10_000) / price);
    const deal = fake.deals.get(payment!.providerDealRef!)!;
    return { seller, customer, order, payment: payment!, deal, commissionBp, sellerShare: price - commissionOn(price, commissionBp) };
  }

  return {
    get t() {
      return t;
    },
    get fake() {
      return fake;
    },
    db: () => t.database.db,
    yookassa,
    /** A write as the person, with an Idempotency-Key of its own. */
    post,
    paidByCard,
    runJobs: () => t.app.services.platform.dispatcher.runDue(),
    expectLedgerClean: async () => expect((await checkLedger(t.database.db)).problems).toEqual([]),
  };
}
