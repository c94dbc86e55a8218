import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call, register, registration } from '../../test/api.ts';
import { createService } from '../../db/catalog-factories.ts';
import { serviceViewsDaily } from '../services/schema.ts';
import { users } from '../users/schema.ts';
import { orders } from '../orders/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { balancesOf, checkLedger } from '../ledger/index.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { dayOf, daysUpTo, type Dashboard, type ReferralPage } from '#contract/dashboard';
import type { OrderDetail } from '#contract/orders';

// Issue 13: the dashboard's figures per period, from the ledger, the orders and the daily views; the referral
// page's people (no private data) and rewards (the ledger's own postings); a reward is money like any other.

const DAY = 86_400_000;
// The ledger's rows are stamped by the database's clock: the platform's clock starts at the same moment.
const clock = manualClock(Date.now());
const server = useTestApp({}, { dispatch: false, clock });

const person = server.person;
const get = <T>(who: Person | null, url: string, query?: Record<string, string>) => call<T>(server.app, 'GET', url, { token: who?.token, query });
const post = <T = OrderDetail>(who: Person, url: string, body: unknown = {}) => call<T>(server.app, 'POST', url, { token: who.token, body });
const dashboard = async (who: Person, period: string, role: string) => {
  const res = await get<Dashboard>(who, '/api/dashboard', { period, role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};
const referrals = async (who: Person) => {
  const res = await get<ReferralPage>(who, '/api/referrals/my');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};

async function order(customer: Person, serviceId: string): Promise<OrderDetail> {
  const res = await post(customer, '/api/orders', { service_id: serviceId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}
/** Ordered, paid, delivered and accepted: the settlement posts the seller's pay and the referral rewards. */
async function completed(customer: Person, seller: Person, serviceId: string): Promise<OrderDetail> {
  const o = await order(customer, serviceId);
  await payOrderForTest(server.app, o._id);
  expect((await post(seller, `/api/orders/${o._id}/deliver`, { message: 'Готово' })).status).toBe(200);
  const accepted = await post(customer, `/api/orders/${o._id}/accept`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return accepted.body.result;
}

/** A person registered through the real registration with `code`, email confirmed so they may order. */
async function registeredWith(code: string, role: 'customer' | 'seller' = 'customer'): Promise<Person & { email: string }> {
  const body = registration({ referralCode: code, role, name: 'Марина', surname: 'Кузнецова' });
  expect((await register(server.app, body)).status).toBe(200);
  const [user] = await server.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, body.email)).returning();
  return { user: user!, token: await server.app.services.tokens.sign(user!), email: body.email };
}

describe('the dashboard', () => {
  it('converts only paid, not cancelled orders into the conversion, and never above 100 % (issue 25)', async () => {
    const seller = await person({ role: 'seller' });
    const customer = await person();
    const service = await createService(server.db, seller.user.id, { price: 100_000, days: 3 });
    const today = dayOf(clock.now());
    await server.db.insert(serviceViewsDaily).values({ serviceId: service.id, day: today, views: 2 });
    await completed(customer, seller, service.id);
    await order(customer, service.id); // awaiting payment
    await order(customer, service.id); // awaiting payment
    const unpaid = await order(customer, service.id);
    await server.db.update(orders).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(orders.id, unpaid._id));
    const refunded = await order(customer, service.id);
    await payOrderForTest(server.app, refunded._id);
    await server.db.update(orders).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(orders.id, refunded._id));
    // Counted as orders on two views, these were «Конверсия 250 %»: one of them is a sale. The unpaid drafts (one,
    // given back on each «Заказать», then cancelled) are not the seller's at all (ADR 042); the refunded one is
    // theirs but no sale.
    expect((await dashboard(seller, '7', 'seller')).totals).toMatchObject({ orders: 2, views: 2, service_orders: 1, conversion: 0.5 });
    // Two sales on one view: 100 %, not 200 %.
    await completed(customer, seller, service.id);
    await server.db.update(serviceViewsDaily).set({ views: 1 }).where(eq(serviceViewsDaily.serviceId, service.id));
    expect((await dashboard(seller, '7', 'seller')).totals).toMatchObject({ orders: 3, views: 1, service_orders: 2, conversion: 1 });
  });

  it("adds up a seller's earnings, orders, views and conversion by day, and a customer's spending, per period", async () => {
    const seller = await person({ role: 'seller' });
    const customer = await person();
    const service = await createService(server.db, seller.user.id, { price: 200_000, days: 3 });
    const today = dayOf(clock.now());

    // Two visitors of the service page: the tally writes the day's row with the running total.
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      expect((await call(server.app, 'GET', `/api/services/${service.id}`, { remoteAddress: address })).status).toBe(200);
    }
    await server.app.services.serviceCatalog.flushViews();
    expect(await server.db.select().from(serviceViewsDaily).where(eq(serviceViewsDaily.serviceId, service.id))).toEqual([
      { serviceId: service.id, day: today, views: 2 },
    ]);
    // Older days, as earlier batches wrote them: 20 days ago (in 30 and 90, not 7) and 200 (the year only).
    const [, twentyAgo] = daysUpTo(today, 21);
    const [yearDay] = daysUpTo(today, 201);
    await server.db.insert(serviceViewsDaily).values([
      { serviceId: service.id, day: twentyAgo!, views: 5 },
      { serviceId: service.id, day: yearDay!, views: 40 },
    ]);

    const done = await completed(customer, seller, service.id);
    // Awaiting payment: the customer's, not yet the seller's (ADR 042).
    await order(customer, service.id);

    const week = await dashboard(seller, '7', 'seller');
    expect(week).toMatchObject({ role: 'seller', period: 7, to: today });
    expect(week.days).toHaveLength(7);
    const earned = (await balancesOf(server.db, seller.user.id)).available;
    expect(earned).toBe(200_000 - done.commission);
    expect(week.days.at(-1)).toEqual({ day: today, amount: earned, orders: 1, views: 2 });
    // The conversion counts the paid order only: 1 of 2 views (ADR 045); the draft is not the seller's (ADR 042).
    expect(week.totals).toEqual({ amount: earned, orders: 1, views: 2, service_orders: 1, conversion: 0.5 });
    expect(week.by_status).toEqual([{ status: 'completed', count: 1 }]);
    expect((await dashboard(seller, '30', 'seller')).totals).toMatchObject({ views: 7, conversion: 1 / 7 });
    expect((await dashboard(seller, '90', 'seller')).totals.views).toBe(7);
    const year = await dashboard(seller, '365', 'seller');
    expect(year.days).toHaveLength(365);
    expect(year.totals.views).toBe(47);

    // The customer: what went into escrow, the orders placed; no views.
    const spent = await dashboard(customer, '7', 'customer');
    expect(spent.totals).toEqual({ amount: 200_000, orders: 2, views: 0, service_orders: 0, conversion: null });
    // The seller has bought nothing; the customer has sold nothing.
    expect((await dashboard(seller, '7', 'customer')).totals.amount).toBe(0);
    expect((await dashboard(customer, '7', 'seller')).totals).toMatchObject({ amount: 0, orders: 0 });

    // Ten days later the week is empty and the month still has it all.
    clock.advance(10 * DAY);
    try {
      expect((await dashboard(seller, '7', 'seller')).totals).toEqual({ amount: 0, orders: 0, views: 0, service_orders: 0, conversion: null });
      expect((await dashboard(seller, '7', 'seller')).by_status).toEqual([]);
      expect((await dashboard(seller, '30', 'seller')).totals).toMatchObject({ amount: earned, orders: 1, views: 7 });
      expect((await dashboard(customer, '30', 'customer')).totals.amount).toBe(200_000);
    } finally {
      clock.advance(-10 * DAY);
    }
  });

  it('refuses an unknown period with a Russian message, and answers nobody without a token', async () => {
    const someone = await person();
    const res = await get<unknown>(someone, '/api/dashboard', { period: '14' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Период — 7, 30, 90 или 365 дней');
    expect((await get(null, '/api/dashboard')).status).toBe(401);
    expect((await get(null, '/api/referrals/my')).status).toBe(401);
  });
});

describe('the referral page', () => {
  it('lists the people brought without private data, and the rewards exactly as the ledger posted them', async () => {
    // The seller brings a customer through the real registration, who then buys from them.
    const seller = await person({ role: 'seller' });
    const service = await createService(server.db, seller.user.id, { price: 2_000_000, days: 3 });
    const brought = await registeredWith(seller.user.referralCode);
    const before = (await balancesOf(server.db, seller.user.id)).available;
    const done = await completed(brought, seller, service.id);
    const credited = (await balancesOf(server.db, seller.user.id)).available - before;
    const reward = Math.round((2_000_000 * 350) / 10_000);
    expect(credited).toBe(2_000_000 - done.commission + reward);

    const page = await referrals(seller);
    expect(page.code).toBe(seller.user.referralCode);
    expect(page.terms).toEqual({ buyer_bp: 350, seller_bp: 250, months: 12 });
    expect(page.people).toEqual([
      {
        _id: brought.user.id,
        name: 'Марина К.',
        avatar: null,
        role: 'customer',
        joined_at: brought.user.createdAt.toISOString(),
        rewards_until: expect.any(String),
        earned: reward,
      },
    ]);
    expect(new Date(page.people[0]!.rewards_until).getUTCFullYear()).toBe(brought.user.createdAt.getUTCFullYear() + 1);
    expect(page.earnings).toEqual([
      {
        seq: expect.any(Number),
        created_at: expect.any(String),
        order_number: done.number,
        price: 2_000_000,
        rate_bp: 350,
        amount: reward,
        person: { _id: brought.user.id, name: 'Марина К.' },
        side: 'customer',
      },
    ]);
    expect(page.totals).toEqual({ people: 1, orders: 1, amount: reward, month: reward });
    // Nothing private of the person: no email, no login, no full surname.
    const text = JSON.stringify(page);
    for (const secret of [brought.email, brought.user.userName, 'Кузнецова']) expect(text).not.toContain(secret);

    // The seller's own earnings on the dashboard leave the reward out: it is on the referral page.
    expect((await dashboard(seller, '7', 'seller')).totals.amount).toBe(2_000_000 - done.commission);
    // The one brought has brought nobody.
    expect((await referrals(brought)).totals).toEqual({ people: 0, orders: 0, amount: 0, month: 0 });
  });

  it("tells the customer's and the seller's rewards apart when one referrer brought both", async () => {
    const referrer = await person();
    const seller = await registeredWith(referrer.user.referralCode, 'seller');
    const customer = await registeredWith(referrer.user.referralCode);
    const service = await createService(server.db, seller.user.id, { price: 1_000_000, days: 3 });
    const done = await completed(customer, seller, service.id);
    const page = await referrals(referrer);
    expect(page.earnings.map((e) => [e.side, e.person._id, e.rate_bp, e.amount, e.order_number])).toEqual(
      expect.arrayContaining([
        ['customer', customer.user.id, 350, 35_000, done.number],
        ['seller', seller.user.id, 250, 25_000, done.number],
      ]),
    );
    expect(page.earnings).toHaveLength(2);
    expect(page.totals).toMatchObject({ people: 2, orders: 1, amount: 60_000 });
    // The page's total is the referrer's balance: every kopeck of it came from these postings.
    expect((await balancesOf(server.db, referrer.user.id)).available).toBe(60_000);
    expect(Object.fromEntries(page.people.map((p) => [p._id, [p.role, p.earned]]))).toEqual({
      [seller.user.id]: ['seller', 25_000],
      [customer.user.id]: ['customer', 35_000],
    });
    expect((await checkLedger(server.db)).problems).toEqual([]);
  });

  it('puts a reward on the available balance, to be withdrawn like any other money', async () => {
    const referrer = await person();
    const seller = await person({ role: 'seller' });
    const customer = await registeredWith(referrer.user.referralCode);
    const service = await createService(server.db, seller.user.id, { price: 2_000_000, days: 3 });
    await completed(customer, seller, service.id);
    const reward = (await referrals(referrer)).totals.amount;
    expect(reward).toBe(70_000);
    expect(await balancesOf(server.db, referrer.user.id)).toEqual({ available: reward, held: 0 });
    const res = await call<{ status: string; amount: number }>(server.app, 'POST', '/api/withdrawals', {
      token: referrer.token,
      body: { amount: reward, method: 'card', payout_token: 'pt-dashboard', card: { first6: '411111', last4: '1111' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'pending', amount: reward });
    expect(await balancesOf(server.db, referrer.user.id)).toEqual({ available: 0, held: reward });
  });
});
