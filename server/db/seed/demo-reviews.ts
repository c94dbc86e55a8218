import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Services } from '../../app.ts';
import { users, type UserRow } from '../../modules/users/schema.ts';
import { services } from '../../modules/services/schema.ts';
import { orders } from '../../modules/orders/schema.ts';
import { reviews } from '../../modules/reviews/schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../../modules/ledger/index.ts';
import type { DemoAccount } from './demo.ts';

type Demo = Pick<Services, 'platform' | 'orders' | 'payments' | 'reviews'>;

const DAY_MS = 86_400_000;

/** Customers' reviews of the demo's past orders, by mark. */
const CUSTOMER_TEXTS: Record<number, string[]> = {
  5: [
    'Отличная работа! Всё сделано в срок, учтены все пожелания. Буду обращаться ещё.',
    'Очень доволен результатом: быстро, качественно, на связи в любое время.',
    'Превзошли ожидания. Предложили несколько вариантов, правки внесли в тот же день.',
    'Профессионал своего дела. Подробно объяснил, что и зачем делает, сдал раньше срока.',
    'Всё чётко и по делу. Рекомендую!',
  ],
  4: [
    'Хорошая работа, но пришлось один раз напомнить о сроках. В целом рекомендую.',
    'Результат понравился, правки внесли быстро. Хотелось бы чуть больше вариантов на старте.',
  ],
  3: ['Работа сделана, но с задержкой на два дня и после нескольких правок.'],
};
/** Sellers' reviews of their customers (the text is optional for them: some have none). */
const SELLER_TEXTS = ['Чёткое ТЗ и быстрая обратная связь. Приятно работать!', '', 'Отличный заказчик: вовремя отвечал и принимал работу.', ''];

/** The demo's history: [seller's login, marks of their customers' reviews] — anna_design reaches Продвинутый. */
const HISTORY: [string, number[]][] = [
  ['anna_design', [5, 5, 4, 5, 5, 5, 4, 5, 5, 5]],
  ['dmitry_dev', [5, 4, 5, 5]],
  ['olga_texts', [5, 4, 3]],
  ['ivan_seo', [4, 5]],
  ['maria_smm', [5]],
];
const BUYERS = ['sergey_shop', 'ekaterina_cafe', 'pavel_startup'];

/**
 * Reviews for the demo (issue 13), made through the real commands after seedDemoOrders:
 * - a history of completed orders of the demo customers (sergey_shop, ekaterina_cafe, pavel_startup) with the
 *   sellers, each reviewed by both parties (published pairs) and dated over the last months, so that the sellers have
 *   ratings, counts and levels (anna_design: 10 orders, Продвинутый); anna_design answers one of them;
 * - the demo customer's completed order: the demo seller has reviewed it (hidden, double-blind), the demo customer's
 *   review waits (/profile/reviews, «Ждут вашего отзыва»).
 * The demo seller takes no new order, so the demo's money (seedDemoOrders) stays as it was.
 */
export async function seedDemoReviews(demo: Demo, db: Db, accounts: Pick<DemoAccount, 'email' | 'role'>[]): Promise<void> {
  const people = await db.select().from(users);
  const byName = (userName: string) => people.find((u) => u.userName === userName) ?? fail(`demo reviews: no user ${userName}`);
  const byEmail = (email: string) => people.find((u) => u.email === email) ?? fail(`demo reviews: no user ${email}`);
  const emailOf = (role: string) => accounts.find((a) => a.role === role)?.email ?? fail(`demo reviews: no demo ${role}`);
  const sellers = HISTORY.map(([login]) => byName(login));
  const offered = await db
    .select()
    .from(services)
    .where(and(inArray(services.sellerId, sellers.map((s) => s.id)), eq(services.status, 'active')));
  const buyers = BUYERS.map(byName);

  // Who orders what: the buyers in turn, each seller's services in turn.
  const plan: { buyer: UserRow; seller: UserRow; serviceId: string; price: number; rating: number }[] = [];
  let turn = 0;
  for (const [login, marks] of HISTORY) {
    const seller = byName(login);
    const own = offered.filter((s) => s.sellerId === seller.id);
    if (own.length === 0) fail(`demo reviews: ${login} has no active service`);
    marks.forEach((rating, i) => {
      const service = own[i % own.length]!;
      plan.push({ buyer: buyers[turn++ % buyers.length]!, seller, serviceId: service.id, price: service.price, rating });
    });
  }

  // Each buyer's balance covers their orders exactly.
  for (const buyer of buyers) {
    const amount = plan.filter((p) => p.buyer.id === buyer.id).reduce((s, p) => s + p.price, 0);
    if (amount === 0) continue;
    await demo.platform.withTx(systemActor('demo.seed'), (ctx) =>
      postTransfer(ctx.tx, {
        kind: 'payment',
        key: `demo-top-up:${buyer.id}`,
        description: 'Пополнение баланса (демо)',
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -amount },
          { account: { kind: 'available', userId: buyer.id }, amount },
        ],
      }),
    );
  }

  const now = demo.platform.clock.now().getTime();
  const reviewed: { orderId: string; customerReview: string; at: Date }[] = [];
  for (const [i, p] of plan.entries()) {
    const orderId = (await demo.orders.create(p.buyer, { service_id: p.serviceId, package: null, extras: [] }))._id;
    await demo.payments.pay(p.buyer, { order_id: orderId, method: 'balance' });
    await demo.orders.deliver(p.seller, orderId, { message: 'Работа готова, файлы во вложении. Спасибо за заказ!', files: [] });
    await demo.orders.accept(p.buyer, orderId);
    const texts = CUSTOMER_TEXTS[p.rating] ?? CUSTOMER_TEXTS[5]!;
    const customerReview = await demo.reviews.create(p.buyer, orderId, { rating: p.rating, text: texts[i % texts.length]! });
    await demo.reviews.create(p.seller, orderId, { rating: 5, text: SELLER_TEXTS[i % SELLER_TEXTS.length]! });
    // Spread over the last 20 months, the newest first in the plan's order of each seller.
    reviewed.push({ orderId, customerReview: customerReview._id, at: new Date(now - (3 + ((i * 29) % 600)) * DAY_MS) });
  }
  // Dated as if written over the past months (their orders completed the same day).
  for (const r of reviewed) {
    await db.update(orders).set({ completedAt: r.at }).where(eq(orders.id, r.orderId));
    await db.update(reviews).set({ createdAt: r.at, publishedAt: r.at }).where(eq(reviews.orderId, r.orderId));
  }
  // One answered: anna_design thanks her first customer.
  const anna = byName('anna_design');
  const first = plan.findIndex((p) => p.seller.id === anna.id);
  await demo.reviews.answer(anna, reviewed[first]!.customerReview, { text: 'Спасибо за тёплый отзыв! Рада, что логотип понравился, обращайтесь.' });
  // The ratings as of the new dates (all within the window).
  await demo.platform.withTx(systemActor('demo.seed'), async (ctx) => {
    for (const p of plan) await demo.reviews.recompute(ctx, p.seller.id, p.serviceId);
  });

  // The demo customer's completed order: the demo seller's review is in, hidden until the customer's.
  const customer = byEmail(emailOf('customer'));
  const seller = byEmail(emailOf('seller'));
  const [completed] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.customerId, customer.id), eq(orders.sellerId, seller.id), eq(orders.status, 'completed')))
    .limit(1);
  if (!completed) fail('demo reviews: the demo customer has no completed order');
  await demo.reviews.create(seller, completed.id, { rating: 5, text: 'Отличный заказчик: понятная задача и быстрые ответы. Рад был поработать!' });
}

function fail(message: string): never {
  throw new Error(message);
}
