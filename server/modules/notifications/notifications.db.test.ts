import { and, desc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { notifications } from './schema.ts';
import { messages } from '../chat/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { manualClock } from '../../platform/clock.ts';
import { systemActor, userActor } from '../../platform/actor.ts';
import { postTransfer } from '../ledger/index.ts';
import { payOrderForTest } from '../orders/testing.ts';
import type { Letter } from '../../lib/mail.ts';
import type { LetterPayload, SocketPayload } from '../../platform/outbox.ts';
import type { Notification, NotificationsEvent } from '#contract/notifications';
import type { OrderDetail } from '#contract/orders';

// ADR 030: every event of PRODUCT.md makes exactly one notification for the person it concerns, through the one
// path (letters.notify), driven here through the real commands; the list, read marks and counts; unsubscribe links;
// the letter about unread chat messages.

const clock = manualClock(Date.parse('2026-11-23T10:00:00Z'));
const MIN = 60_000;
const server = useTestApp({}, { dispatch: false, clock });

const person = server.person;
const seller = () => person({ role: 'seller', roles: ['customer', 'seller'] });

const api = <T = unknown>(
  who: Person | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  body?: unknown,
  query?: Record<string, string>,
) => call<T>(server.app, method, url, { token: who?.token, body: method === 'GET' ? undefined : (body ?? {}), query });

async function ok<T = unknown>(
  who: Person | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await api<T>(who, method, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

/** Every notification row, by person: what each command left. */
async function noticesOf(who: Person) {
  return server.db.select().from(notifications).where(eq(notifications.userId, who.user.id)).orderBy(notifications.createdAt);
}
/** The notifications the command `fn` made, per person. */
async function made(people: Person[], fn: () => Promise<unknown>) {
  const before = await Promise.all(people.map(async (p) => new Set((await noticesOf(p)).map((n) => n.id))));
  await fn();
  return Promise.all(
    people.map(async (p, i) => (await noticesOf(p)).filter((n) => !before[i]!.has(n.id)).map((n) => n.kind)),
  );
}
/** Letters queued to this address (the dispatcher does not run in this file unless asked). */
async function lettersTo(who: Person): Promise<Letter[]> {
  const rows = await server.db.select().from(outbox).where(eq(outbox.kind, 'letter'));
  return rows
    .map((r) => r.payload as LetterPayload)
    .filter((p) => p.to === who.user.email)
    .map((p) => p.letter);
}

async function fund(user: UserRow, amount: number) {
  await server.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `test-fund:${user.id}:${amount}:${Math.random()}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -amount },
        { account: { kind: 'available', userId: user.id }, amount },
      ],
    }),
  );
}

const bidBody = {
  price: 1_500_000,
  days: 7,
  comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
};

async function paidOrder() {
  const s = await seller();
  const c = await person();
  const service = await createService(server.db, s.user.id, { price: 100_000, days: 3, revisions: 1 });
  const order = await ok<OrderDetail>(c, 'POST', '/api/orders', { service_id: service.id });
  await payOrderForTest(server.app, order._id);
  return { s, c, order };
}

describe('every event notifies the person it concerns, once', () => {
  it('a new bid: the customer; accepting it: the chosen seller (bid.accepted) and the others (bid.rejected)', async () => {
    const customer = await person();
    const [a, b] = [await seller(), await seller()];
    const project = await createProject(server.db, customer.user.id);
    let bidA = '';
    expect(
      await made([customer, a], async () => {
        bidA = (await ok<{ _id: string }>(a, 'POST', `/api/projects/${project.id}/bids`, bidBody))._id;
      }),
    ).toEqual([['bid.new'], []]);
    await ok(b, 'POST', `/api/projects/${project.id}/bids`, bidBody);
    expect(await made([customer, a, b], () => ok(customer, 'POST', `/api/bids/${bidA}/accept`, { price: bidBody.price, days: bidBody.days }))).toEqual([
      [],
      ['bid.accepted'],
      ['bid.rejected'],
    ]);
    const [accepted] = (await noticesOf(a)).filter((n) => n.kind === 'bid.accepted');
    expect(accepted!.text).toBe(`Ваш отклик на проект «${project.title}» принят: заказ ждёт оплаты`);
    expect(accepted!.link).toMatch(/^\/profile\/messages\?tab=orders&chat=/);
  });

  it('an order: made → nobody (ADR 042); paid → the seller; delivered → the customer; revision → the seller; completed → the seller', async () => {
    const s = await seller();
    const c = await person();
    const service = await createService(server.db, s.user.id, { price: 100_000, days: 3, revisions: 1 });
    let order!: OrderDetail;
    expect(
      await made(
        [s, c],
        async () => (order = await ok<OrderDetail>(c, 'POST', '/api/orders', { service_id: service.id })),
      ),
    ).toEqual([[], []]);
    expect(await made([s, c], () => payOrderForTest(server.app, order._id))).toEqual([['order.event'], []]);
    const [paid] = (await noticesOf(s)).slice(-1);
    expect(paid!.text).toBe(`Новый заказ №${order.number} «${order.title}» оплачен — можно приступать`);
    const { chat_id } = await ok<OrderDetail>(c, 'GET', `/api/orders/${order._id}`);
    expect(chat_id).toEqual(expect.any(String));
    expect(paid!.link).toBe(`/profile/messages?tab=orders&chat=${chat_id}`);

    expect(
      await made([s, c], () => ok(s, 'POST', `/api/orders/${order._id}/deliver`, { message: 'Готово, проверьте.' })),
    ).toEqual([[], ['order.event']]);
    expect((await noticesOf(c)).at(-1)!.text).toContain('сдана');
    expect(
      await made([s, c], () => ok(c, 'POST', `/api/orders/${order._id}/revision`, { message: 'Поправьте цвет.' })),
    ).toEqual([['order.event'], []]);
    expect((await noticesOf(s)).at(-1)!.text).toContain('доработку');
    await ok(s, 'POST', `/api/orders/${order._id}/deliver`, { message: 'Поправил.' });
    expect(await made([s, c], () => ok(c, 'POST', `/api/orders/${order._id}/accept`))).toEqual([['order.event'], []]);
    expect((await noticesOf(s)).at(-1)!.text).toContain('завершён');
  });

  it('a cancelled order: the other party', async () => {
    const { s, c, order } = await paidOrder();
    expect(
      await made([s, c], () => ok(s, 'POST', `/api/orders/${order._id}/cancel`, { reason: 'Не успеваю' })),
    ).toEqual([[], ['order.event']]);
    expect((await noticesOf(c)).at(-1)!.text).toContain('отменён');
  });

  it('a withdrawal approved or rejected: its owner', async () => {
    const admin = await person({ role: 'admin' });
    const owner = await person();
    await fund(owner.user, 300_000);
    const first = await ok<{ _id: string }>(owner, 'POST', '/api/withdrawals', {
      amount: 60_000,
      method: 'card',
      payout_token: 'pt-notifications',
      card: { first6: '411111', last4: '1111' },
    });
    const second = await ok<{ _id: string }>(owner, 'POST', '/api/withdrawals', {
      amount: 70_000,
      method: 'card',
      payout_token: 'pt-notifications',
      card: { first6: '411111', last4: '1111' },
    });
    expect(await made([owner, admin], () => ok(admin, 'POST', `/api/admin/withdrawals/${first._id}/approve`))).toEqual([
      ['withdrawal.decision'],
      [],
    ]);
    expect(
      await made([owner, admin], () =>
        ok(admin, 'POST', `/api/admin/withdrawals/${second._id}/reject`, { reason: 'Неверные реквизиты' }),
      ),
    ).toEqual([['withdrawal.decision'], []]);
    expect((await noticesOf(owner)).map((n) => [n.text, n.link])).toEqual([
      ['Вывод 600\u00a0руб. одобрен', '/profile/finance'],
      ['Вывод 700\u00a0руб. отклонён, деньги вернулись на баланс', '/profile/finance'],
    ]);
  });

  it('a service approved or rejected: its seller', async () => {
    const admin = await person({ role: 'admin' });
    const s = await seller();
    const approved = await createService(server.db, s.user.id, { status: 'moderation' });
    const rejected = await createService(server.db, s.user.id, { status: 'moderation' });
    expect(
      await made([s, admin], () => ok(admin, 'PATCH', `/api/admin/services/${approved.id}`, { status: 'active' })),
    ).toEqual([['service.decision'], []]);
    expect(
      await made([s, admin], () =>
        ok(admin, 'PATCH', `/api/admin/services/${rejected.id}`, { status: 'rejected', reason: 'Нет примеров работ' }),
      ),
    ).toEqual([['service.decision'], []]);
    expect((await noticesOf(s)).map((n) => [n.text, n.link])).toEqual([
      [`Услуга «${approved.title}» прошла модерацию и опубликована`, `/profile/items/${approved.id}/edit`],
      [`Услуга «${rejected.title}» не прошла модерацию`, `/profile/items/${rejected.id}/edit`],
    ]);
  });

  it('a project hidden by a moderator: its customer', async () => {
    const admin = await person({ role: 'admin' });
    const c = await person();
    const project = await createProject(server.db, c.user.id);
    expect(
      await made([c, admin], () =>
        ok(admin, 'PATCH', `/api/admin/projects/${project.id}`, { status: 'hidden', reason: 'Контакты в тексте' }),
      ),
    ).toEqual([['project.decision'], []]);
  });
});

describe('preferences', () => {
  it('a switched-off kind sends no letter, but the in-app notification appears', async () => {
    const c = await person({ preferences: { emailNotifications: { bids: false } } });
    const on = await person();
    const s = await seller();
    for (const customer of [c, on]) {
      const project = await createProject(server.db, customer.user.id);
      expect(await made([customer], () => ok(s, 'POST', `/api/projects/${project.id}/bids`, bidBody))).toEqual([
        ['bid.new'],
      ]);
    }
    expect(await lettersTo(c)).toEqual([]);
    const [letter] = await lettersTo(on);
    expect(letter!.subject).toContain('Новый отклик');
    expect(letter!.unsubscribe).toMatch(/\/unsubscribe\?token=/);
  });

  it('a notification row and its event are written with the change, and neither on a rollback', async () => {
    const p = await person();
    const letters = server.app.services.letters;
    await expect(
      server.app.services.platform.withTx(userActor(p.user), async ({ outbox: out }) => {
        letters.notify(out, p.user, 'bid.rejected', { title: 'Откат' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await noticesOf(p)).toEqual([]);
    await server.app.services.platform.withTx(
      userActor(p.user),
      async ({ outbox: out }) => void letters.notify(out, p.user, 'bid.rejected', { title: 'Коммит' }),
    );
    const [row] = await noticesOf(p);
    expect(row!.text).toBe('Заказчик выбрал другого исполнителя для «Коммит»');
    const events = (
      await server.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'socket'), eq(outbox.name, 'notifications')))
    )
      .map((r) => r.payload as SocketPayload)
      .filter((e) => e.userIds.includes(p.user.id));
    expect(events).toHaveLength(1);
    expect(events[0]!.payload as NotificationsEvent).toMatchObject({
      unread: 1,
      notification: { _id: row!.id, read: false, link: '/profile/bids' },
    });
  });

  it("each event's unread count is its person's after the change: the unread they had and every one it wrote", async () => {
    const [p, other] = [await person(), await person()];
    const letters = server.app.services.letters;
    const socketEvents = async (who: Person) =>
      (await server.db.select().from(outbox).where(and(eq(outbox.kind, 'socket'), eq(outbox.name, 'notifications'))))
        .map((r) => r.payload as SocketPayload)
        .filter((e) => e.userIds.includes(who.user.id))
        .map((e) => (e.payload as NotificationsEvent).unread);
    // Two unread and one read before.
    for (const readAt of [null, null, new Date()])
      await server.db.insert(notifications).values({ userId: p.user.id, kind: 'bid.new', text: 'Раньше', link: '/profile/bids', readAt });
    await server.app.services.platform.withTx(userActor(p.user), async ({ outbox: out }) => {
      letters.notify(out, p.user, 'bid.rejected', { title: 'Первый' });
      letters.notify(out, other.user, 'bid.rejected', { title: 'Чужой' });
      letters.notify(out, p.user, 'bid.rejected', { title: 'Второй' });
    });
    expect(await socketEvents(p)).toEqual([4, 4]);
    expect(await socketEvents(other)).toEqual([1]);
  });
});

describe('the list, read marks and the count', () => {
  let p: Person;
  beforeEach(async () => {
    p = await person();
    // Five notifications, a second apart.
    for (let i = 1; i <= 5; i++) {
      await server.db
        .insert(notifications)
        .values({
          userId: p.user.id,
          kind: 'bid.new',
          text: `Отклик ${i}`,
          link: '/profile/bids',
          createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, i)),
        });
    }
  });

  it('pages newest first by keyset, with the unread count', async () => {
    const first = await api<Notification[]>(p, 'GET', '/api/notifications', undefined, { limit: '2' });
    const body = first.body as unknown as { result: Notification[]; next: string; unread: number };
    expect(body.result.map((n) => n.text)).toEqual(['Отклик 5', 'Отклик 4']);
    expect(body.unread).toBe(5);
    const second = (await api(p, 'GET', '/api/notifications', undefined, { limit: '2', cursor: body.next }))
      .body as unknown as typeof body;
    expect(second.result.map((n) => n.text)).toEqual(['Отклик 3', 'Отклик 2']);
    const third = (await api(p, 'GET', '/api/notifications', undefined, { limit: '2', cursor: second.next }))
      .body as unknown as typeof body;
    expect(third.result.map((n) => n.text)).toEqual(['Отклик 1']);
    expect(third.next).toBeNull();
    expect((await api(p, 'GET', '/api/notifications', undefined, { cursor: 'garbage' })).status).toBe(400);
  });

  it('marks one read (its person only), then all; the count follows', async () => {
    const list = (await api(p, 'GET', '/api/notifications')).body as unknown as { result: Notification[] };
    const id = list.result[0]!._id;
    const stranger = await person();
    expect((await api(stranger, 'PUT', `/api/notifications/${id}/read`)).status).toBe(404);
    expect((await ok<Notification>(p, 'PUT', `/api/notifications/${id}/read`)).read).toBe(true);
    expect(await ok(p, 'GET', '/api/notifications/unread')).toEqual({ unread: 4 });
    // The person's other tabs hear the new count.
    const events = (
      await server.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'socket'), eq(outbox.name, 'notifications')))
    )
      .map((r) => r.payload as SocketPayload)
      .filter((e) => e.userIds.includes(p.user.id));
    expect(events.at(-1)!.payload).toEqual({ unread: 4, notification: null });
    expect(await ok(p, 'PUT', '/api/notifications/read')).toEqual({ unread: 0 });
    expect(await ok(p, 'GET', '/api/notifications/unread')).toEqual({ unread: 0 });
    expect(await ok(stranger, 'GET', '/api/notifications/unread')).toEqual({ unread: 0 });
  });
});

describe('unsubscribe links', () => {
  const tokenOf = (userId: string, kind: 'bids' | 'orders') =>
    new URL(server.app.services.letters.unsubscribeUrl(userId, kind)).searchParams.get('token')!;
  const prefs = async (who: Person) =>
    (await server.db.select().from(users).where(eq(users.id, who.user.id)))[0]!.preferences.emailNotifications;

  it('switches that kind off for that person, without signing in, keeping the other preferences', async () => {
    const p = await person({ preferences: { currency: 'USDT', emailNotifications: { news: false } } });
    const token = tokenOf(p.user.id, 'bids');
    expect(await ok(null, 'GET', `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`)).toEqual({
      kind: 'bids',
      title: 'Отклики на проекты',
    });
    expect(await prefs(p)).toEqual({ news: false });
    expect(await ok(null, 'POST', '/api/notifications/unsubscribe', { token })).toEqual({
      kind: 'bids',
      title: 'Отклики на проекты',
    });
    expect(await prefs(p)).toEqual({ news: false, bids: false });
    const [row] = await server.db.select().from(users).where(eq(users.id, p.user.id));
    expect(row!.preferences.currency).toBe('USDT');
  });

  it('cannot be forged: another person, another kind, a tampered or foreign token', async () => {
    const p = await person();
    const other = await person();
    const token = tokenOf(p.user.id, 'bids');
    const sig = token.split('.')[2]!;
    for (const forged of [
      `${other.user.id}.bids.${sig}`,
      `${p.user.id}.orders.${sig}`,
      `${token.slice(0, -3)}abc`,
      `${p.user.id}.bids.`,
      'x',
      `${p.user.id}.bids`,
    ]) {
      const res = await api(null, 'POST', '/api/notifications/unsubscribe', { token: forged });
      expect(res.status, forged).toBe(400);
      expect((res.body as unknown as { message: string }).message).toBe('Ссылка для отписки недействительна');
    }
    expect(await prefs(p)).toBeUndefined();
    expect(await prefs(other)).toBeUndefined();
  });
});

describe('the letter about unread chat messages', () => {
  const dispatcher = () => server.app.services.platform.dispatcher;
  let mailed: { to: string; letter: Letter }[];
  let online: Set<string>;
  beforeEach(() => {
    mailed = [];
    online = new Set();
    vi.spyOn(server.app.services.mailer, 'send').mockImplementation(async (to, letter) => void mailed.push({ to, letter }));
    vi.spyOn(server.app.services.realtime, 'onlineAmong').mockImplementation(
      async (ids) => new Set(ids.filter((id) => online.has(id))),
    );
  });

  /** Sends a message, then waits until its reminder job is queued (it is queued after the answer). */
  async function send(from: Person, to: Person, message: string) {
    const res = await api<{ chat_id: string }>(from, 'POST', '/api/messages/', { recipient: to.user.id, message });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await vi.waitFor(async () => {
      const rows = await server.db.select().from(outbox).where(eq(outbox.name, 'notifications.unreadLetter'));
      expect(rows.some((r) => (r.payload as { userId: string }).userId === to.user.id)).toBe(true);
    });
    return (res.body.result as unknown as { chat_id: string }).chat_id;
  }
  /** Runs what is due after `minutes` (the letters themselves included). */
  async function after(minutes: number) {
    clock.advance(minutes * MIN);
    while ((await dispatcher().runDue()) > 0);
  }
  const to = (p: Person) => mailed.filter((m) => m.to === p.user.email);

  it('goes once per chat and hour to an offline recipient, with the first lines and a link', async () => {
    const a = await person();
    const b = await person();
    const chatId = await send(a, b, 'Здравствуйте! Есть вопрос по логотипу.\nВторая строка');
    await send(a, b, 'Когда сможете ответить?');
    await after(5);
    expect(to(b)).toEqual([]);
    await after(6);
    expect(to(b)).toHaveLength(1);
    const letter = to(b)[0]!.letter;
    expect(letter.subject).toContain('2\u00a0новых сообщения');
    expect(letter.text).toContain('«Здравствуйте! Есть вопрос по логотипу.»');
    expect(letter.text).toContain('«Когда сможете ответить?»');
    expect(letter.text).not.toContain('Вторая строка');
    expect(letter.text).toContain(`/profile/messages?chat=${chatId}`);
    expect(letter.unsubscribe).toMatch(/\/unsubscribe\?token=/);
    // No in-app notification: the chat's counters are its signal.
    expect(await noticesOf(b)).toEqual([]);

    // More messages within the hour: no second letter until the hour has passed.
    await send(a, b, 'Ау?');
    await after(11);
    expect(to(b)).toHaveLength(1);
    await after(50);
    expect(to(b)).toHaveLength(2);
    expect(to(a)).toEqual([]);
  });

  it('is not sent to a recipient who is online, nor for messages they have seen, nor when switched off', async () => {
    const a = await person();
    const b = await person();
    online.add(b.user.id);
    await send(a, b, 'Вы тут?');
    await after(11);
    expect(to(b)).toEqual([]);

    const c = await person();
    await send(a, c, 'Прочитайте, пожалуйста');
    const chatId = await send(a, c, 'Ещё одно');
    const [last] = await server.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(desc(messages.createdAt))
      .limit(1);
    const messageId = last!.id;
    expect((await api(c, 'PUT', `/api/messages/${messageId}`, { seen: true })).status).toBe(200);
    await after(11);
    expect(to(c)).toEqual([]);

    const d = await person({ preferences: { emailNotifications: { messages: false } } });
    await send(a, d, 'Письма выключены');
    await after(11);
    expect(to(d)).toEqual([]);
  });
});
