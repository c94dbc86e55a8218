import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { createTestDatabase } from './test/database.ts';
import { SignJWT } from 'jose';
import { TEST_SECRET, testEnv } from './test/app.ts';
import { blogPosts } from './modules/blog/schema.ts';
import { users } from './modules/users/schema.ts';
import { services } from './modules/services/schema.ts';
import { DEMO_SERVICES, demoPasswordFile } from './db/seed/demo.ts';
import { DEMO_TOP_UP, DEMO_WITHDRAWAL } from './db/seed/demo-orders.ts';
import { DEMO_UNREAD } from './db/seed/demo-notifications.ts';
import { notifications } from './modules/notifications/schema.ts';
import { appeals } from './modules/appeals/schema.ts';
import { orderDeliveries, orders } from './modules/orders/schema.ts';
import { payments, withdrawals } from './modules/payments/schema.ts';
import { disputes } from './modules/disputes/schema.ts';
import { chats, messages } from './modules/chat/schema.ts';
import { outbox } from './platform/schema.ts';
import { reviews } from './modules/reviews/schema.ts';
import { balancesOf, checkLedger } from './modules/ledger/index.ts';
import { commissionOf } from './modules/orders/presenter.ts';
import { ownedFile } from './platform/files.ts';
import { createUser, DEFAULT_PASSWORD } from './db/factories.ts';
import { passwordSchema } from '#contract/auth';
import { verifyPassword } from './lib/passwords.ts';

let server: RunningServer;
let dataDir: string;
/** A port of its own, not the default 3000: the demo's letters must name it (they are made before the server listens). */
let port: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-boot-'));
  const database = await createTestDatabase({ reference: false });
  port = await freePort();
  server = await startServer(
    testEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: '1',
      ADMIN_EMAIL: 'Boss@Example.org',
      ADMIN_PASSWORD: 'boss-password-1',
      DATA_DIR: dataDir,
    }),
    pino({ level: 'silent' }),
    { database },
  );
});
afterAll(async () => {
  await server.close();
  await (server.database as Awaited<ReturnType<typeof createTestDatabase>>).drop();
});

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  if (jpeg.readUInt16BE(0) !== 0xffd8) return null;
  for (let at = 2; at + 9 < jpeg.length; ) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: jpeg.readUInt16BE(at + 7), height: jpeg.readUInt16BE(at + 5) };
    }
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return null;
}

const connectWith = (auth: Record<string, unknown>) =>
  new Promise<{ socket: Socket; error?: Error }>((resolve) => {
    const socket = connect(server.url, { path: '/socket.io/', transports: ['polling'], multiplex: false, reconnection: false, auth });
    socket.on('connect', () => resolve({ socket }));
    socket.on('connect_error', (error) => resolve({ socket, error }));
  });

describe('boot', () => {
  it('seeds reference data and demo users with Russian names', async () => {
    const res = await fetch(`${server.url}/api/categories/`);
    expect((await res.json()).result.length).toBeGreaterThanOrEqual(10);
    expect(server.demoAccounts?.map((a) => a.role)).toEqual(['seller', 'customer', 'admin']);
    const rows = await server.database.db.select().from(users);
    expect(rows.filter((u) => u.roles.includes('seller')).length).toBeGreaterThanOrEqual(5);
    expect(rows.filter((u) => u.activeRole === 'customer').length).toBeGreaterThanOrEqual(3);
    for (const u of rows) expect(u.name).toMatch(/^[А-ЯЁ][а-яё]+$/);
  });

  it("gives every demo user the data folder's own random password, kept in DATA_DIR/demo-password, never the published one", async () => {
    const password = readFileSync(demoPasswordFile(dataDir), 'utf8').trim();
    expect(password).not.toBe(DEFAULT_PASSWORD);
    expect(passwordSchema.safeParse(password).success).toBe(true);
    expect(server.demoAccounts?.map((a) => a.password)).toEqual([password, password, password]);
    const demoUsers = (await server.database.db.select().from(users)).filter((u) => u.email.endsWith('@example.com'));
    expect(demoUsers.length).toBeGreaterThanOrEqual(11);
    for (const u of demoUsers) {
      expect(await verifyPassword(u.passwordHash, password), u.email).toBe(true);
      expect(await verifyPassword(u.passwordHash, DEFAULT_PASSWORD), u.email).toBe(false);
    }
    const login = (p: string) =>
      fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: p }) });
    expect((await login(DEFAULT_PASSWORD)).status).toBe(400);
    expect((await login(password)).status).toBe(200);
  });

  it('links the demo letters to the port the server runs on', async () => {
    // The dispatcher may have sent some already (rows deleted, .eml files in DATA_DIR/mail): both are read.
    const queued = await server.database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.kind, 'letter'));
    const mailDir = path.join(dataDir, 'mail');
    const sent = existsSync(mailDir) ? readdirSync(mailDir).map((name) => readFileSync(path.join(mailDir, name), 'utf8')) : [];
    const text = JSON.stringify(queued.map((l) => l.payload)) + sent.join('\n').replace(/=\r?\n/g, '');
    expect(queued.length + sent.length).toBeGreaterThan(0);
    expect(text).toContain(`http://127.0.0.1:${port}/`);
    expect(text).not.toMatch(/https?:\/\/[\w.[\]:-]+:3000\//);
  });

  it('creates the bootstrap admin from ADMIN_EMAIL / ADMIN_PASSWORD', async () => {
    const [admin] = await server.database.db.select().from(users).where(sql`lower(${users.email}) = 'boss@example.org'`);
    expect(admin?.roles).toContain('admin');
    expect(await verifyPassword(admin!.passwordHash, 'boss-password-1')).toBe(true);
  });

  it('seeds demo data only into an empty database', async () => {
    const { seedDemo } = await import('./db/seed/demo.ts');
    expect(await seedDemo(server.database.db, server.app.services.files.storage, () => 'other-password-1')).toBeNull();
    expect(await server.database.db.select().from(services)).toHaveLength(DEMO_SERVICES.length);
  });

  it('seeds the blog: three published articles guests can read, and a draft they cannot (ADR 037)', async () => {
    const list = await fetch(`${server.url}/api/blog`);
    const { result, total } = (await list.json()) as { result: { _id: string; title: string; cover: string | null }[]; total: number };
    expect(total).toBe(3);
    expect(result.map((p) => p.title)).toEqual(['Как выбрать исполнителя: на что смотреть, кроме цены', 'Как написать техническое задание, чтобы получить точные отклики', 'Как работает безопасная сделка']);
    for (const post of result) {
      expect((await fetch(`${server.url}${post.cover}`)).status).toBe(200);
      const article = (await (await fetch(`${server.url}/api/blog/${post._id}`)).json()) as { result: { html: string } };
      expect(article.result.html).toContain('<h2>');
    }
    const [draft] = await server.database.db.select().from(blogPosts).where(eq(blogPosts.status, 'draft'));
    expect((await fetch(`${server.url}/api/blog/${draft!.id}`)).status).toBe(404);
  });

  it('seeds bids: three waiting on the demo customer’s project (the flag up), two of the demo seller', async () => {
    const db = server.database.db;
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const [seller] = await db.select().from(users).where(eq(users.email, 'seller@example.com'));
    expect(customer!.bidsUnread).toBe(true);
    const received = await db.execute(sql`select b.status from bids b join projects p on p.id = b.project_id where p.customer_id = ${customer!.id}`);
    // Three waiting, and the bids the customer accepted (the demo orders): the demo seller's, dmitry_dev's in stages.
    expect((received as unknown as { rows: { status: string }[] }).rows.map((r) => r.status).sort()).toEqual(['accepted', 'accepted', 'active', 'active', 'active']);
    const own = await db.execute(sql`select count(*)::int as n from bids where seller_id = ${seller!.id}`);
    expect((own as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(3);
  });

  it('seeds the demo customer’s orders in every state through the real commands, with a ledger that checks out', async () => {
    const db = server.database.db;
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const [seller] = await db.select().from(users).where(eq(users.email, 'seller@example.com'));
    const all = await db.select().from(orders).where(eq(orders.customerId, customer!.id));
    // The job in stages (ADR 065) apart: its head and stages are checked below; `mine` are the whole orders.
    const head = all.find((o) => all.some((s) => s.headId === o.id))!;
    const stages = all.filter((o) => o.headId === head.id).sort((a, b) => a.stage! - b.stage!);
    const mine = all.filter((o) => o !== head && !o.headId);
    const states = mine.map((o) => `${o.status}${o.cancelProposedBy ? '+proposal' : ''}${o.bidId ? '+bid' : ''}`).sort();
    expect(states).toEqual(['awaiting_payment', 'cancelled', 'completed', 'delivered', 'disputed', 'in_progress', 'in_progress+bid', 'in_progress+proposal']);
    expect(new Set(mine.map((o) => o.sellerId)).size).toBeGreaterThanOrEqual(4);
    expect(mine.filter((o) => o.sellerId === seller!.id).map((o) => o.status).sort()).toEqual(['completed', 'disputed', 'in_progress', 'in_progress']);

    // Every paid order has its chat with the system messages of its steps; the delivered one carries the delivery.
    // The unpaid service order is the customer's draft, with no chat until it is paid (ADR 042).
    expect(await db.select().from(chats).where(inArray(chats.orderId, mine.filter((o) => o.status === 'awaiting_payment').map((o) => o.id)))).toEqual([]);
    for (const order of mine.filter((o) => o.status !== 'awaiting_payment')) {
      const [chat] = await db.select().from(chats).where(and(eq(chats.orderId, order.id), eq(chats.kind, 'order')));
      expect(chat, order.title).toBeDefined();
      const kinds = (await db.select().from(messages).where(eq(messages.chatId, chat!.id))).map((m) => m.kind);
      expect(kinds).toContain('system');
      if (order.status === 'delivered') expect(kinds).toContain('delivery');
    }
    const delivered = mine.find((o) => o.status === 'delivered')!;
    expect(await db.select().from(orderDeliveries).where(eq(orderDeliveries.orderId, delivered.id))).toHaveLength(1);

    // The money: 30 000 ₽ in, the paid orders in escrow or settled, the cancelled one refunded, the seller's share
    // of the completed one less the withdrawal waiting for the admin.
    const paid = mine.filter((o) => ['in_progress', 'delivered', 'disputed'].includes(o.status)).reduce((s, o) => s + o.price, 0);
    const completed = mine.find((o) => o.status === 'completed')!;
    // The job in stages: stage 1 accepted, stage 2 delivered, stage 3 not funded; one chat, the head's.
    expect([head.title, head.status, stages.map((o) => o.status)]).toEqual(['Интернет-магазин цветов', 'delivered', ['completed', 'delivered', 'awaiting_payment']]);
    expect((await db.select().from(chats).where(eq(chats.orderId, head.id))).length).toBe(1);
    expect(await db.select().from(chats).where(inArray(chats.orderId, stages.map((o) => o.id)))).toEqual([]);
    const stagesPaid = stages[0]!.price + stages[1]!.price;
    expect(await balancesOf(db, customer!.id)).toEqual({ available: DEMO_TOP_UP - paid - completed.price - stagesPaid, held: 0 });
    const [withdrawal] = await db.select().from(withdrawals).where(eq(withdrawals.userId, seller!.id));
    expect(withdrawal).toMatchObject({ status: 'pending', amount: DEMO_WITHDRAWAL });
    // And the 3.5 % rewards of the orders of Марина, whom the demo seller brought (issue 13).
    const [marina] = await db.select().from(users).where(eq(users.email, 'marina_flowers@example.com'));
    const hers = await db.select().from(orders).where(eq(orders.customerId, marina!.id));
    const rewards = hers.reduce((sum, o) => sum + Math.round((o.price * 350) / 10_000), 0);
    expect(await balancesOf(db, seller!.id)).toEqual({ available: completed.price - commissionOf(completed) - DEMO_WITHDRAWAL + rewards, held: DEMO_WITHDRAWAL });
    const succeeded = await db.select().from(payments).where(and(eq(payments.customerId, customer!.id), eq(payments.status, 'succeeded')));
    expect(succeeded).toHaveLength(mine.length - 1 + 2);
    expect((await checkLedger(db)).problems).toEqual([]);
  });

  it('seeds one open dispute between the demo customer and the demo seller, on a delivered order (issue 14)', async () => {
    const db = server.database.db;
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const [seller] = await db.select().from(users).where(eq(users.email, 'seller@example.com'));
    const all = await db.select().from(disputes);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'open', openedBy: customer!.id, respondentId: seller!.id, reason: 'poor_quality', adminId: null });
    const [order] = await db.select().from(orders).where(eq(orders.id, all[0]!.orderId));
    expect(order).toMatchObject({ status: 'disputed', statusBeforeDispute: 'delivered', sellerId: seller!.id });
    expect(await server.app.services.disputes.countOpen()).toBe(1);
  });

  it('seeds a referral chain through the real registration and non-empty dashboards for the demo seller and customer (issue 13)', async () => {
    const db = server.database.db;
    const [seller] = await db.select().from(users).where(eq(users.email, 'seller@example.com'));
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const [marina] = await db.select().from(users).where(eq(users.email, 'marina_flowers@example.com'));
    expect(marina).toMatchObject({ referredBy: seller!.id, userName: 'marina_flowers' });
    expect(marina!.emailConfirmedAt).not.toBeNull();
    const { dashboard } = server.app.services;
    const referrals = await dashboard.referrals(seller!);
    expect(referrals.people.map((p) => p.name)).toEqual(['Марина К.']);
    expect(referrals.earnings).toHaveLength(2);
    expect(referrals.earnings.every((e) => e.rate_bp === 350 && e.side === 'customer')).toBe(true);
    const sold = await dashboard.dashboard({ ...seller!, activeRole: 'seller' }, { period: '30', role: 'seller' });
    expect(sold.totals.amount).toBeGreaterThan(0);
    expect(sold.totals.views).toBeGreaterThan(0);
    expect(sold.totals.conversion).not.toBeNull();
    const bought = await dashboard.dashboard(customer!, { period: '30', role: 'customer' });
    expect(bought.totals.amount).toBeGreaterThan(0);
    expect(bought.by_status.length).toBeGreaterThan(3);
  });

  it('seeds reviews: published pairs that rate the sellers (anna_design Продвинутый), one answered, and the demo customer’s waiting', async () => {
    const db = server.database.db;
    const [anna] = await db.select().from(users).where(eq(users.userName, 'anna_design'));
    const profile = await (await fetch(`${server.url}/api/users/${anna!.id}`)).json();
    expect(profile.result).toMatchObject({ level: 'advanced', reviews_count: 10 });
    // Her ten reviewed orders, and the referral chain's order from Марина (not reviewed).
    expect(profile.result.orders_count).toBe(11);
    expect(profile.result.rating).toBeGreaterThanOrEqual(4.5);
    const about = await (await fetch(`${server.url}/api/users/${anna!.id}/reviews?limit=50`)).json();
    expect(about.total).toBeGreaterThanOrEqual(10);
    expect(about.result.filter((r: { answer: unknown }) => r.answer)).toHaveLength(1);
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const token = await server.app.services.tokens.sign(customer!);
    const pending = await (await fetch(`${server.url}/api/reviews/pending`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(pending.result).toHaveLength(1);
    expect(pending.result[0]).toMatchObject({ role: 'customer', other_reviewed: true });
    const hidden = await db.select().from(reviews).where(eq(reviews.orderId, pending.result[0].order_id));
    expect(hidden.map((r) => r.publishedAt)).toEqual([null]);
    expect((await checkLedger(db)).problems).toEqual([]);
  });

  it('seeds notifications for the demo people (ADR 030): the customer’s waiting bids among them, the newest three unread', async () => {
    const db = server.database.db;
    for (const email of ['customer@example.com', 'seller@example.com']) {
      const [person] = await db.select().from(users).where(eq(users.email, email));
      const mine = await db.select().from(notifications).where(eq(notifications.userId, person!.id));
      expect(mine.length, email).toBeGreaterThan(DEMO_UNREAD);
      expect(mine.filter((n) => n.readAt === null), email).toHaveLength(DEMO_UNREAD);
      // The three waiting bids, and the two the demo orders placed (and accepted) through the command.
      if (email.startsWith('customer')) expect(mine.filter((n) => n.kind === 'bid.new')).toHaveLength(5);
      else expect(mine.map((n) => n.kind)).toEqual(expect.arrayContaining(['bid.accepted', 'order.event']));
    }
  });

  it('seeds the demo customer’s appeals (issue 14): a question answered by the demo admin, a complaint waiting', async () => {
    const db = server.database.db;
    const [customer] = await db.select().from(users).where(eq(users.email, 'customer@example.com'));
    const mine = await db.select().from(appeals).where(eq(appeals.authorId, customer!.id));
    expect(mine.map((a) => [a.subject, a.status]).sort()).toEqual([
      ['question', 'closed'],
      ['service', 'new'],
    ]);
    expect(mine.find((a) => a.status === 'closed')?.answer).toContain('«Настройки»');
    const told = await db.select().from(notifications).where(and(eq(notifications.userId, customer!.id), eq(notifications.kind, 'appeal.answered')));
    expect(told).toHaveLength(1);
  });

  it('gives every demo service 1–3 pictures: JPEGs its seller uploaded, served under /uploads/ and shown as card covers', async () => {
    const db = server.database.db;
    const rows = await db.select().from(services);
    expect(rows).toHaveLength(DEMO_SERVICES.length);
    const covers = new Map<string, string | null>();
    const res = await fetch(`${server.url}/api/services?limit=60`);
    for (const card of (await res.json()).result as { _id: string; cover: string | null }[]) covers.set(card._id, card.cover);
    const seen = new Set<string>();
    for (const service of rows) {
      expect(service.images.length, service.title).toBeGreaterThanOrEqual(1);
      expect(service.images.length, service.title).toBeLessThanOrEqual(3);
      expect(covers.get(service.id)).toBe(service.images[0]);
      for (const url of service.images) {
        expect(seen.has(url)).toBe(false);
        seen.add(url);
        // The same check the services API applies to a seller's images.
        const file = await ownedFile(db, service.sellerId, url);
        expect(file?.mime, url).toBe('image/jpeg');
        const image = await fetch(`${server.url}${url}`);
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/jpeg');
        const body = Buffer.from(await image.arrayBuffer());
        expect(body.length).toBe(file!.size);
        expect(body.length).toBeLessThan(60 * 1024);
        expect(jpegSize(body)).toEqual({ width: 800, height: 600 });
      }
    }
  });

  it('applies migrations once however many instances start together', async () => {
    await Promise.all([server.database.migrate(), server.database.migrate(), server.database.migrate()]);
    const result = (await server.database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] };
    const journal = JSON.parse(readFileSync(path.join(import.meta.dirname, 'db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(result.rows[0]?.n).toBe(journal.entries.length);
  });
});

describe('socket', () => {
  it('accepts a valid bearer token in the handshake and joins the user room', async () => {
    const user = await createUser(server.database.db);
    const token = await server.app.services.tokens.sign(user);
    const { socket, error } = await connectWith({ token: `Bearer ${token}` });
    expect(error).toBeUndefined();
    expect(socket.io.engine.transport.name).toBe('polling');
    const received = new Promise((resolve) => socket.once('delete_chat', resolve));
    server.realtime.emitToUsers([user.id], 'delete_chat', { id: 'c1' });
    expect(await received).toEqual({ id: 'c1' });
    socket.disconnect();
  });

  it('refuses no token, a foreign token, a revoked token, a blocked user and a token without exp', async () => {
    const user = await createUser(server.database.db);
    const token = await server.app.services.tokens.sign(user);
    const revoked = await createUser(server.database.db);
    const revokedToken = await server.app.services.tokens.sign(revoked);
    await server.database.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, revoked.id));
    const blocked = await createUser(server.database.db, { blockedAt: new Date() });
    const blockedToken = await server.app.services.tokens.sign(blocked);
    // Signed with the real secret, valid in every other way, but without exp: it would never expire.
    const forever = await new SignJWT({ ver: user.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt()
      .sign(new TextEncoder().encode(TEST_SECRET));

    for (const auth of [{}, { token: `Bearer ${token.slice(0, -4)}abcd` }, { token: revokedToken }, { token: `Bearer ${blockedToken}` }, { token: `Bearer ${forever}` }]) {
      const { socket, error } = await connectWith(auth);
      expect(error?.message).toBe('unauthorized');
      socket.close();
    }
  });

  it('drops every socket of a user on demand (revocation, blocking)', async () => {
    const user = await createUser(server.database.db);
    const token = await server.app.services.tokens.sign(user);
    const { socket } = await connectWith({ token });
    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));
    server.realtime.disconnectUser(user.id);
    expect(await dropped).toBe('io server disconnect');
  });
});
