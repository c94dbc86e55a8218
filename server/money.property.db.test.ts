/**
 * The money loop's invariants under random, concurrent use (issue 12, docs/decisions/025-money-loop.md).
 *
 * Model-based: fast-check draws batches of actions — order, pay, deliver, ask for a revision, accept, cancel,
 * withdraw, an admin's decision — by several customers and sellers on shared orders. The actions of a batch run at
 * once (Promise.all), through the real HTTP API, so that they race as tabs and retries do. After every sequence:
 * - no answer was a 5xx;
 * - `checkLedger` (what `npm run ledger:check` runs) finds nothing: every transfer sums to zero, every stored
 *   balance equals its entries, the hash chain is whole, no internal account is below zero;
 * - every order's escrow holds exactly what its final state says and settled exactly once (one `settle:` transfer
 *   for a completed or a paid-and-cancelled order, none otherwise);
 * - every person's balances are explained by the final states: top-ups, paid and refunded orders, completed sales
 *   less the commission, withdrawals held or paid, and the referral rewards of completed orders (issue 13): some
 *   customers and a seller were brought by a referrer, one of them more than referrals.months ago; the
 *   referral-expense clearing account ends every settlement at zero;
 * - disputes (issue 14, ADR 034): opened by either party, cancelled by the opener, resolved by an admin with a random
 *   seller share — a disputed order's escrow is untouched, a resolved one settled once with the seller's share (less
 *   the commission, whose referral rewards follow the share) and the rest refunded.
 * - top-ups (ADR 062): a customer tops up by card in the sandbox (a retry under the same key, a payment then paid or
 *   declined at the sandbox's page, its webhook delivered when time passes); every top-up paid is credited once
 *   (one `payment:<id>` transfer), none other is, and the balances count what was credited;
 * - cancellation (issue 25, ADR 039): time passes (minutes to days, the auto-accept running), cancel attempts come
 *   from either side at any moment — after a delivery, after the deadline, after a dispute was withdrawn — and
 *   disputes carry a reason of either side. A customer's cancellation of a paid order happened only within the
 *   window after payment or after the deadline, and never once anything was delivered; every order's deadline is
 *   its payment plus its days plus the time of its withdrawn disputes.
 * - orders in stages (issue 30, ADR 065): a seller proposes a bid in 2..3 stages and the customer accepts it; each
 *   stage is an order the other actions reach (fund = pay, deliver, revise, accept, auto-accept by waiting, dispute
 *   and split, drop = cancel before funding), so each stage's escrow settles exactly once like an order's. Besides:
 *   every head's state and dates are its stages' roll-up (headState), no ledger transfer ever names a head, and a
 *   stage was funded only once every earlier stage was funded or dropped.
 *
 *   npx vitest run server/money.property.db.test.ts                    CI: fixed seed, MONEY_RUNS (default 12)
 *   MONEY_RUNS=100 MONEY_SEED=7 npx vitest run server/money.property.db.test.ts     a longer run
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, like } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './test/app.ts';
import { call, randomAddress, type Answer } from './test/api.ts';
import { createUser } from './db/factories.ts';
import { createProject, createService } from './db/catalog-factories.ts';
import { ledgerAccounts, ledgerTransfers } from './modules/ledger/schema.ts';
import { orders } from './modules/orders/schema.ts';
import { payments, withdrawals } from './modules/payments/schema.ts';
import { disputes } from './modules/disputes/schema.ts';
import { manualClock } from './platform/clock.ts';
import { DISPUTE_REASONS } from '#contract/dispute-constants';
import type { OrderStatus } from '#contract/money';
import { users, type UserRow } from './modules/users/schema.ts';
import { systemActor } from './platform/actor.ts';
import { balanceOf, balancesOf, checkLedger, postTransfer } from './modules/ledger/index.ts';
import { headState } from './modules/orders/stages.ts';

const RUNS = Number(process.env.MONEY_RUNS ?? 12);
const SEED = Number(process.env.MONEY_SEED ?? 20_261_123);
const TOP_UP = 2_000_000;
/** A card as the payout widget gives it (ADR 050): a token and a mask. */
const CARD = { method: 'card', payout_token: 'pt-property', card: { first6: '411111', last4: '1111' } } as const;

const MIN = 60_000;
const DAY = 86_400_000;
/** The platform's time: the `wait` action moves it (deadlines, the cancellation window, the auto-accept). */
const clock = manualClock();

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  // The outbox runs when time passes (`wait`), so that a due auto-accept never races the final checks.
  t = await createTestApp({}, { dispatch: false, clock });
  // The sandbox's webhook (a top-up paid at its page) reaches the app in-process, when the outbox runs (`wait`).
  t.app.services.payments.webhookTransport = async (path, body, headers) =>
    (await t.app.inject({ method: 'POST', url: path, payload: body, headers })).statusCode;
});
afterAll(() => t.close());

interface Person {
  row: UserRow;
  token: string;
}

/** One sequence's people and services, fresh for every run so runs do not see each other's orders. */
async function world() {
  const db = t.database.db;
  const person = async (role: 'customer' | 'seller' | 'admin'): Promise<Person> => {
    const row = await createUser(db, { role });
    return { row, token: await t.app.services.tokens.sign(row) };
  };
  const customers = await Promise.all([0, 1, 2].map(() => person('customer')));
  const sellers = await Promise.all([0, 1].map(() => person('seller')));
  const admin = await person('admin');
  // Referrers (issue 13): customer 0 and seller 0 were brought by the first, customer 1 by the second within the
  // reward period, customer 2 by the second too but 400 days ago (no reward).
  const referrers = await Promise.all([0, 1].map(() => person('customer')));
  const referredBy = new Map<string, { referrer: string; within: boolean }>();
  const refer = async (who: Person, referrer: Person, daysAgo = 0) => {
    await db
      .update(users)
      .set({ referredBy: referrer.row.id, createdAt: new Date(clock.now().getTime() - daysAgo * DAY) })
      .where(eq(users.id, who.row.id));
    referredBy.set(who.row.id, { referrer: referrer.row.id, within: daysAgo < 300 });
  };
  await refer(customers[0]!, referrers[0]!);
  await refer(sellers[0]!, referrers[0]!);
  await refer(customers[1]!, referrers[1]!);
  await refer(customers[2]!, referrers[1]!, 400);
  const services = await Promise.all(
    sellers.map((s, i) => createService(db, s.row.id, { price: 100_000 + i * 37_500, days: 1 + i * 2 })),
  );
  // Each customer starts with money on the balance, as a card payment would leave it.
  for (const c of customers) {
    await t.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
      postTransfer(tx, {
        kind: 'payment',
        key: `test-top-up:${c.row.id}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -TOP_UP },
          { account: { kind: 'available', userId: c.row.id }, amount: TOP_UP },
        ],
      }),
    );
  }
  return {
    customers,
    sellers,
    admin,
    services,
    referredBy,
    orders: [] as string[],
    /** Heads of orders in stages (their stages are in `orders`, where every order action reaches them). */
    heads: [] as string[],
    stages: new Set<string>(),
    withdrawals: [] as string[],
    /** The disputes opened, with who opened them. */
    disputes: [] as { id: string; opener: Person }[],
    everyone: [...customers, ...sellers, ...referrers],
  };
}
type World = Awaited<ReturnType<typeof world>>;

// ---------------------------------------------------------------------------------------------------------------
// The actions, through the HTTP API. (The adapter between the model and the endpoints: keep it in one place.)

const pick = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);

type Action =
  | { t: 'order'; customer: number; seller: number }
  | { t: 'pay'; order: number; sameKey: boolean }
  | { t: 'deliver' | 'revision' | 'accept'; order: number }
  | { t: 'cancel'; order: number; bySeller: boolean }
  | { t: 'withdraw'; person: number; amount: number }
  | { t: 'decide'; withdrawal: number; approve: boolean }
  | { t: 'dispute'; order: number; bySeller: boolean; reason: number }
  | { t: 'wait'; ms: number }
  | { t: 'topUp'; customer: number; amount: number; decision: 'pay' | 'decline' | 'none'; sameKey: boolean }
  | { t: 'cancelDispute'; dispute: number }
  | { t: 'resolve'; dispute: number; percent: number; twice: boolean }
  | { t: 'propose'; customer: number; seller: number; amounts: number[] };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('order' as const), customer: fc.nat(5), seller: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('pay' as const), order: fc.nat(20), sameKey: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('deliver' as const), order: fc.nat(20) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('revision' as const), order: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('accept' as const), order: fc.nat(20) }) },
  // Cancel attempts by either side at any moment: in the window, after a delivery, late, after a dispute (ADR 039).
  { weight: 4, arbitrary: fc.record({ t: fc.constant('cancel' as const), order: fc.nat(20), bySeller: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('withdraw' as const),
      person: fc.nat(10),
      amount: fc.integer({ min: 50_000, max: 400_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('decide' as const), withdrawal: fc.nat(10), approve: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('dispute' as const),
      order: fc.nat(20),
      bySeller: fc.boolean(),
      reason: fc.nat(DISPUTE_REASONS.length - 1),
    }),
  },
  // Within the cancellation window, past it, a day, past a 1-day deadline, past the auto-accept.
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('wait' as const),
      ms: fc.constantFrom(5 * MIN, 25 * MIN, DAY, DAY + 2 * MIN, 3 * DAY + MIN),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cancelDispute' as const), dispute: fc.nat(10) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('topUp' as const),
      customer: fc.nat(5),
      amount: fc.integer({ min: 50_000, max: 500_000 }),
      decision: fc.constantFrom('pay' as const, 'pay' as const, 'decline' as const, 'none' as const),
      sameKey: fc.boolean(),
    }),
  },
  // A bid in 2..3 stages, accepted: its stages join the orders every other action reaches (ADR 065).
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('propose' as const),
      customer: fc.nat(5),
      seller: fc.nat(3),
      amounts: fc.array(fc.integer({ min: 50_000, max: 300_000 }), { minLength: 2, maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('resolve' as const),
      dispute: fc.nat(10),
      percent: fc.oneof(fc.constant(0), fc.constant(100), fc.integer({ min: 0, max: 100 })),
      twice: fc.boolean(),
    }),
  },
);

/** The order's parties, read afresh (a batch may have just made it). */
async function partiesOf(w: World, orderId: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const customer = w.customers.find((c) => c.row.id === row?.customerId)!;
  const seller = w.sellers.find((s) => s.row.id === row?.sellerId)!;
  return { customer, seller };
}

const payKeys = new Map<string, string>();
/** The last top-up's key and amount of each customer: a retry under the same key is that top-up again. */
const topUpKeys = new Map<string, { key: string; amount: number }>();
/** Top-ups credited over all runs: the property must have credited some. */
let topUpsCredited = 0;
/** Successful actions of each kind over all runs: the property must have exercised every transition. */
const succeeded = new Map<string, number>();

/** The state an action's order is preferably in: the one its step starts from. */
const STARTS_FROM: Partial<Record<Action['t'], OrderStatus>> = { deliver: 'in_progress', accept: 'delivered', revision: 'delivered' };

/**
 * The order an order action is on. A delivery goes to an order in progress, an acceptance or a revision to one
 * awaiting the customer's check, when there is one (the index picks which): a random order is seldom in that state,
 * and on PostgreSQL a run once went through eight rounds without accepting a stage. Racing actions in a batch, and
 * the other actions, still meet orders in any state.
 */
async function targetOf(w: World, a: Action): Promise<string | undefined> {
  if (!('order' in a) || !w.orders.length) return undefined;
  const from = STARTS_FROM[a.t];
  if (from) {
    const rows = await t.database.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(inArray(orders.id, w.orders), eq(orders.status, from)));
    const ready = new Set(rows.map((r) => r.id));
    // In the world's order, so that a seed draws the same actions.
    const chosen = pick(w.orders.filter((id) => ready.has(id)), a.order);
    if (chosen) return chosen;
  }
  return pick(w.orders, a.order);
}

/** A dispute still open when there is one (as targetOf, for the steps that end one), else any. */
async function openDispute(w: World, index: number) {
  if (!w.disputes.length) return undefined;
  const rows = await t.database.db
    .select({ id: disputes.id })
    .from(disputes)
    .where(and(inArray(disputes.id, w.disputes.map((d) => d.id)), eq(disputes.status, 'open')));
  const open = new Set(rows.map((r) => r.id));
  return pick(w.disputes.filter((d) => open.has(d.id)), index) ?? pick(w.disputes, index);
}

async function run(w: World, a: Action): Promise<Answer[]> {
  const target = await targetOf(w, a);
  const answers = await act(w, a, target);
  // Which actions went through on a stage: the property must have funded, settled and dropped stages.
  if (target && w.stages.has(target) && answers.some((r) => r.status === 200))
    succeeded.set(`stage:${a.t}`, (succeeded.get(`stage:${a.t}`) ?? 0) + 1);
  return answers;
}

async function act(w: World, a: Action, target: string | undefined): Promise<Answer[]> {
  const post = (token: string, url: string, body: unknown = {}, headers: Record<string, string> = {}) =>
    call(t.app, 'POST', url, { token, body, headers, remoteAddress: randomAddress() });
  switch (a.t) {
    case 'propose': {
      const customer = pick(w.customers, a.customer)!;
      const seller = pick(w.sellers, a.seller)!;
      const project = await createProject(t.database.db, customer.row.id);
      const stages = a.amounts.map((amount, i) => ({
        title: `Этап ${i + 1}`,
        deliverable: 'Результат этапа',
        amount,
        days: 1 + (i % 2),
      }));
      const terms = {
        price: a.amounts.reduce((x, y) => x + y, 0),
        days: stages.reduce((x, y) => x + y.days, 0),
        stages,
      };
      const bid = await post(seller.token, `/api/projects/${project.id}/bids`, {
        ...terms,
        comment: 'Сделаю по этапам, с отчётом после каждого этапа работы.',
      });
      const bidId = (bid.body.result as { _id?: string } | undefined)?._id;
      if (bid.status !== 200 || !bidId) return [bid];
      const accepted = await post(customer.token, `/api/bids/${bidId}/accept`, terms);
      const headId = (accepted.body.result as { order_id?: string } | undefined)?.order_id;
      if (accepted.status === 200 && headId) {
        const rows = await t.database.db
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.headId, headId))
          .orderBy(orders.stage);
        w.heads.push(headId);
        for (const r of rows) {
          w.orders.push(r.id);
          w.stages.add(r.id);
        }
      }
      return [bid, accepted];
    }
    case 'order': {
      const customer = pick(w.customers, a.customer)!;
      const service = pick(w.services, a.seller)!;
      const res = await post(customer.token, '/api/orders', { service_id: service.id });
      const id = (res.body.result as { _id?: string } | undefined)?._id;
      // The same choice again gives the customer's draft back (ADR 042): one entry per order.
      if (res.status === 200 && id && !w.orders.includes(id)) w.orders.push(id);
      return [res];
    }
    case 'pay': {
      const id = target;
      if (!id) return [];
      const { customer } = await partiesOf(w, id);
      // The same key: a retry of one attempt (must answer the same); a new key: another tab (must not pay twice).
      const key = a.sameKey ? (payKeys.get(id) ?? randomUUID()) : randomUUID();
      payKeys.set(id, key);
      return [
        await post(
          customer.token,
          '/api/payments/pay',
          { order_id: id, method: 'balance' },
          { 'idempotency-key': key },
        ),
      ];
    }
    case 'deliver':
    case 'revision':
    case 'accept': {
      const id = target;
      if (!id) return [];
      const { customer, seller } = await partiesOf(w, id);
      const body =
        a.t === 'deliver'
          ? { message: 'Готово, проверьте, пожалуйста.', files: [] }
          : a.t === 'revision'
            ? { message: 'Поправьте цвета, пожалуйста.' }
            : {};
      return [await post((a.t === 'deliver' ? seller : customer).token, `/api/orders/${id}/${a.t}`, body)];
    }
    case 'cancel': {
      const id = target;
      if (!id) return [];
      const { customer, seller } = await partiesOf(w, id);
      return [
        await post((a.bySeller ? seller : customer).token, `/api/orders/${id}/cancel`, {
          reason: 'Не сошлись в деталях',
        }),
      ];
    }
    case 'withdraw': {
      const person = pick(w.everyone, a.person)!;
      const res = await post(person.token, '/api/withdrawals', { amount: a.amount, ...CARD });
      const id = (res.body.result as { _id?: string } | undefined)?._id;
      if (res.status === 200 && id) w.withdrawals.push(id);
      return [res];
    }
    case 'dispute': {
      const id = target;
      if (!id) return [];
      const { customer, seller } = await partiesOf(w, id);
      const opener = a.bySeller ? seller : customer;
      // Any reason: one of the other side's is a 400 (ADR 039), never a 5xx.
      const reason = DISPUTE_REASONS[a.reason];
      const res = await post(opener.token, '/api/disputes/', {
        order_id: id,
        reason,
        description: 'Не можем договориться о результате работы.',
      });
      const disputeId = (res.body.result as { _id?: string } | undefined)?._id;
      if (res.status === 200 && disputeId) w.disputes.push({ id: disputeId, opener });
      return [res];
    }
    case 'cancelDispute': {
      const dispute = await openDispute(w, a.dispute);
      if (!dispute) return [];
      return [await call(t.app, 'DELETE', `/api/disputes/${dispute.id}`, { token: dispute.opener.token })];
    }
    case 'resolve': {
      const dispute = await openDispute(w, a.dispute);
      if (!dispute) return [];
      const body =
        a.percent === 0
          ? { outcome: 'refund' }
          : a.percent === 100
            ? { outcome: 'release' }
            : { outcome: 'split', seller_percent: a.percent };
      // Twice at once: two admins' tabs; one decision, the other a 409.
      return Promise.all(
        (a.twice ? [1, 2] : [1]).map(() => post(w.admin.token, `/api/admin/disputes/${dispute.id}/resolve`, body)),
      );
    }
    case 'topUp': {
      const customer = pick(w.customers, a.customer)!;
      const last = topUpKeys.get(customer.row.id);
      // The same key and body: a retry of one attempt (the same payment); otherwise a new top-up.
      const { key, amount } = a.sameKey && last ? last : { key: randomUUID(), amount: a.amount };
      topUpKeys.set(customer.row.id, { key, amount });
      const res = await post(
        customer.token,
        '/api/payments/top-up',
        { amount, method: 'card' },
        { 'idempotency-key': key },
      );
      const id = (res.body.result as { payment_id?: string } | undefined)?.payment_id;
      // Paid or declined at the sandbox's page: its webhook goes out when the outbox runs.
      if (res.status === 200 && id && a.decision !== 'none')
        await t.app.services.payments.sandboxDecide(id, a.decision);
      return [res];
    }
    case 'wait': {
      clock.advance(a.ms);
      await t.app.services.platform.dispatcher.runDue();
      return [];
    }
    case 'decide': {
      const id = pick(w.withdrawals, a.withdrawal);
      if (!id) return [];
      const res = await post(
        w.admin.token,
        `/api/admin/withdrawals/${id}/${a.approve ? 'approve' : 'reject'}`,
        a.approve ? {} : { reason: 'Реквизиты не совпадают с владельцем' },
      );
      return [res];
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The invariants.

async function transferKeys(prefix: string): Promise<string[]> {
  const rows = await t.database.db
    .select({ key: ledgerTransfers.key })
    .from(ledgerTransfers)
    .where(like(ledgerTransfers.key, `${prefix}%`));
  return rows.map((r) => r.key);
}

async function escrowOf(orderId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.code, `escrow:${orderId}`));
  return row?.balance ?? 0;
}

/** Every head is its stages' roll-up (ADR 065): checked after every batch, since a later step would hide a missed one. */
async function checkRollUps(w: World) {
  if (!w.heads.length) return;
  const rows = await t.database.db
    .select()
    .from(orders)
    .where(inArray(orders.id, [...w.heads, ...w.stages]));
  for (const h of rows.filter((o) => w.heads.includes(o.id))) {
    const stages = rows.filter((o) => o.headId === h.id);
    expect(stages.length, `head ${h.id}: its stages`).toBeGreaterThanOrEqual(2);
    const { status, paidAt, deadlineAt, deliveredAt, completedAt, cancelledAt, cancelledBy, cancelReason } = h;
    expect(
      { status, paidAt, deadlineAt, deliveredAt, completedAt, cancelledAt, cancelledBy, cancelReason },
      `head ${h.id}: the roll-up`,
    ).toEqual(headState(stages));
  }
}

/** Referral rewards the final states explain, over all runs: the property must have paid some. */
let rewardsPaid = 0;
/** Orders in stages that completed, over all runs. */
let stagedCompleted = 0;

async function checkInvariants(w: World, answers: Answer[]) {
  const rates = {
    buyerBp: await t.app.services.settings.get('referrals.buyerBp'),
    sellerBp: await t.app.services.settings.get('referrals.sellerBp'),
  };
  const errors = answers.filter((a) => a.status >= 500);
  expect(
    errors.map((a) => a.body.message),
    'no answer is a 5xx',
  ).toEqual([]);

  expect((await checkLedger(t.database.db)).problems, 'ledger:check').toEqual([]);

  const rows = w.orders.length ? await t.database.db.select().from(orders).where(inArray(orders.id, w.orders)) : [];
  const expected = new Map<string, { available: number; held: number }>(
    w.everyone.map((p) => [p.row.id, { available: 0, held: 0 }]),
  );
  for (const c of w.customers) expected.get(c.row.id)!.available += TOP_UP;
  // Top-ups (ADR 062): each paid one credited once, with its amount; a pending or declined one, nothing.
  const topUps = await t.database.db
    .select()
    .from(payments)
    .where(
      and(
        isNull(payments.orderId),
        inArray(
          payments.customerId,
          w.customers.map((c) => c.row.id),
        ),
      ),
    );
  for (const p of topUps) {
    const credited = (await transferKeys(`payment:${p.id}`)).length;
    expect([p.status, credited], `top-up ${p.id}`).toEqual(p.status === 'succeeded' ? ['succeeded', 1] : [p.status, 0]);
    expect(['pending', 'succeeded', 'failed'], `top-up ${p.id}: a state`).toContain(p.status);
    if (p.status === 'succeeded') {
      expected.get(p.customerId)!.available += p.amount;
      topUpsCredited++;
    }
  }

  // One unpaid order per customer and service at most: «Заказать» again gives the draft back (ADR 042).
  const drafts = rows
    .filter((o) => o.status === 'awaiting_payment' && !o.headId)
    .map((o) => `${o.customerId}:${o.serviceId}`);
  expect(drafts.length, 'one draft per customer and service').toBe(new Set(drafts).size);

  const windowMinutes = await t.app.services.settings.get('orders.cancelWindowMinutes');
  const decided = rows.length
    ? await t.database.db
        .select()
        .from(disputes)
        .where(
          inArray(
            disputes.orderId,
            rows.map((o) => o.id),
          ),
        )
    : [];
  for (const o of rows) {
    const paid = (await transferKeys(`escrow:${o.id}`)).length;
    const keys = await transferKeys(`settle:${o.id}`);
    const settled = keys.filter((k) => k === `settle:${o.id}`).length;
    const escrow = await escrowOf(o.id);
    const where = `order ${o.id} (${o.status})`;
    expect(paid, `${where}: paid at most once`).toBeLessThanOrEqual(1);
    expect(settled, `${where}: settled at most once`).toBeLessThanOrEqual(1);
    const mine = decided.filter((d) => d.orderId === o.id);
    const resolved = mine.filter((d) => d.status === 'resolved');
    expect(resolved.length, `${where}: one decision at most`).toBeLessThanOrEqual(1);
    expect(mine.filter((d) => d.status === 'open').length, `${where}: one open dispute at most`).toBe(
      o.status === 'disputed' ? 1 : 0,
    );
    const decision = resolved[0];
    // Time in a withdrawn dispute moved the deadline on (ADR 039).
    if (o.paidAt) {
      const disputed = mine
        .filter((d) => d.status === 'cancelled')
        .reduce((sum, d) => sum + (d.cancelledAt!.getTime() - d.createdAt.getTime()), 0);
      expect(o.deadlineAt!.getTime() - o.paidAt.getTime(), `${where}: the deadline`).toBe(o.days * DAY + disputed);
    }
    // The customer alone cancels a paid order only within the window or once the seller is late, never after a
    // delivery (no cancellation is proposed here, so every cancel by the customer was their own).
    if (o.status === 'cancelled' && o.cancelledBy === o.customerId && paid) {
      const inWindow = o.cancelledAt!.getTime() < o.paidAt!.getTime() + windowMinutes * MIN;
      expect(
        inWindow || o.cancelledAt! >= o.deadlineAt!,
        `${where}: cancelled by the customer in the window or late`,
      ).toBe(true);
      expect(o.deliveredAt, `${where}: cancelled by the customer after a delivery`).toBeNull();
    }
    // The seller's share of the escrow: the whole price on completion, a decision's share after a dispute.
    const share = decision ? decision.sellerAmount! : o.status === 'completed' ? o.price : 0;
    if (decision) {
      expect(decision.sellerAmount! + decision.customerAmount!, `${where}: the decision splits the price`).toBe(
        o.price,
      );
      expect(o.status, `${where}: the decision's final state`).toBe(share > 0 ? 'completed' : 'cancelled');
    }
    // A split's refund is a transfer of its own, in the decision's transaction.
    expect(keys.length - settled, `${where}: a split's refund`).toBe(decision && share > 0 && share < o.price ? 1 : 0);
    switch (o.status) {
      case 'awaiting_payment':
        expect([paid, settled, escrow], where).toEqual([0, 0, 0]);
        break;
      case 'in_progress':
      case 'delivered':
      case 'disputed':
        expect([paid, settled, escrow], where).toEqual([1, 0, o.price]);
        expect(o.paidAt, where).not.toBeNull();
        break;
      case 'completed':
        expect([paid, settled, escrow], where).toEqual([1, 1, 0]);
        break;
      case 'cancelled':
        // Cancelled before payment: nothing moved; after: refunded once.
        expect([settled, escrow], where).toEqual([paid, 0]);
        break;
      default:
        throw new Error(`${where}: a state no action leads to`);
    }
    const customer = expected.get(o.customerId)!;
    const seller = expected.get(o.sellerId)!;
    if (paid) customer.available -= o.price;
    if (o.status === 'cancelled' && paid) customer.available += o.price;
    if (o.status === 'completed') {
      const commission = Math.round((share * o.commissionBp) / 10_000);
      seller.available += share - commission;
      customer.available += o.price - share;
      // The buyer's referrer first, then the seller's, together never above the commission (ADR 025).
      let left = commission;
      for (const [personId, bp] of [
        [o.customerId, rates.buyerBp],
        [o.sellerId, rates.sellerBp],
      ] as const) {
        const ref = w.referredBy.get(personId);
        if (!ref?.within) continue;
        const reward = Math.min(Math.round((share * bp) / 10_000), left);
        left -= reward;
        expected.get(ref.referrer)!.available += reward;
        if (reward > 0) rewardsPaid++;
      }
    }
  }
  expect(await balanceOf(t.database.db, { kind: 'referral_expense' }), 'the referral clearing account').toBe(0);

  // Orders in stages (ADR 065): a head is its stages' roll-up, never paid or settled itself; stages funded in order.
  const heads = w.heads.length ? await t.database.db.select().from(orders).where(inArray(orders.id, w.heads)) : [];
  for (const h of heads) {
    const stages = rows.filter((o) => o.headId === h.id).sort((x, y) => x.stage! - y.stage!);
    const where = `head ${h.id} (${h.status})`;
    const named = await t.database.db
      .select({ key: ledgerTransfers.key })
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.orderId, h.id));
    expect(named, `${where}: no transfer names a head`).toEqual([]);
    expect(await escrowOf(h.id), `${where}: no escrow`).toBe(0);
    for (const s of stages.filter((x) => x.paidAt)) {
      for (const earlier of stages.filter((x) => x.stage! < s.stage!)) {
        const ready = earlier.paidAt
          ? earlier.paidAt <= s.paidAt!
          : earlier.status === 'cancelled' && earlier.cancelledAt! <= s.paidAt!;
        expect(ready, `${where}: stage ${s.stage} funded after stage ${earlier.stage} was funded or dropped`).toBe(
          true,
        );
      }
    }
    if (h.status === 'completed') stagedCompleted++;
  }

  const ws = w.withdrawals.length
    ? await t.database.db.select().from(withdrawals).where(inArray(withdrawals.id, w.withdrawals))
    : [];
  for (const wd of ws) {
    const mine = expected.get(wd.userId)!;
    if (wd.status === 'pending') {
      mine.available -= wd.amount;
      mine.held += wd.amount;
    } else if (wd.status === 'approved') mine.available -= wd.amount;
  }

  for (const p of w.everyone) {
    expect(await balancesOf(t.database.db, p.row.id), `balances of ${p.row.id}`).toEqual(expected.get(p.row.id));
  }
}

describe('the money loop under random concurrent use', () => {
  it(`keeps every invariant (seed ${SEED}, ${RUNS} runs, more rounds until every action kind went through)`, async () => {
    const property = fc.asyncProperty(
      fc.array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 10, maxLength: 24 }),
      async (batches) => {
        const w = await world();
        const answers: Answer[] = [];
        for (const batch of batches) {
          const results = await Promise.all(batch.map((a) => run(w, a)));
          results.forEach((res, i) => {
            answers.push(...res);
            const name =
              batch[i]!.t === 'decide' ? `decide:${(batch[i] as { approve: boolean }).approve}` : batch[i]!.t;
            if (res.some((r) => r.status === 200)) succeeded.set(name, (succeeded.get(name) ?? 0) + 1);
          });
          await checkRollUps(w);
        }
        await checkInvariants(w, answers);
      },
    );
    const kinds = [
      'order',
      'pay',
      'deliver',
      'revision',
      'accept',
      'cancel',
      'withdraw',
      'decide:true',
      'decide:false',
      'dispute',
      'cancelDispute',
      'resolve',
      'topUp',
      'propose',
    ];
    // And on stages: funded, delivered, accepted, dropped or cancelled, disputed (resolve names a dispute, not a stage).
    kinds.push('stage:pay', 'stage:deliver', 'stage:accept', 'stage:cancel', 'stage:dispute');
    const missing = () => kinds.filter((k) => !succeeded.get(k));
    // The seed fixes the actions, not how concurrent requests interleave (PGlite and PostgreSQL, a busy machine):
    // an action kind that happened to fail every time gets up to seven more rounds of the same size, each checked
    // (CI once saw «revision» fail through four: it needs a delivery that no concurrent accept or cancel overtook).
    for (let round = 0; round < 8 && (round === 0 || missing().length > 0); round++) {
      await fc.assert(property, { seed: SEED + round, numRuns: RUNS, endOnFailure: true });
    }
    // Not a vacuous pass: every kind of action went through at least once.
    expect(rewardsPaid, 'referral rewards paid').toBeGreaterThan(0);
    expect(topUpsCredited, 'top-ups credited').toBeGreaterThan(0);
    console.info(
      `money property: ${stagedCompleted} orders in stages completed; actions that went through: ${JSON.stringify(Object.fromEntries(succeeded))}`,
    );
    expect(missing(), JSON.stringify(Object.fromEntries(succeeded))).toEqual([]);
  }, 240_000);
});
