import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { Services } from '../../app.ts';
import { users, type UserRow } from '../../modules/users/schema.ts';
import { services } from '../../modules/services/schema.ts';
import { orders } from '../../modules/orders/schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../../modules/ledger/index.ts';
import { createProject } from '../catalog-factories.ts';
import { createUser } from '../factories.ts';
import { serviceViewsDaily } from '../../modules/services/schema.ts';
import { TURNSTILE_DUMMY_TOKEN } from '../../lib/turnstile.ts';
import { dayOf, daysUpTo } from '../../../contract/dashboard.ts';
import type { DemoAccount } from './demo.ts';

/** The demo customer's starting balance, kopecks (30 000 ₽): enough for every paid demo order, with change left. */
export const DEMO_TOP_UP = 3_000_000;
/** The demo seller's withdrawal waiting for the admin, kopecks (1 000 ₽, above the default minimum of 500 ₽). */
export const DEMO_WITHDRAWAL = 100_000;
/** The ledger key of a demo user's starting balance. */
export const demoTopUpKey = (userId: string) => `demo-top-up:${userId}`;

type Money = Pick<Services, 'platform' | 'orders' | 'payments' | 'bids' | 'auth'>;

/**
 * Orders in every state for the demo (issue 12: "a newcomer sees the flows at once"), made through the real
 * commands after the app is built, so that every order has its chat, its system messages, its letters and
 * outbox rows, and the ledger balances and chains as in real use. Runs right after seedDemo() filled an empty
 * database (startServer), never again.
 *
 * The demo customer (customer@example.com) gets 30 000 ₽ and orders:
 * - awaiting payment (anna_design's logo);
 * - in progress, paid from the balance (the demo seller's presentation);
 * - delivered, with the delivery message (dmitry_dev's landing page);
 * - completed: accepted, the demo seller paid the price less the commission;
 * - cancelled within the window after payment: the money back on the balance (olga_texts);
 * - in progress with the seller's cancellation proposal waiting for the customer's answer (ivan_seo);
 * - from the demo seller's bid on the customer's project, accepted and paid;
 * - in three stages, from dmitry_dev's bid on the customer's shop project: stage 1 accepted, stage 2 delivered and
 *   waiting for the customer, stage 3 not funded yet.
 * The demo seller then asks to withdraw 1 000 ₽: the admin's /admin/payments has a request to approve.
 *
 * A referral chain (issue 13): Марина registers with the demo seller's referral code, buys from two other sellers
 * and accepts their work, so the demo seller's /profile/referral shows her and a reward for each order. The demo
 * seller's services get a month of daily views, so the dashboard's views and conversion have something to show.
 */
export async function seedDemoOrders(money: Money, db: Db, accounts: Pick<DemoAccount, 'email' | 'role' | 'password'>[]): Promise<void> {
  const emailOf = (role: string) => accounts.find((a) => a.role === role)?.email ?? fail(`demo orders: no demo ${role}`);
  const people = await db.select().from(users);
  const byEmail = (email: string) => people.find((u) => u.email === email) ?? fail(`demo orders: no user ${email}`);
  const byName = (userName: string) => people.find((u) => u.userName === userName) ?? fail(`demo orders: no user ${userName}`);
  const customer = byEmail(emailOf('customer'));
  const seller = byEmail(emailOf('seller'));
  const sellerIds = [seller, ...['anna_design', 'dmitry_dev', 'olga_texts', 'ivan_seo'].map(byName)].map((u) => u.id);
  const offered = await db.select().from(services).where(and(inArray(services.sellerId, sellerIds), eq(services.status, 'active')));
  // The seller's service whose title starts so (one of DEMO_SERVICES), else their first one.
  const serviceOf = (owner: UserRow, title = '') =>
    offered.find((s) => s.sellerId === owner.id && s.title.startsWith(title)) ?? fail(`demo orders: ${owner.userName} has no service «${title}…»`);

  await money.platform.withTx(systemActor('demo.seed'), (ctx) =>
    postTransfer(ctx.tx, {
      kind: 'payment',
      key: demoTopUpKey(customer.id),
      description: 'Пополнение баланса (демо)',
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -DEMO_TOP_UP },
        { account: { kind: 'available', userId: customer.id }, amount: DEMO_TOP_UP },
      ],
    }),
  );

  const order = async (owner: UserRow, title?: string) =>
    (await money.orders.create(customer, { service_id: serviceOf(owner, title).id, package: null, extras: [] }))._id;
  const pay = (orderId: string) => money.payments.pay(customer, { order_id: orderId, method: 'balance' });

  // Awaiting payment.
  await order(byName('anna_design'), 'Создам современный логотип');

  // In progress.
  await pay(await order(seller));

  // Delivered, waiting for the customer's answer.
  const delivered = await order(byName('dmitry_dev'), 'Сверстаю лендинг');
  await pay(delivered);
  await money.orders.deliver(byName('dmitry_dev'), delivered, {
    message: 'Лендинг готов: свёрстан по макету, адаптирован под телефоны и планшеты. Ссылка на тестовую версию — в чате, исходники пришлю после приёмки.',
    files: [],
  });

  // Completed: the seller is paid the price less the commission.
  const completed = await order(seller);
  await pay(completed);
  await money.orders.deliver(seller, completed, { message: 'Презентация готова: 15 слайдов в фирменных цветах, файлы PowerPoint и PDF.', files: [] });
  await money.orders.accept(customer, completed);

  // Cancelled by the customer within the window after payment: refunded to the balance.
  const cancelled = await order(byName('olga_texts'), 'Напишу продающий текст');
  await pay(cancelled);
  await money.orders.cancel(customer, cancelled, { reason: 'Передумала: тексты напишем сами.' });

  // In progress, the seller proposes to cancel; the customer has to answer.
  const proposed = await order(byName('ivan_seo'), 'Проведу SEO-аудит');
  await pay(proposed);
  await money.orders.proposeCancel(byName('ivan_seo'), proposed, { reason: 'Сайт закрыт от индексации, без доступа к хостингу аудит не сделать.' });

  // From a bid: the customer's project, the demo seller's bid accepted, paid from the balance.
  const project = await createProject(db, customer.id, {
    category: 'design',
    title: 'Презентация для инвесторов',
    description: 'Нужна презентация стартапа для инвесторов на 12–15 слайдов: структура, графики, единый стиль. Тексты и цифры есть.',
    budget: 1_000_000,
    days: 7,
  });
  const bid = await money.bids.create(
    seller,
    project.id,
    { price: 900_000, days: 6, comment: 'Сделаю презентацию по вашим текстам: структура, инфографика, графики из ваших таблиц. Первые слайды покажу через два дня.' },
    '127.0.0.1',
  );
  const fromBid = await money.bids.accept(customer, bid._id, { price: bid.price, days: bid.days });
  await pay(fromBid.order_id);

  await seedStagedJob(money, db, customer, byName('dmitry_dev'), pay);

  // The demo seller withdraws part of the completed order's payment: a request for the admin.
  await money.payments.withdraw(seller, { amount: DEMO_WITHDRAWAL, method: 'card', payout_token: 'sandbox-demo-card', card: { first6: '220220', last4: '1234', card_type: 'MIR' } });

  const referred = await registerReferred(money, db, seller, accounts[0]?.password ?? fail('demo orders: no password'));
  await topUp(money, referred.id);
  for (const [owner, title] of [
    ['dmitry_dev', 'Сверстаю лендинг'],
    ['anna_design', 'Создам современный логотип'],
  ] as const) {
    const id = (await money.orders.create(referred, { service_id: serviceOf(byName(owner), title).id, package: null, extras: [] }))._id;
    await money.payments.pay(referred, { order_id: id, method: 'balance' });
    await money.orders.deliver(byName(owner), id, { message: 'Готово: файлы в чате.', files: [] });
    await money.orders.accept(referred, id);
  }

  // A month of the demo seller's service views, as the view tally would have written them (ADR 031).
  const days = daysUpTo(dayOf(new Date()), 30);
  const own = offered.filter((s) => s.sellerId === seller.id);
  await db.insert(serviceViewsDaily).values(
    own.flatMap((s, i) => days.map((day, d) => ({ serviceId: s.id, day, views: 3 + ((i * 7 + d * 13) % 11) + (d > 20 ? 4 : 0) }))),
  ).onConflictDoNothing();
}

/**
 * A job in stages (ADR 065): dmitry_dev's bid in three stages on the customer's shop project, accepted; stage 1
 * accepted, stage 2 delivered and waiting for the customer, stage 3 not funded yet.
 */
async function seedStagedJob(money: Money, db: Db, customer: UserRow, dmitry: UserRow, pay: (orderId: string) => Promise<unknown>): Promise<void> {
  const shop = await createProject(db, customer.id, {
    category: 'development',
    title: 'Интернет-магазин цветов',
    description: 'Нужен интернет-магазин цветов: каталог, корзина, оплата картой, доставка по городу. Дизайн обсудим.',
    budget: 1_000_000,
    days: 14,
  });
  const stages = [
    { title: 'Макеты', deliverable: 'Макеты главной, каталога и корзины в Figma', amount: 200_000, days: 3 },
    { title: 'Вёрстка и каталог', deliverable: 'Свёрстанный магазин с каталогом на тестовом адресе', amount: 300_000, days: 5 },
    { title: 'Оплата и запуск', deliverable: 'Оплата картой и магазин на вашем домене', amount: 250_000, days: 3 },
  ];
  const inStages = await money.bids.create(
    dmitry,
    shop.id,
    { price: 750_000, days: 11, comment: 'Сделаю магазин в три этапа: макеты, вёрстка с каталогом, оплата и запуск. Каждый этап оплачивается отдельно.', stages },
    '127.0.0.1',
  );
  const head = await money.bids.accept(customer, inStages._id, { price: inStages.price, days: inStages.days, stages });
  const [first, second] = (await db.select({ id: orders.id }).from(orders).where(eq(orders.headId, head.order_id)).orderBy(orders.stage)).map((s) => s.id);
  await pay(first!);
  await money.orders.deliver(dmitry, first!, { message: 'Макеты готовы: главная, каталог и корзина. Ссылка на Figma — в чате.', files: [] });
  await money.orders.accept(customer, first!);
  await pay(second!);
  await money.orders.deliver(dmitry, second!, { message: 'Магазин свёрстан, каталог наполнен. Тестовый адрес — в чате, проверьте, пожалуйста.', files: [] });
}

/**
 * Марина, registered through the real registration with the demo seller's referral code (the referral link's
 * path), her email confirmed. Where the bot check is configured the dummy token does not pass: she is then made
 * with the same referrer directly.
 */
async function registerReferred(money: Money, db: Db, referrer: UserRow, password: string): Promise<UserRow> {
  const email = 'marina_flowers@example.com';
  const profile = { user_name: 'marina_flowers', name: 'Марина', surname: 'Кузнецова', role: 'customer' as const };
  try {
    await money.auth.register(
      { ...profile, email, password, repeat_password: password, 'cf-turnstile-response': TURNSTILE_DUMMY_TOKEN, referralCode: referrer.referralCode, personal_data_consent: true },
      '127.0.0.1',
    );
  } catch {
    await createUser(db, { userName: profile.user_name, name: profile.name, surname: profile.surname, email, password, role: 'customer', referredBy: referrer.id });
  }
  const [user] = await db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email)).returning();
  return user ?? fail('demo orders: Марина was not registered');
}

async function topUp(money: Money, userId: string) {
  await money.platform.withTx(systemActor('demo.seed'), (ctx) =>
    postTransfer(ctx.tx, {
      kind: 'payment',
      key: demoTopUpKey(userId),
      description: 'Пополнение баланса (демо)',
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -DEMO_TOP_UP },
        { account: { kind: 'available', userId }, amount: DEMO_TOP_UP },
      ],
    }),
  );
}

function fail(message: string): never {
  throw new Error(message);
}
