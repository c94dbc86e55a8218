import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { orders } from './schema.ts';
import { users } from '../users/schema.ts';
import { call } from '../../test/api.ts';
import type { Person } from '../../test/app.ts';
import { payOrderForTest } from './testing.ts';
import { ORDER_MESSAGES } from '#contract/orders';

// Orders in stages (ADR 065): the database keeps a head's price and days the sums of its stages' and the stages'
// parties the head's, checked at commit whatever code wrote them.

const server = useTestApp({}, { dispatch: false });

type Parties = { customerId: string; sellerId: string; customer?: Person; seller?: Person };

async function parties(): Promise<Required<Parties>> {
  const seller = await server.person({ role: 'seller' });
  const customer = await server.person();
  return { customerId: customer.user.id, sellerId: seller.user.id, customer, seller };
}

const row = (p: Parties, price: number, days: number, extra: Partial<typeof orders.$inferInsert> = {}) => ({
  customerId: p.customerId,
  sellerId: p.sellerId,
  title: 'Сайт',
  price,
  days,
  revisionsLeft: 1,
  revisionsTotal: 1,
  commissionBp: 1000,
  ...extra,
});

/** A head and its stages written in one transaction; the sums hold only once the last stage is in. */
async function writeHead(
  p: Parties,
  head: { price: number; days: number },
  stages: Array<{ price: number; days: number; parties?: Parties }>,
) {
  const headId = crypto.randomUUID();
  await server.db.transaction(async (tx) => {
    await tx.insert(orders).values(row(p, head.price, head.days, { id: headId }));
    for (const [i, s] of stages.entries()) {
      await tx.insert(orders).values(
        row(s.parties ?? p, s.price, s.days, {
          headId,
          stage: i + 1,
          stageTitle: `Этап ${i + 1}`,
          stageDeliverable: 'Макеты',
        }),
      );
    }
  });
  return headId;
}

/** The database's own words of a failure (drizzle wraps them as the cause of "Failed query"). */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return `${err.message} ${err.cause?.message ?? ''}`;
  }
  throw new Error('expected a refusal');
}

const count = async (headId: string) => (await server.db.select().from(orders).where(eq(orders.headId, headId))).length;

describe('orders in stages: the database', () => {
  it('commits a head whose stages sum to its price and days', async () => {
    const p = await parties();
    const headId = await writeHead(p, { price: 300_000, days: 10 }, [
      { price: 100_000, days: 3 },
      { price: 200_000, days: 7 },
    ]);
    expect(await count(headId)).toBe(2);
  });

  it('refuses at commit a head whose stages do not sum to its price, or to its days', async () => {
    const p = await parties();
    expect(
      await refusal(
        writeHead(p, { price: 300_000, days: 10 }, [
          { price: 100_000, days: 3 },
          { price: 199_999, days: 7 },
        ]),
      ),
    ).toMatch(/not the sum of its stages/);
    expect(
      await refusal(
        writeHead(p, { price: 300_000, days: 10 }, [
          { price: 100_000, days: 3 },
          { price: 200_000, days: 8 },
        ]),
      ),
    ).toMatch(/not the sum of its stages/);
    expect(await server.db.select().from(orders).where(eq(orders.customerId, p.customerId))).toEqual([]);
  });

  it('refuses a later change that breaks the sum, and one of a stage alone', async () => {
    const p = await parties();
    const headId = await writeHead(p, { price: 300_000, days: 10 }, [
      { price: 100_000, days: 3 },
      { price: 200_000, days: 7 },
    ]);
    expect(
      await refusal(
        server.db
          .update(orders)
          .set({ price: 150_000 })
          .where(and(eq(orders.headId, headId), eq(orders.stage, 1))),
      ),
    ).toMatch(/not the sum/);
    expect(await refusal(server.db.update(orders).set({ days: 11 }).where(eq(orders.id, headId)))).toMatch(
      /not the sum/,
    );
    // Moving money between stages keeps the sum: allowed.
    await server.db.transaction(async (tx) => {
      await tx
        .update(orders)
        .set({ price: 150_000 })
        .where(and(eq(orders.stage, 1), eq(orders.headId, headId)));
      await tx
        .update(orders)
        .set({ price: 150_000 })
        .where(and(eq(orders.stage, 2), eq(orders.headId, headId)));
    });
    const stages = await server.db.select().from(orders).where(eq(orders.headId, headId));
    expect(stages.map((s) => s.price)).toEqual([150_000, 150_000]);
  });

  it('refuses a stage with other parties than its head', async () => {
    const p = await parties();
    const other = await parties();
    const refused = await refusal(
      writeHead(p, { price: 300_000, days: 10 }, [
        { price: 100_000, days: 3 },
        { price: 200_000, days: 7, parties: { customerId: p.customerId, sellerId: other.sellerId } },
      ]),
    );
    expect(refused).toMatch(/other parties than the head/);
    expect(await server.db.select().from(orders).where(eq(orders.customerId, p.customerId))).toEqual([]);
  });

  it('keeps head_id and stage both set or both unset, and one row per stage number', async () => {
    const p = await parties();
    expect(await refusal(server.db.insert(orders).values(row(p, 100_000, 3, { stage: 1 })))).toMatch(/orders_stage/);
    const headId = await writeHead(p, { price: 300_000, days: 10 }, [
      { price: 100_000, days: 3 },
      { price: 200_000, days: 7 },
    ]);
    expect(await refusal(server.db.insert(orders).values(row(p, 100_000, 3, { headId })))).toMatch(/orders_stage/);
    expect(await refusal(server.db.insert(orders).values(row(p, 100_000, 3, { headId, stage: 21 })))).toMatch(
      /orders_stage/,
    );
    expect(await refusal(server.db.insert(orders).values(row(p, 100_000, 3, { headId, stage: 2 })))).toMatch(
      /orders_head_stage_idx/,
    );
  });
});

describe('orders in stages: the roll-up', () => {
  const post = (who: Person, url: string, body: unknown = {}) =>
    call(server.app, 'POST', url, { token: who.token, body });
  const orderRow = async (id: string) => (await server.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const stageIds = async (headId: string) =>
    (await server.db.select().from(orders).where(eq(orders.headId, headId)).orderBy(orders.stage)).map((s) => s.id);

  it('follows each stage through the real steps, in their transactions', async () => {
    const p = await parties();
    const headId = await writeHead(p, { price: 300_000, days: 10 }, [
      { price: 100_000, days: 3 },
      { price: 200_000, days: 7 },
    ]);
    const [first, second] = await stageIds(headId);
    expect((await orderRow(headId)).status).toBe('awaiting_payment');

    await payOrderForTest(server.app, first!);
    const paid = await orderRow(first!);
    expect(await orderRow(headId)).toMatchObject({
      status: 'in_progress',
      paidAt: paid.paidAt,
      deadlineAt: paid.deadlineAt,
    });

    const delivered = await post(p.seller, `/api/orders/${first}/deliver`, { message: 'Макеты готовы', files: [] });
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    expect(await orderRow(headId)).toMatchObject({
      status: 'delivered',
      deliveredAt: (await orderRow(first!)).deliveredAt,
    });

    // The head is its stages' roll-up: no step is taken on it by hand.
    const onHead = await post(p.customer, `/api/orders/${headId}/accept`);
    expect(onHead.status, JSON.stringify(onHead.body)).toBe(409);
    expect((onHead.body as { message: string }).message).toBe(ORDER_MESSAGES.headByStages);
    expect((await orderRow(headId)).status).toBe('delivered');

    const accepted = await post(p.customer, `/api/orders/${first}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    // Stage 1 completed, stage 2 not funded yet: the work goes on.
    expect(await orderRow(headId)).toMatchObject({ status: 'in_progress', completedAt: null });

    const cancelHead = await post(p.customer, `/api/orders/${headId}/cancel`, { reason: 'Всё отменить' });
    expect(cancelHead.status, JSON.stringify(cancelHead.body)).toBe(409);
    expect((await orderRow(headId)).status).toBe('in_progress');

    const dropped = await post(p.customer, `/api/orders/${second}/cancel`, { reason: 'Второй этап не нужен' });
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200);
    const head = await orderRow(headId);
    expect(head).toMatchObject({
      status: 'completed',
      completedAt: (await orderRow(first!)).completedAt,
      cancelledAt: null,
    });
    // The seller's completed orders count the job once, not each stage.
    const [seller] = await server.db.select({ completed: users.completedOrders }).from(users).where(eq(users.id, p.sellerId));
    expect(seller!.completed).toBe(1);
  });
});

describe('orders in stages: the lists', () => {
  type Listed = { _id: string }[];
  const get = <T>(who: Person, url: string, query: Record<string, string> = {}) => call<T>(server.app, 'GET', url, { token: who.token, query });

  it('never show a stage: the parties’ and the admin’s lists, their totals, the dashboards and the admin overview', async () => {
    const p = await parties();
    const admin = await server.person({ role: 'admin' });
    type Overview = { totals: { orders: number }; orders_by_status: { status: string; count: number }[] };
    const overview = async () => {
      const o = (await get<Overview>(admin, '/api/admin/overview', { period: '7' })).body.result;
      return { placed: o.totals.orders, inProgress: o.orders_by_status.find((s) => s.status === 'in_progress')?.count ?? 0 };
    };
    const before = await overview();
    const headId = await writeHead(p, { price: 300_000, days: 10 }, [
      { price: 100_000, days: 3 },
      { price: 200_000, days: 7 },
    ]);
    const [first] = (await server.db.select().from(orders).where(eq(orders.headId, headId)).orderBy(orders.stage)).map((s) => s.id);
    // Paid, so that the head is no draft and its seller lists it too.
    await payOrderForTest(server.app, first!);

    for (const [who, role] of [
      [p.customer, 'buying'],
      [p.seller, 'selling'],
    ] as const) {
      const list = await get<Listed>(who, '/api/orders', { role });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.result.map((o) => o._id)).toEqual([headId]);
      expect(list.body.total).toBe(1);
      const inProgress = await get<Listed>(who, '/api/orders', { role, status: 'in_progress' });
      expect(inProgress.body.result.map((o) => o._id)).toEqual([headId]);
      expect(inProgress.body.total).toBe(1);
    }
    // The admin finds the head by its number, and nothing by a stage's.
    const numberOf = async (id: string) => (await server.db.select().from(orders).where(eq(orders.id, id)))[0]!.number;
    const byHead = await get<Listed>(admin, '/api/admin/orders', { q: `№${await numberOf(headId)}` });
    expect(byHead.status, JSON.stringify(byHead.body)).toBe(200);
    expect(byHead.body.result.map((o) => o._id)).toEqual([headId]);
    const byStage = await get<Listed>(admin, '/api/admin/orders', { q: `№${await numberOf(first!)}` });
    expect(byStage.body.result.filter((o) => o._id === first)).toEqual([]);

    for (const [who, role] of [
      [p.customer, 'customer'],
      [p.seller, 'seller'],
    ] as const) {
      const dashboard = await get<{ totals: { orders: number }; by_status: { status: string; count: number }[] }>(who, '/api/dashboard', { period: '7', role });
      expect(dashboard.status, JSON.stringify(dashboard.body)).toBe(200);
      expect(dashboard.body.result.totals.orders).toBe(1);
      expect(dashboard.body.result.by_status.filter((s) => s.count > 0)).toEqual([{ status: 'in_progress', count: 1 }]);
    }
    // The admin's overview counts the head once: one more order than before, not three.
    expect(await overview()).toEqual({ placed: before.placed + 1, inProgress: before.inProgress + 1 });
  });
});
