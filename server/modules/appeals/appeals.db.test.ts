import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call, randomAddress } from '../../test/api.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { appeals } from './schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { files } from '../files/schema.ts';
import { orders } from '../orders/schema.ts';
import { notifications } from '../notifications/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { users } from '../users/schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { APPEAL_MESSAGES, type Appeal, type AppealTarget } from '#contract/appeals';

const server = useTestApp({}, { dispatch: false });
let admin: Person;

beforeAll(async () => {
  admin = await person({ role: 'admin' });
});

const person = server.person;
// Each test's requests from an address of its own, so that the per-address limit is only met where it is tested.
const post = <T = Appeal>(who: Person | null, url: string, body: unknown, remoteAddress = randomAddress()) =>
  call<T>(server.app, 'POST', url, { token: who?.token, body, remoteAddress });
const get = <T = Appeal>(who: Person | null, url: string, query?: Record<string, string>) => call<T>(server.app, 'GET', url, { token: who?.token, query });

const TEXT = 'Продавец просит оплатить заказ вне площадки.';
const create = (who: Person, body: Record<string, unknown>, ip?: string) => post(who, '/api/appeals', { text: TEXT, ...body }, ip);

async function orderOf(customer: Person, seller: Person) {
  const { order } = await server.app.services.platform.withTx(systemActor('test'), (ctx) =>
    server.app.services.orders.open(ctx, { customerId: customer.user.id, sellerId: seller.user.id, title: 'Логотип для кофейни', price: 150_000, days: 3, revisions: 1 }),
  );
  return order;
}

describe('writing an appeal', () => {
  it('names a visible service, project, person and own order; refuses hidden, unknown, own and foreign ones', async () => {
    const [me, seller, customer, stranger] = await Promise.all([person(), person({ role: 'seller' }), person(), person()]);
    const service = await createService(server.db, seller.user.id);
    const paused = await createService(server.db, seller.user.id, { status: 'paused' });
    const project = await createProject(server.db, customer.user.id);
    const archived = await createProject(server.db, customer.user.id, { status: 'archived' });
    const order = await orderOf(me, seller);

    const onService = await create(me, { subject: 'service', object: service.id });
    expect(onService.status, JSON.stringify(onService.body)).toBe(200);
    expect(onService.body.result).toMatchObject({ subject: 'service', status: 'new', text: TEXT, answer: null, object: { type: 'service', _id: service.id, title: service.title } });
    expect((await create(me, { subject: 'project', object: project.id })).body.result.object).toMatchObject({ type: 'project', title: project.title });
    expect((await create(me, { subject: 'user', object: seller.user.id })).body.result.object).toMatchObject({ type: 'user', _id: seller.user.id });
    const onOrder = await create(me, { subject: 'order', object: order.id });
    expect(onOrder.body.result.object).toMatchObject({ type: 'order', title: `Заказ №${order.number} «Логотип для кофейни»`, link: '/profile/orders' });
    expect((await create(me, { subject: 'question' })).body.result.object).toBeNull();

    // Not visible to me, or unknown: 404 with the object's message; nothing written.
    const before = (await server.db.select().from(appeals).where(eq(appeals.authorId, me.user.id))).length;
    const refused = [
      [await create(me, { subject: 'service', object: paused.id }), 404, APPEAL_MESSAGES.objectNotFound.service],
      [await create(me, { subject: 'project', object: archived.id }), 404, APPEAL_MESSAGES.objectNotFound.project],
      [await create(me, { subject: 'service', object: project.id }), 404, APPEAL_MESSAGES.objectNotFound.service],
      [await create(stranger, { subject: 'order', object: order.id }), 404, APPEAL_MESSAGES.objectNotFound.order],
      [await create(me, { subject: 'dispute', object: order.id }), 404, APPEAL_MESSAGES.objectNotFound.dispute],
      [await create(me, { subject: 'moderation', object: service.id }), 404, APPEAL_MESSAGES.objectNotFound.moderation],
      // About oneself, or a malformed form: 400.
      [await create(seller, { subject: 'service', object: service.id }), 400, APPEAL_MESSAGES.notAboutYourself],
      [await create(me, { subject: 'user', object: me.user.id }), 400, APPEAL_MESSAGES.notAboutYourself],
      [await create(me, { subject: 'service' }), 400, APPEAL_MESSAGES.objectRequired],
      [await create(me, { subject: 'question', object: service.id }), 400, APPEAL_MESSAGES.objectNotExpected],
    ] as const;
    for (const [answer, status, message] of refused) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.message).toBe(message);
    }
    expect((await server.db.select().from(appeals).where(eq(appeals.authorId, me.user.id))).length).toBe(before);
  });

  it('takes a moderation objection about one of my own services or projects, in any state', async () => {
    const seller = await person({ role: 'seller' });
    const rejected = await createService(server.db, seller.user.id, { status: 'rejected' });
    const project = await createProject(server.db, seller.user.id, { status: 'archived' });
    const a = await create(seller, { subject: 'moderation', object: rejected.id });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.result.object).toMatchObject({ type: 'service', _id: rejected.id, link: `/profile/items/${rejected.id}/edit` });
    expect((await create(seller, { subject: 'moderation', object: project.id })).body.result.object).toMatchObject({ type: 'project', _id: project.id });
  });

  it('validates the text, the subject, the ids and the files at the edge (400, Russian messages)', async () => {
    const me = await person();
    const cases: [Record<string, unknown>, string][] = [
      [{ subject: 'question', text: 'коротко' }, 'text'],
      [{ subject: 'question', text: 'а'.repeat(5001) }, 'text'],
      [{ subject: 'question', text: '   ' }, 'text'],
      [{ subject: 'complaint', text: TEXT }, 'subject'],
      [{ subject: 'service', object: 'not-a-uuid', text: TEXT }, 'object'],
      [{ subject: 'question', text: TEXT, files: ['/etc/passwd'] }, 'files.0'],
      [{ subject: 'question', text: TEXT, files: Array.from({ length: 6 }, () => `/uploads/${me.user.id}/${randomBytes(16).toString('hex')}.png`) }, 'files'],
    ];
    for (const [body, field] of cases) {
      const answer = await post(me, '/api/appeals', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(Object.keys(answer.body.errors ?? {})).toContain(field);
    }
    // A file that is somebody else's upload.
    const other = await person();
    const path = `${other.user.id}/${randomBytes(16).toString('hex')}.png`;
    await server.db.insert(files).values({ ownerId: other.user.id, path, originalName: 'скрин.png', mime: 'image/png', size: 10 });
    const foreign = await post(me, '/api/appeals', { subject: 'question', text: TEXT, files: [`/uploads/${path}`] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.files).toEqual([APPEAL_MESSAGES.notYourFile]);
    // My own: kept, with its name.
    const mine = `${me.user.id}/${randomBytes(16).toString('hex')}.png`;
    await server.db.insert(files).values({ ownerId: me.user.id, path: mine, originalName: 'переписка.png', mime: 'image/png', size: 10 });
    const ok = await post(me, '/api/appeals', { subject: 'question', text: TEXT, files: [`/uploads/${mine}`] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.files).toEqual([{ url: `/uploads/${mine}`, name: 'переписка.png', mime: 'image/png', size: 10 }]);
  });

  it('limits appeals per account and per address to the operator settings (429), a day at a time', async () => {
    await server.app.services.settings.update(admin.user, { 'appeals.perDay': 2, 'appeals.perAddressPerDay': 3 });
    try {
      const [a, b] = await Promise.all([person(), person()]);
      const ip = randomAddress();
      expect((await create(a, { subject: 'question' }, ip)).status).toBe(200);
      // Two at once: the lock lets exactly one of them through.
      const racing = await Promise.all([create(a, { subject: 'question' }, ip), create(a, { subject: 'question' }, ip)]);
      expect(racing.map((r) => r.status).sort()).toEqual([200, 429]);
      expect(racing.find((r) => r.status === 429)!.body.message).toBe(APPEAL_MESSAGES.tooMany);
      // Another account from the same address: the address's third appeal passes, its fourth is one too many.
      expect((await create(b, { subject: 'question' }, ip)).status).toBe(200);
      expect((await create(b, { subject: 'question' }, ip)).status).toBe(429);
      expect((await create(b, { subject: 'question' }, randomAddress())).status).toBe(200);
      // A day later the account may write again.
      await server.db.update(appeals).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) }).where(eq(appeals.authorId, a.user.id));
      expect((await create(a, { subject: 'question' }, randomAddress())).status).toBe(200);
    } finally {
      await server.app.services.settings.update(admin.user, { 'appeals.perDay': 10, 'appeals.perAddressPerDay': 30 });
    }
  });

  it('names the object of a prefilled form (GET /api/appeals/target) with the same checks', async () => {
    const [me, seller] = await Promise.all([person(), person({ role: 'seller' })]);
    const service = await createService(server.db, seller.user.id);
    const target = await get<AppealTarget>(me, '/api/appeals/target', { subject: 'service', object: service.id });
    expect(target.body.result).toEqual({ subject: 'service', object: { type: 'service', _id: service.id, title: service.title, link: `/services/all/${service.id}` } });
    expect((await get(seller, '/api/appeals/target', { subject: 'service', object: service.id })).status).toBe(400);
    expect((await get(me, '/api/appeals/target', { subject: 'order', object: service.id })).status).toBe(404);
    expect((await get(null, '/api/appeals/target', { subject: 'question' })).status).toBe(401);
  });
});

describe('reading and answering', () => {
  it('shows an appeal to its author and admins only; lists mine newest first in keyset pages', async () => {
    const [me, other] = await Promise.all([person(), person()]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(me, { subject: 'question', text: `${TEXT} Номер ${i}.` })).body.result._id);
    const first = await get<Appeal[]>(me, '/api/appeals/my', { limit: '2' });
    expect(first.body.result.map((a) => a._id)).toEqual([ids[2], ids[1]]);
    expect(first.body.total).toBe(3);
    const second = await get<Appeal[]>(me, '/api/appeals/my', { limit: '2', cursor: (first.body as unknown as { next: string }).next });
    expect(second.body.result.map((a) => a._id)).toEqual([ids[0]]);
    expect((second.body as unknown as { next: string | null }).next).toBeNull();

    expect((await get(me, `/api/appeals/${ids[0]}`)).status).toBe(200);
    // Another member: as if it did not exist; not in their list either.
    const theirs = await get(other, `/api/appeals/${ids[0]}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe(APPEAL_MESSAGES.notFound);
    expect((await get<Appeal[]>(other, '/api/appeals/my')).body.result).toEqual([]);
    expect((await get(admin, `/api/admin/appeals/${ids[0]}`)).status).toBe(200);
    expect((await get(me, `/api/admin/appeals/${ids[0]}`)).status).toBe(403);
  });

  it('goes new → in_progress → closed; the answer reaches the author once, as a notification and a letter, audited', async () => {
    const [me, seller] = await Promise.all([person(), person({ role: 'seller' })]);
    const service = await createService(server.db, seller.user.id);
    const appeal = (await create(me, { subject: 'service', object: service.id })).body.result;

    // The admin's queue finds it by state, subject, number and words.
    const queue = async (query: Record<string, string>) => (await get<Appeal[]>(admin, '/api/admin/appeals', query)).body.result.map((a) => a._id);
    expect(await queue({ status: 'new', subject: 'service' })).toContain(appeal._id);
    expect(await queue({ q: String(appeal.number) })).toContain(appeal._id);
    expect(await queue({ q: service.title })).toContain(appeal._id);
    expect(await queue({ q: me.user.email })).toContain(appeal._id);
    expect(await queue({ status: 'closed' })).not.toContain(appeal._id);
    // The admin sees where the object is in the admin area.
    expect((await get(admin, `/api/admin/appeals/${appeal._id}`)).body.result.object?.link).toBe(`/admin/services/${service.id}/edit`);

    const taken = await post(admin, `/api/admin/appeals/${appeal._id}/take`, {});
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.result).toMatchObject({ status: 'in_progress', admin: { _id: admin.user.id } });
    expect(taken.body.result.taken_at).not.toBeNull();
    const again = await post(admin, `/api/admin/appeals/${appeal._id}/take`, {});
    expect([again.status, again.body.message]).toEqual([409, APPEAL_MESSAGES.alreadyTaken]);
    expect((await get<Appeal>(me, `/api/appeals/${appeal._id}`)).body.result.status).toBe('in_progress');

    expect((await post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: '  ' })).status).toBe(400);
    // Too short an answer: a 400 whose error names the field, which the form shows under it (ADR 046).
    const short = await post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: '  Ок  ' });
    expect([short.status, (short.body as unknown as { errors?: Record<string, string[]> }).errors]).toEqual([400, { answer: [APPEAL_MESSAGES.answerTooShort] }]);
    const answered = await post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: 'Проверили: услуга снята с публикации.' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.result).toMatchObject({ status: 'closed', answer: 'Проверили: услуга снята с публикации.' });
    // Once: a closed appeal is neither answered nor taken again.
    const twice = await post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: 'Ещё один ответ.' });
    expect([twice.status, twice.body.message]).toEqual([409, APPEAL_MESSAGES.alreadyClosed]);
    expect((await post(admin, `/api/admin/appeals/${appeal._id}/take`, {})).status).toBe(409);

    const mine = (await get<Appeal>(me, `/api/appeals/${appeal._id}`)).body.result;
    expect(mine).toMatchObject({ status: 'closed', answer: 'Проверили: услуга снята с публикации.' });
    expect(mine.closed_at).not.toBeNull();

    const notices = await server.db
      .select({ text: notifications.text, link: notifications.link })
      .from(notifications)
      .where(and(eq(notifications.userId, me.user.id), eq(notifications.kind, 'appeal.answered')));
    expect(notices).toEqual([{ text: `Администрация ответила на ваше обращение №${appeal.number} «Жалоба на услугу: ${service.title}»`, link: '/profile/disputes?tab=appeals' }]);
    const letters = (await server.db.select().from(outbox).where(eq(outbox.kind, 'letter')))
      .map((l) => l.payload as { to: string; letter: { subject: string; text: string } })
      .filter((l) => l.to === me.user.email);
    expect(letters.map((l) => l.letter.subject)).toEqual([`Ответ на ваше обращение №${appeal.number} — Подряд`]);
    expect(letters[0]!.letter.text).toContain('Проверили: услуга снята с публикации.');
    const trail = await server.db.select({ action: auditLog.action, actor: auditLog.actorId }).from(auditLog).where(eq(auditLog.targetId, appeal._id));
    expect(trail.map((t) => t.action).sort()).toEqual(['appeal.answer', 'appeal.take']);
    expect(new Set(trail.map((t) => t.actor))).toEqual(new Set([admin.user.id]));
  });

  it('answers a new appeal directly (taken by the answering admin) and sends the letter even with emails switched off', async () => {
    const me = await person();
    await server.db.update(users).set({ preferences: { emailNotifications: { news: false, moderation: false, orders: false, bids: false, reviews: false, disputes: false, messages: false } } }).where(eq(users.id, me.user.id));
    const appeal = (await create(me, { subject: 'question' })).body.result;
    const answered = await post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: 'Ответ на вопрос.' });
    expect(answered.body.result).toMatchObject({ status: 'closed', admin: { _id: admin.user.id } });
    const letters = (await server.db.select().from(outbox).where(eq(outbox.kind, 'letter'))).filter((l) => (l.payload as { to: string }).to === me.user.email);
    expect(letters).toHaveLength(1);
  });

  it('lets one of two admins answering at once close it: one 200, one 409, one notification', async () => {
    const [me, other] = await Promise.all([person(), person({ role: 'admin' })]);
    const appeal = (await create(me, { subject: 'question' })).body.result;
    const answers = await Promise.all([
      post(admin, `/api/admin/appeals/${appeal._id}/answer`, { answer: 'Первый ответ.' }),
      post(other, `/api/admin/appeals/${appeal._id}/answer`, { answer: 'Второй ответ.' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const notices = await server.db.select().from(notifications).where(and(eq(notifications.userId, me.user.id), eq(notifications.kind, 'appeal.answered')));
    expect(notices).toHaveLength(1);
    const [row] = await server.db.select().from(appeals).where(eq(appeals.id, appeal._id));
    expect(row!.answer).toBe(answers.find((a) => a.status === 200)!.body.result.answer);
  });

  it('keeps an appeal whose object is gone, with the title it had', async () => {
    const [me, seller] = await Promise.all([person(), person({ role: 'seller' })]);
    const order = await orderOf(me, seller);
    const appeal = (await create(me, { subject: 'order', object: order.id })).body.result;
    await server.db.delete(orders).where(eq(orders.id, order.id));
    expect((await get<Appeal>(me, `/api/appeals/${appeal._id}`)).body.result.object?.title).toBe(`Заказ №${order.number} «Логотип для кофейни»`);
  });
});
