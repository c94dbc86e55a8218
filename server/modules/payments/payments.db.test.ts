import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { ledgerHead, ledgerTransfers } from '../ledger/schema.ts';
import { orders } from '../orders/schema.ts';
import { payments, webhookEvents } from './schema.ts';
import { settings as settingsTable } from '../../platform/schema.ts';
import { auditLog, idempotencyKeys } from '../../platform/schema.ts';
import { IDEMPOTENCY_MESSAGES, requestHash } from '../../platform/idempotency.ts';
import type { UserRow } from '../users/schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { manualClock } from '../../platform/clock.ts';
import { balanceOf, balancesOf, checkLedger, postTransfer } from '../ledger/index.ts';
import { signPayload } from './providers/provider.ts';
import { convert } from './pricing.ts';
import { DEFAULT_PAYMENT_RATES, PAYMENT_MESSAGES } from '#contract/payments';

// Paying orders (issue 12): from the balance, through the sandbox provider and its signed webhook over the real
// HTTP loopback, crypto quotes, idempotency, the races of many requests for one order, and withdrawals.

let t: Awaited<ReturnType<typeof createTestApp>>;
let base: string;
let seller: UserRow;
const actor = systemActor('test');
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ PAYMENTS_WEBHOOK_SECRET: 'a-webhook-secret-for-the-tests-0123456789' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.services.payments.webhookTransport = async (path, body, headers) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', body, headers });
    await res.arrayBuffer();
    return res.status;
  };
  seller = await createUser(t.database.db, { role: 'seller' });
});
afterAll(() => t.close());

const db = () => t.database.db;
const token = (user: UserRow) => t.app.services.tokens.sign(user);

async function customer(funds = 0): Promise<UserRow> {
  const user = await createUser(db());
  if (funds) await fund(user, funds);
  return user;
}

async function fund(user: UserRow, amount: number) {
  await t.app.services.platform.withTx(actor, ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `test-fund:${++n}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -amount },
        { account: { kind: 'available', userId: user.id }, amount },
      ],
    }),
  );
}

async function openOrder(buyer: UserRow, price = 150_000) {
  const { order } = await t.app.services.platform.withTx(actor, (ctx) =>
    t.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: seller.id, title: `Логотип №${++n}`, price, days: 3, revisions: 2 }),
  );
  return order;
}

async function call(user: UserRow | null, method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...(user ? { authorization: `Bearer ${await token(user)}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    payload: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const pay = (user: UserRow, body: unknown, key: string = randomUUID()) => call(user, 'POST', '/api/payments/pay', body, { 'idempotency-key': key });

async function orderRow(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function until(check: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function setRates(USDT: number, BTC: number) {
  const value = { USDT, BTC, lastUpdated: new Date().toISOString() };
  await db().insert(settingsTable).values({ key: 'rates', value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } });
  (t.app.services.rates as unknown as { cached: unknown }).cached = null;
}

const transfersOf = async (key: string) => (await db().select({ c: count() }).from(ledgerTransfers).where(eq(ledgerTransfers.key, key)))[0]!.c;

describe('the ways to pay', () => {
  it('answers the operator settings', async () => {
    await t.app.services.settings.update((await createUser(db(), { role: 'admin' })) as UserRow, {
      'payments.methods': { ...DEFAULT_PAYMENT_RATES, card: { ...DEFAULT_PAYMENT_RATES.card!, fee: 2.5 } },
    });
    const res = await call(await customer(), 'GET', '/api/payments/rates');
    expect(res.body.result.card.fee).toBe(2.5);
    await t.app.services.settings.update((await createUser(db(), { role: 'admin' })) as UserRow, { 'payments.methods': DEFAULT_PAYMENT_RATES });
  });

  it('converts with the rate: USDT in cents, BTC to 7 decimals, rounded up', () => {
    expect(convert(150_000, { title: '', currency: 'USDT', fee: 1, min: 0, max: 1e9 }, 90)).toEqual({ fee: 1_500, amount: 1_684 });
    // 1515 ₽ / 9 000 000 ₽ = 0.000168333… BTC → 0.0001684 BTC = 16 840 satoshi.
    expect(convert(150_000, { title: '', currency: 'BTC', fee: 1, min: 0, max: 1e9 }, 9_000_000)).toEqual({ fee: 1_500, amount: 16_840 });
    expect(convert(150_000, { title: '', currency: 'BTC', fee: 1, min: 0, max: 1e9 }, 0).amount).toBeNull();
  });
});

describe('the payment page', () => {
  it("shows the customer's order, balance and each method's amount; 404 to anyone else", async () => {
    await setRates(90, 9_000_000);
    const buyer = await customer(100_000);
    const order = await openOrder(buyer, 150_000);
    const page = await call(buyer, 'GET', `/api/payments/orders/${order.id}`);
    expect(page.status).toBe(200);
    const { result } = page.body;
    expect(result.order).toMatchObject({ _id: order.id, number: order.number, price: 150_000 });
    expect(result.balance.available).toBe(100_000);
    // An unpaid order of a service has no chat yet: its seller does not know of it (ADR 042).
    expect(result.chat_id).toBeNull();
    const byMethod = Object.fromEntries(result.methods.map((m: { method: string }) => [m.method, m]));
    expect(byMethod.balance).toMatchObject({ usable: false, amount: 150_000 });
    expect(byMethod.card).toMatchObject({ usable: true, currency: 'RUB', amount: 150_000 });
    expect(byMethod.usdt).toMatchObject({ usable: true, currency: 'USDT', amount: 1_684, rate: 90 });
    expect(byMethod.btc).toMatchObject({ currency: 'BTC', usable: false }); // below the 3 000 ₽ minimum
    expect((await call(seller, 'GET', `/api/payments/orders/${order.id}`)).status).toBe(404);
    expect((await call(await customer(), 'GET', `/api/payments/orders/${order.id}`)).status).toBe(404);
    expect((await call(buyer, 'GET', `/api/payments/orders/${randomUUID()}`)).status).toBe(404);
    expect((await call(buyer, 'GET', `/api/payments/orders/not-an-id`)).status).toBe(404);
  });
});

describe('paying from the balance', () => {
  it('moves the price into escrow and marks the order paid, in one transaction', async () => {
    const buyer = await customer(200_000);
    const order = await openOrder(buyer, 150_000);
    const res = await pay(buyer, { order_id: order.id, method: 'balance' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'succeeded', order_id: order.id, redirect_url: null });
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 50_000, held: 0 });
    expect(await balanceOf(db(), { kind: 'escrow', orderId: order.id })).toBe(150_000);
    expect((await orderRow(order.id)).status).toBe('in_progress');
    // Paid once: a second request (another key) is refused and moves nothing.
    const again = await pay(buyer, { order_id: order.id, method: 'balance' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(PAYMENT_MESSAGES.notAwaitingPayment);
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 50_000, held: 0 });
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('refuses without the money, for a stranger (404), and over the limits', async () => {
    const buyer = await customer(10_000);
    const order = await openOrder(buyer, 150_000);
    const poor = await pay(buyer, { order_id: order.id, method: 'balance' });
    expect(poor.status).toBe(409);
    expect(poor.body.message).toBe('Недостаточно средств на балансе');
    expect((await pay(await customer(1_000_000), { order_id: order.id, method: 'balance' })).status).toBe(404);
    const cheap = await openOrder(buyer, 10_000);
    const below = await pay(buyer, { order_id: cheap.id, method: 'card' });
    expect(below.status).toBe(400);
    expect(below.body.message).toMatch(/^Этим способом можно оплатить заказ от/);
    expect((await orderRow(order.id)).status).toBe('awaiting_payment');
  });

  /**
   * Runs `whilePaying` while another transaction holds the ledger chain's head, and releases it once the backends
   * waiting for a lock hold, all together, `count` row-write locks on `tables` (what the waiting payments wrote).
   */
  async function withChainHeld<T>(tables: string[], count: number, whilePaying: () => T): Promise<T> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const headLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.app.services.platform.withTx(actor, async ({ tx }) => {
      await tx.select({ id: ledgerHead.id }).from(ledgerHead).where(eq(ledgerHead.id, 1)).for('update');
      locked();
      await held;
    });
    await headLocked;
    const paying = whilePaying();
    const waiting = async () => {
      const rows = await db().execute(sql`
        select l.pid, l.relation from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where a.wait_event_type = 'Lock' and a.datname = current_database() and l.mode = 'RowExclusiveLock' and l.granted
          and l.relation::regclass::text in ${tables}`);
      return (rows as unknown as { rows: unknown[] }).rows.length === count;
    };
    try {
      await until(waiting);
    } finally {
      release();
      await holder;
    }
    return paying;
  }

  // ADR 025: the chain's one lock is held from a payment's transfer to its commit, not for the whole command. While
  // another transaction holds the chain's head, a payment from the balance has done its other steps before it waits:
  // the payment's row, and the seller's notification and the outbox rows its transaction queued (written at the
  // commit, they were written under the lock). Taken first, the lock cost a quarter of the payments per second.
  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(process.env.TEST_DB === 'postgres')('takes the ledger\'s lock last, for its transfer only', async () => {
    const buyer = await customer(200_000);
    const order = await openOrder(buyer, 150_000);
    const paying = await withChainHeld(['payments', 'notifications', 'outbox'], 3, () => pay(buyer, { order_id: order.id, method: 'balance' }));
    expect((await paying).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('in_progress');
  });

  // The balance is looked at without a lock; two payments of one customer that both saw enough meet at the ledger,
  // where the database's no-overdraft CHECK refuses the second: the same 409, nothing of it kept.
  it.runIf(process.env.TEST_DB === 'postgres')('refuses the second of two payments that both saw the balance, with the same 409', async () => {
    const buyer = await customer(150_000);
    const first = await openOrder(buyer, 150_000);
    const second = await openOrder(buyer, 150_000);
    // Both have looked at the balance and wait at the ledger, each holding its payment's row.
    const payments = await withChainHeld(['payments'], 2, () => [
      pay(buyer, { order_id: first.id, method: 'balance' }),
      pay(buyer, { order_id: second.id, method: 'balance' }),
    ]);
    const answers = await Promise.all(payments);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe('Недостаточно средств на балансе');
    expect([(await orderRow(first.id)).status, (await orderRow(second.id)).status].sort()).toEqual(['awaiting_payment', 'in_progress']);
    expect(await balanceOf(db(), { kind: 'available', userId: buyer.id })).toBe(0);
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});

describe('receipts', () => {
  /** The letters sent to this person, in order. */
  const sentTo = new Map<string, { subject: string; text: string }[]>();
  beforeAll(() => {
    const mailer = t.app.services.mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = async (to, letter) => {
      sentTo.set(to, [...(sentTo.get(to) ?? []), { subject: letter.subject, text: letter.text }]);
      return send(to, letter);
    };
  });
  /** Its letters, their spaces (no-break ones too) made plain. */
  const lettersTo = (user: UserRow) => (sentTo.get(user.email) ?? []).map((l) => ({ subject: l.subject, text: l.text.replace(/[\u00a0\u202f]/g, ' ') }));

  it('every payment of an order sends its customer a receipt: from the balance and through the sandbox', async () => {
    const buyer = await customer(200_000);
    const order = await openOrder(buyer, 150_000);
    await db().update(orders).set({ package: 'standard', extras: [{ title: 'Исходники', price: 30_000, days: 1 }] }).where(eq(orders.id, order.id));
    expect((await pay(buyer, { order_id: order.id, method: 'balance' })).status).toBe(200);
    await until(async () => lettersTo(buyer).length === 1);
    const [fromBalance] = lettersTo(buyer);
    expect(fromBalance!.subject).toMatch(new RegExp(`^Оплата заказа №${order.number} получена`));
    expect(fromBalance!.text).toContain('Пакет «Стандарт» — 1 200 руб.');
    expect(fromBalance!.text).toContain('Исходники — 300 руб.');
    expect(fromBalance!.text).toContain('Сумма: 1 500 руб.');
    expect(fromBalance!.text).toContain('Способ оплаты: Баланс');
    expect(fromBalance!.text).toContain(`/payments/${order.id}`);

    const second = await openOrder(buyer, 150_000);
    const { payment_id } = (await pay(buyer, { order_id: second.id, method: 'card' })).body.result;
    await call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`);
    await until(async () => lettersTo(buyer).length === 2);
    const letters = lettersTo(buyer);
    expect(letters).toHaveLength(2);
    expect(letters[1]!.subject).toMatch(new RegExp(`^Оплата заказа №${second.number} получена`));
    expect(letters[1]!.text).toContain('Способ оплаты: Банковская карта');
  });

  it('a payment arriving once the settings are no longer cached still lands, its receipt naming the method', async () => {
    // The receipt reads the ways to pay inside the webhook's transaction. Through the pool, on PGlite (one
    // connection) that read waited for the transaction that waited for it, and every request after it hung.
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const { payment_id } = (await pay(buyer, { order_id: order.id, method: 'card' })).body.result;
    t.app.services.settings.forget();
    expect((await call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`)).status).toBe(200);
    await until(async () => (await orderRow(order.id)).status === 'in_progress');
    await until(async () => lettersTo(buyer).length === 1);
    expect(lettersTo(buyer)[0]!.text).toContain('Способ оплаты: Банковская карта');
  });
});

describe('Idempotency-Key', () => {
  it('is required', async () => {
    const buyer = await customer(200_000);
    const order = await openOrder(buyer);
    const res = await call(buyer, 'POST', '/api/payments/pay', { order_id: order.id, method: 'balance' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PAYMENT_MESSAGES.idempotencyKeyRequired);
    expect((await call(buyer, 'POST', '/api/payments/pay', { order_id: order.id, method: 'balance' }, { 'idempotency-key': 'x'.repeat(101) })).status).toBe(400);
  });

  it('answers the first result again for the same body, 409 for another body', async () => {
    const buyer = await customer(200_000);
    const order = await openOrder(buyer);
    const key = randomUUID();
    const first = await pay(buyer, { order_id: order.id, method: 'balance' }, key);
    const second = await pay(buyer, { method: 'balance', order_id: order.id }, key);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const other = await pay(buyer, { order_id: order.id, method: 'card' }, key);
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(PAYMENT_MESSAGES.idempotencyKeyReused);
    // Another person's identical key is theirs: keys are per user.
    const stranger = await customer(200_000);
    expect((await pay(stranger, { order_id: order.id, method: 'balance' }, key)).status).toBe(404);
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 50_000, held: 0 });
  });

  it('a retry after a crash on this instance runs at once, and the order that crash had paid is not paid twice', async () => {
    // The app is the instance it listens as (startServer establishes it once it listens: ADR 061).
    const identity = t.app.services.platform.identity;
    identity.establish(`test-host/${new URL(base).host}`);
    const buyer = await customer(200_000);
    const order = await openOrder(buyer);
    const body = { order_id: order.id, method: 'balance' as const };
    const key = randomUUID();
    // The instance's previous process claimed the key and paid (the payment committed), then died before it could
    // store its answer: the claim is left unanswered, its lease still running.
    await db().insert(idempotencyKeys).values({
      userId: buyer.id,
      key,
      scope: 'payments.pay',
      requestHash: requestHash('payments.pay', body),
      ownerInstance: identity.instanceId,
      ownerBoot: randomUUID(),
      leaseUntil: new Date(Date.now() + 60_000),
    });
    expect((await t.app.services.payments.pay(buyer, body)).status).toBe('succeeded');

    const started = Date.now();
    const retry = await pay(buyer, body, key);
    // Not «Запрос уже обрабатывается» for a minute: the request runs again, and the order is found paid.
    expect(retry.body.message).not.toBe(IDEMPOTENCY_MESSAGES.inFlight);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(retry.status).toBe(409);
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 50_000, held: 0 });
    expect((await db().select().from(payments).where(eq(payments.orderId, order.id))).length).toBe(1);
    // The answer is the key's now.
    expect((await pay(buyer, body, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('a refusal is stored too: the same key repeats it', async () => {
    const buyer = await customer(1_000);
    const order = await openOrder(buyer);
    const key = randomUUID();
    expect((await pay(buyer, { order_id: order.id, method: 'balance' }, key)).status).toBe(409);
    await fund(buyer, 500_000);
    const again = await pay(buyer, { order_id: order.id, method: 'balance' }, key);
    expect(again.status).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('100 parallel requests for one order', () => {
  it('with the same key: one charge, every answer the same', async () => {
    const buyer = await customer(1_000_000);
    const order = await openOrder(buyer, 150_000);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 100 }, () => pay(buyer, { order_id: order.id, method: 'balance' }, key)));
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses]).toEqual([200]);
    expect(new Set(answers.map((a) => a.body.result.payment_id)).size).toBe(1);
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 850_000, held: 0 });
    expect(await transfersOf(`escrow:${order.id}`)).toBe(1);
    expect((await db().select({ c: count() }).from(payments).where(eq(payments.orderId, order.id)))[0]!.c).toBe(1);
  });

  it('with different keys: exactly one succeeds, the others get a clear 409', async () => {
    const buyer = await customer(1_000_000);
    const order = await openOrder(buyer, 150_000);
    const answers = await Promise.all(Array.from({ length: 100 }, () => pay(buyer, { order_id: order.id, method: 'balance' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(99);
    for (const a of refused) {
      expect(a.status).toBe(409);
      expect(a.body.message).toBe(PAYMENT_MESSAGES.notAwaitingPayment);
    }
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 850_000, held: 0 });
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});

describe('the sandbox provider and its webhook', () => {
  /** Every webhook the sandbox sends, as it sent it. */
  const sent: { body: string; headers: Record<string, string> }[] = [];
  beforeAll(() => {
    const transport = t.app.services.payments.webhookTransport;
    t.app.services.payments.webhookTransport = async (path, body, headers) => {
      sent.push({ body, headers });
      return transport(path, body, headers);
    };
  });

  it('card: the confirmation page, "pay", the signed webhook over HTTP, the order paid once; a replay and a forgery change nothing', async () => {
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const started = await pay(buyer, { order_id: order.id, method: 'card' });
    expect(started.status).toBe(200);
    const { payment_id, redirect_url } = started.body.result;
    expect(redirect_url).toBe(`/sandbox-pay/${payment_id}`);
    // The same attempt again (another key) resumes the same pending payment.
    expect((await pay(buyer, { order_id: order.id, method: 'card' })).body.result.payment_id).toBe(payment_id);

    const page = await call(null, 'GET', `/api/payments/sandbox/${payment_id}`);
    expect(page.body.result).toMatchObject({ status: 'pending', currency: 'RUB', currency_amount: 150_000, return_url: `/payments/${order.id}?payment=${payment_id}` });
    const decided = await call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`);
    expect(decided.status).toBe(200);
    await until(async () => (await orderRow(order.id)).status === 'in_progress');
    const [payment] = await db().select().from(payments).where(eq(payments.id, payment_id));
    expect(payment!.status).toBe('succeeded');
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 0, held: 0 });
    expect(await balanceOf(db(), { kind: 'escrow', orderId: order.id })).toBe(150_000);
    expect(await transfersOf(`payment:${payment_id}`)).toBe(1);

    // The replay: the very same request again.
    const delivered = sent.at(-1)!;
    const replay = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: delivered.headers, payload: delivered.body });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().result).toEqual({ received: true, duplicate: true });
    // The same event with a new id and a fresh signature: the payment is no longer pending, nothing moves.
    const event = { ...JSON.parse(delivered.body), id: `evt_${randomUUID()}` };
    const body = JSON.stringify(event);
    const secret = 'a-webhook-secret-for-the-tests-0123456789';
    const resent = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: { 'content-type': 'application/json', 'x-signature': signPayload(secret, body, Math.floor(Date.now() / 1000)) }, payload: body });
    expect(resent.statusCode).toBe(200);
    // A forgery: signed with another secret, or stale, or not signed.
    for (const signature of [signPayload('not-the-secret-at-all-0123456789abcdef', body, Math.floor(Date.now() / 1000)), signPayload(secret, body, Math.floor(Date.now() / 1000) - 3_600), '']) {
      const forged = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: { 'content-type': 'application/json', 'x-signature': signature }, payload: body });
      expect(forged.statusCode).toBe(400);
    }
    expect(await transfersOf(`payment:${payment_id}`)).toBe(1);
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 0, held: 0 });
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('a forged success for a pending payment pays nothing', async () => {
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const { payment_id } = (await pay(buyer, { order_id: order.id, method: 'card' })).body.result;
    const body = JSON.stringify({ id: `evt_${randomUUID()}`, type: 'payment.succeeded', payment_ref: `sb_${payment_id}`, currency: 'RUB', amount: 150_000, created: Math.floor(Date.now() / 1000) });
    const forged = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/sandbox', headers: { 'content-type': 'application/json', 'x-signature': signPayload('guessed-secret-guessed-secret-guessed!!', body, Math.floor(Date.now() / 1000)) }, payload: body });
    expect(forged.statusCode).toBe(400);
    expect((await orderRow(order.id)).status).toBe('awaiting_payment');
    expect((await db().select({ c: count() }).from(webhookEvents))[0]!.c).toBeGreaterThanOrEqual(0);
    expect(await transfersOf(`payment:${payment_id}`)).toBe(0);
  });

  it('"decline" fails the payment; the order still awaits payment', async () => {
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const { payment_id } = (await pay(buyer, { order_id: order.id, method: 'card' })).body.result;
    await call(null, 'POST', `/api/payments/sandbox/${payment_id}/decline`);
    await until(async () => (await db().select().from(payments).where(eq(payments.id, payment_id)))[0]!.status === 'failed');
    expect((await orderRow(order.id)).status).toBe('awaiting_payment');
    const page = await call(buyer, 'GET', `/api/payments/orders/${order.id}`);
    expect(page.body.result.last_payment).toMatchObject({ _id: payment_id, status: 'failed' });
  });

  it('money arriving for an order paid meanwhile stays on the balance: never lost, never charged twice', async () => {
    const buyer = await customer(150_000);
    const order = await openOrder(buyer, 150_000);
    const { payment_id } = (await pay(buyer, { order_id: order.id, method: 'card' })).body.result;
    expect((await pay(buyer, { order_id: order.id, method: 'balance' })).status).toBe(200);
    await call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`);
    await until(async () => (await db().select().from(payments).where(eq(payments.id, payment_id)))[0]!.status === 'credited');
    expect(await balancesOf(db(), buyer.id)).toEqual({ available: 150_000, held: 0 });
    expect(await balanceOf(db(), { kind: 'escrow', orderId: order.id })).toBe(150_000);
    expect((await db().select({ c: count() }).from(payments).where(and(eq(payments.orderId, order.id), eq(payments.status, 'succeeded'))))[0]!.c).toBe(1);
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});

describe('a webhook that fails or whose answer is lost', () => {
  it('is retried by the outbox with backoff until it lands; the order is paid once', async () => {
    const payments_ = t.app.services.payments;
    const transport = payments_.webhookTransport;
    let calls = 0;
    // 1st: the server is down; 2nd: the webhook is applied but its answer is lost (a crash after the commit);
    // 3rd: delivered again, recognised as a replay.
    payments_.webhookTransport = async (path, body, headers) => {
      calls++;
      if (calls === 1) throw new Error('ECONNREFUSED');
      const status = await transport(path, body, headers);
      if (calls === 2) throw new Error('socket hang up');
      return status;
    };
    try {
      const buyer = await customer();
      const order = await openOrder(buyer, 150_000);
      const { payment_id } = (await pay(buyer, { order_id: order.id, method: 'card' })).body.result;
      await call(null, 'POST', `/api/payments/sandbox/${payment_id}/pay`);
      await until(async () => calls >= 3, 15_000);
      expect((await orderRow(order.id)).status).toBe('in_progress');
      expect(await transfersOf(`payment:${payment_id}`)).toBe(1);
      expect(await transfersOf(`escrow:${order.id}`)).toBe(1);
      expect(await balancesOf(db(), buyer.id)).toEqual({ available: 0, held: 0 });
      expect((await checkLedger(db())).problems).toEqual([]);
    } finally {
      payments_.webhookTransport = transport;
    }
  }, 20_000);
});

describe('crypto quotes', () => {
  it('quotes at the current rate, pays through the sandbox, and refuses an expired quote', async () => {
    await setRates(90, 9_000_000);
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const quoted = await call(buyer, 'POST', '/api/payments/quote', { order_id: order.id, method: 'usdt' });
    expect(quoted.status).toBe(200);
    const quote = quoted.body.result;
    expect(quote).toMatchObject({ currency: 'USDT', currency_amount: 1_684, rate: 90, amount: 150_000, fee: 1_500 });
    expect(Date.parse(quote.quote_expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect((await pay(buyer, { order_id: order.id, method: 'usdt' })).body.message).toBe(PAYMENT_MESSAGES.quoteRequired);

    // The clock moves past the quote: paying with it is refused, a new quote works.
    const payments_ = t.app.services.payments;
    const real = payments_.clock;
    payments_.clock = manualClock(Date.now() + 16 * 60_000);
    try {
      const late = await pay(buyer, { order_id: order.id, method: 'usdt', quote_id: quote._id });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe('Курс устарел, получите новый расчёт');
    } finally {
      payments_.clock = real;
    }
    const fresh = (await call(buyer, 'POST', '/api/payments/quote', { order_id: order.id, method: 'usdt' })).body.result;
    const started = await pay(buyer, { order_id: order.id, method: 'usdt', quote_id: fresh._id });
    expect(started.status).toBe(200);
    expect(started.body.result.redirect_url).toBe(`/sandbox-pay/${fresh._id}`);
    // Being confirmed, the payment page shows it pending (no second form); past its quote it is expired (ADR 042).
    const lastPayment = async () => (await call(buyer, 'GET', `/api/payments/orders/${order.id}`)).body.result.last_payment;
    expect(await lastPayment()).toMatchObject({ _id: fresh._id, status: 'pending' });
    payments_.clock = manualClock(Date.now() + 16 * 60_000);
    try {
      expect(await lastPayment()).toMatchObject({ _id: fresh._id, status: 'expired' });
    } finally {
      payments_.clock = real;
    }
    await call(null, 'POST', `/api/payments/sandbox/${fresh._id}/pay`);
    await until(async () => (await orderRow(order.id)).status === 'in_progress');
    expect(await balanceOf(db(), { kind: 'external', method: 'usdt' })).toBeLessThanOrEqual(-150_000);
  });

  it('without rates: 409 with a clear message', async () => {
    await setRates(0, 0);
    const buyer = await customer();
    const order = await openOrder(buyer, 150_000);
    const res = await call(buyer, 'POST', '/api/payments/quote', { order_id: order.id, method: 'usdt' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(PAYMENT_MESSAGES.noRates);
    await setRates(90, 9_000_000);
  });
});

describe('withdrawals', () => {
  it('holds at once; an admin approves or rejects once; the balances follow', async () => {
    const user = await customer(200_000);
    const admin = await createUser(db(), { role: 'admin' });
    const letters: { to: string; subject: string }[] = [];
    const mailer = t.app.services.mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = async (to, letter) => {
      letters.push({ to, subject: letter.subject });
      return send(to, letter);
    };
    const tooSmall = await call(user, 'POST', '/api/withdrawals', { amount: 10_000, method: 'card', payout_token: 'pt-sandbox-1', card: { first6: '411111', last4: '1111', card_type: 'Visa' } });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.errors.amount).toEqual(['Минимальная сумма вывода — 500\u00a0руб.']);
    // A card number is never taken (ADR 050): not as a destination, not as a token, not in a crypto address field.
    const byNumber = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'card', destination: '4111 1111 1111 1111' });
    expect(byNumber.status).toBe(400);
    const numberAsToken = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'card', payout_token: '4111-1111-1111-1111', card: { first6: '411111', last4: '1111' } });
    expect(numberAsToken.status).toBe(400);
    expect(numberAsToken.body.errors.payout_token).toEqual([PAYMENT_MESSAGES.cardNumberRefused]);
    const numberAsWallet = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'usdt', destination: '4111111111111111' });
    expect(numberAsWallet.body.errors.destination).toEqual([PAYMENT_MESSAGES.cardNumberRefused]);
    const badWallet = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'btc', destination: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx' });
    expect(badWallet.status).toBe(400);
    expect((await call(user, 'POST', '/api/withdrawals', { amount: 300_000, method: 'card', payout_token: 'pt-sandbox-1', card: { first6: '411111', last4: '1111', card_type: 'Visa' } })).status).toBe(409);

    const first = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'card', payout_token: 'pt-sandbox-1', card: { first6: '411111', last4: '1111', card_type: 'Visa' } });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ status: 'pending', destination: '411111 •• 1111', card_type: 'Visa' });
    expect(await balancesOf(db(), user.id)).toEqual({ available: 140_000, held: 60_000 });
    const approved = await call(admin, 'POST', `/api/admin/withdrawals/${first.body.result._id}/approve`);
    expect(approved.status).toBe(200);
    // No provider pays cards here (the sandbox): the admin's approval is the payout, as before (ADR 050).
    expect(approved.body.result).toMatchObject({ status: 'approved', destination: '411111 •• 1111' });
    const adminList = await call(admin, 'GET', '/api/admin/withdrawals?limit=50');
    expect(JSON.stringify(adminList.body)).not.toContain('4111111111111111');
    expect(adminList.body.result.find((w: { _id: string }) => w._id === first.body.result._id)).toMatchObject({ destination: '411111 •• 1111' });
    // The admin's «reveal» is gone: there is no number to show.
    expect((await call(admin, 'POST', `/api/admin/withdrawals/${first.body.result._id}/destination`)).status).toBe(404);
    expect(await balancesOf(db(), user.id)).toEqual({ available: 140_000, held: 0 });
    expect((await call(admin, 'POST', `/api/admin/withdrawals/${first.body.result._id}/approve`)).status).toBe(409);
    expect((await call(admin, 'POST', `/api/admin/withdrawals/${first.body.result._id}/reject`, { reason: 'Передумали' })).status).toBe(409);

    const second = await call(user, 'POST', '/api/withdrawals', { amount: 140_000, method: 'btc', destination: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const third = await call(user, 'POST', '/api/withdrawals', { amount: 50_000, method: 'usdt', destination: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' });
    expect(third.status).toBe(409); // nothing left: all of it is held
    expect(await balancesOf(db(), user.id)).toEqual({ available: 0, held: 140_000 });
    const rejected = await call(admin, 'POST', `/api/admin/withdrawals/${second.body.result._id}/reject`, { reason: 'Кошелёк не принадлежит владельцу' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.result).toMatchObject({ status: 'rejected', reject_reason: 'Кошелёк не принадлежит владельцу' });
    expect(await balancesOf(db(), user.id)).toEqual({ available: 140_000, held: 0 });
    const trail = await db().select().from(auditLog).where(eq(auditLog.targetId, second.body.result._id));
    expect(trail).toMatchObject([{ action: 'withdrawal.reject', actorId: admin.id, targetType: 'withdrawal' }]);
    await until(async () => letters.filter((l) => l.to === user.email).length === 2);
    expect(letters.filter((l) => l.to === user.email).map((l) => l.subject)).toEqual([
      expect.stringMatching(/^Вывод 600\u00a0руб\. одобрен/),
      expect.stringMatching(/^Вывод 1\u00a0400\u00a0руб\. отклонён/),
    ]);

    const mine = await call(user, 'GET', '/api/withdrawals/my');
    expect(mine.body.result.map((w: { status: string }) => w.status)).toEqual(['rejected', 'approved']);
    const listed = await call(admin, 'GET', '/api/admin/withdrawals?status=rejected&limit=1');
    expect(listed.body.result[0]).toMatchObject({ status: 'rejected', user: { _id: user.id } });

    // The finance page: every movement with the balance after it, newest first.
    const entries = (await call(user, 'GET', '/api/finance/entries')).body.result as { kind: string; account: string; amount: number; balance_after: number }[];
    const available = entries.filter((e) => e.account === 'available').map((e) => [e.kind, e.amount, e.balance_after]);
    expect(available).toEqual([
      ['withdrawal_return', 140_000, 140_000],
      ['withdrawal_hold', -140_000, 0],
      ['withdrawal_hold', -60_000, 140_000],
      ['adjustment', 200_000, 200_000],
    ]);
    // Signs follow the person's money (issue 25): the hold is the available balance's minus; the held balance's
    // own lines are neither (no second green plus); the rejected withdrawal's return is a plus.
    expect(entries.map((e) => [e.kind, e.account, (e as { direction?: string }).direction])).toEqual([
      ['withdrawal_return', 'available', 'in'],
      ['withdrawal_return', 'withdrawal_hold', 'held'],
      ['withdrawal_hold', 'withdrawal_hold', 'held'],
      ['withdrawal_hold', 'available', 'out'],
      ['withdrawal_paid', 'withdrawal_hold', 'held'],
      ['withdrawal_hold', 'withdrawal_hold', 'held'],
      ['withdrawal_hold', 'available', 'out'],
      ['adjustment', 'available', 'in'],
    ]);
    const paged = await call(user, 'GET', '/api/finance/entries?limit=2');
    expect(paged.body.result).toHaveLength(2);
    const rest = await call(user, 'GET', `/api/finance/entries?limit=100&cursor=${paged.body.next}`);
    expect(rest.body.result.length).toBe(entries.length - 2);
    // The sandbox's payout widget stands in for ЮKassa's, and the card used last is offered again (ADR 050).
    expect((await call(user, 'GET', '/api/finance/balance')).body.result).toEqual({
      available: 140_000,
      held: 0,
      min_withdrawal: 50_000,
      card_widget: { script_url: '/api/payments/sandbox-payouts/widget.js', account_id: 'sandbox' },
      saved_method: { method: 'card', payout_token: 'pt-sandbox-1', first6: '411111', last4: '1111', card_type: 'Visa' },
      // The ways to top up (ADR 062): the sandbox serves all three.
      top_up: [expect.objectContaining({ method: 'card' }), expect.objectContaining({ method: 'usdt' }), expect.objectContaining({ method: 'btc' })],
    });
    const widget = await t.app.inject({ method: 'GET', url: '/api/payments/sandbox-payouts/widget.js' });
    expect(widget.statusCode).toBe(200);
    expect(widget.headers['content-type']).toContain('javascript');
    expect(widget.body).toContain('var TOKEN_URL = null;');
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it("shows the seller a completed order's price, commission and net, as the ledger settled it", async () => {
    const buyer = await customer(150_000);
    const order = await openOrder(buyer, 150_000);
    expect((await pay(buyer, { order_id: order.id, method: 'balance' })).status).toBe(200);
    expect((await call(seller, 'POST', `/api/orders/${order.id}/deliver`, { message: 'Готово' })).status).toBe(200);
    expect((await call(buyer, 'POST', `/api/orders/${order.id}/accept`)).status).toBe(200);
    // 1 500 руб. less the 15 % commission (225 руб.): 1 275 руб. to the seller.
    const settlement = { price: 150_000, commission: 22_500, net: 127_500 };
    const entries = (await call(seller, 'GET', '/api/finance/entries?limit=100')).body.result as { kind: string; amount: number; direction: string; settlement: unknown; order: { _id: string } | null }[];
    const line = entries.find((e) => e.order?._id === order.id);
    expect(line).toMatchObject({ kind: 'release', amount: 127_500, direction: 'in', settlement });
    // The order card says the same to the seller, nothing to the customer; the customer's escrow line is a minus.
    expect((await call(seller, 'GET', `/api/orders/${order.id}`)).body.result).toMatchObject({ status: 'completed', settlement });
    expect((await call(buyer, 'GET', `/api/orders/${order.id}`)).body.result.settlement).toBeNull();
    const paid = ((await call(buyer, 'GET', '/api/finance/entries')).body.result as { kind: string; direction: string; settlement: unknown }[]).find((e) => e.kind === 'escrow');
    expect(paid).toMatchObject({ direction: 'out', settlement: null });
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('needs a confirmed email', async () => {
    const user = await createUser(db(), { emailConfirmedAt: null });
    await fund(user, 100_000);
    expect((await call(user, 'POST', '/api/withdrawals', { amount: 60_000, method: 'card', payout_token: 'pt-sandbox-1', card: { first6: '411111', last4: '1111', card_type: 'Visa' } })).status).toBe(403);
  });
});

describe('payment lists', () => {
  it('the customer sees their payments; an admin filters all of them', async () => {
    const buyer = await customer(500_000);
    const order = await openOrder(buyer, 150_000);
    await pay(buyer, { order_id: order.id, method: 'balance' });
    const mine = await call(buyer, 'GET', '/api/payments/my');
    expect(mine.body.result).toHaveLength(1);
    expect(mine.body.result[0]).toMatchObject({ method: 'balance', status: 'succeeded', order: { _id: order.id } });
    const admin = await createUser(db(), { role: 'admin' });
    const all = await call(admin, 'GET', '/api/admin/payments?status=succeeded&method=balance&limit=2');
    expect(all.status).toBe(200);
    expect(all.body.result.every((p: { status: string; method: string }) => p.status === 'succeeded' && p.method === 'balance')).toBe(true);
    expect(all.body.next).not.toBeNull();
    const more = await call(admin, 'GET', `/api/admin/payments?status=succeeded&method=balance&limit=2&cursor=${all.body.next}`);
    expect(more.status).toBe(200);
    expect(more.body.result[0]._id).not.toBe(all.body.result[1]._id);
  });
});

describe('a production without the sandbox (PAYMENTS_SANDBOX off)', () => {
  it('offers card, USDT and BTC as unavailable, refuses them and the sandbox pages; the balance still pays', async () => {
    const off = await createTestApp({ PAYMENTS_WEBHOOK_SECRET: 'a-webhook-secret-for-the-tests-0123456789', PAYMENTS_SANDBOX: 'false' });
    try {
      const offDb = off.database.db;
      const buyer = await createUser(offDb);
      const sellerRow = await createUser(offDb, { role: 'seller' });
      await off.app.services.platform.withTx(actor, ({ tx }) =>
        postTransfer(tx, {
          kind: 'adjustment',
          key: `test-fund-off:${++n}`,
          legs: [
            { account: { kind: 'external', method: 'card' }, amount: -300_000 },
            { account: { kind: 'available', userId: buyer.id }, amount: 300_000 },
          ],
        }),
      );
      await off.app.services.settings.all();
      const open = () =>
        off.app.services.platform.withTx(actor, (ctx) =>
          off.app.services.orders.open(ctx, { customerId: buyer.id, sellerId: sellerRow.id, title: 'Логотип', price: 150_000, days: 3, revisions: 2 }),
        );
      const { order } = await open();
      const auth = { authorization: `Bearer ${await off.app.services.tokens.sign(buyer)}` };
      const send = (method: 'GET' | 'POST', url: string, body?: unknown) =>
        off.app.inject({ method, url, headers: { ...auth, 'idempotency-key': randomUUID(), ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });

      const page = (await send('GET', `/api/payments/orders/${order.id}`)).json().result as { methods: { method: string; usable: boolean; reason: string | null }[] };
      for (const m of page.methods.filter((x) => x.method !== 'balance')) expect(m, m.method).toMatchObject({ usable: false, reason: PAYMENT_MESSAGES.methodUnavailable });
      const card = await send('POST', '/api/payments/pay', { order_id: order.id, method: 'card' });
      expect(card.statusCode).toBe(409);
      expect(card.json().message).toBe(PAYMENT_MESSAGES.methodUnavailable);
      expect((await send('POST', '/api/payments/quote', { order_id: order.id, method: 'usdt' })).statusCode).toBe(409);
      expect((await send('GET', `/api/payments/sandbox/${randomUUID()}`)).statusCode).toBe(404);
      // No card widget: neither ЮKassa's nor the sandbox's (ADR 050).
      expect((await send('GET', '/api/payments/sandbox-payouts/widget.js')).statusCode).toBe(404);
      expect((await send('GET', '/api/finance/balance')).json().result.card_widget).toBeNull();
      expect((await send('POST', '/api/payments/pay', { order_id: order.id, method: 'balance' })).statusCode).toBe(200);
      expect((await checkLedger(offDb)).problems).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
