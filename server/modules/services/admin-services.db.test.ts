import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { services, type ServiceStatus } from './schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { files } from '../files/schema.ts';
import type { UserRow } from '../users/schema.ts';
import { CATALOG_MESSAGES, type Service } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { call } from '../../test/api.ts';
import { encodeCursor } from '../../platform/listing/listing.ts';
import { ADMIN_SERVICE_MESSAGES } from './commands/moderate.ts';
import { createService } from '../../db/catalog-factories.ts';

type Page<T> = { status: number; result: T[]; total: number; next: string | null; message?: string; errors?: Record<string, string[]> };

let sink: SmtpSink;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
let admin: { user: UserRow; token: string };
let customer: { user: UserRow; token: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  database = await createTestDatabase();
  db = database.db;
  const env = testEnv({ SMTP_URL: sink.url, PUBLIC_URL: 'http://podryad.test' });
  const log = pino({ level: 'silent' });
  app = await buildApp({ env, database, logger: log, web: false });
  await app.ready();
  // Letters leave through the outbox, as in a server.
  await app.services.platform.dispatcher.start();
  admin = await account({ role: 'admin' });
  customer = await account({ role: 'customer' });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
  await sink?.close();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}
const seller = () => account({ role: 'seller' });

async function upload(owner: UserRow) {
  const path = `${owner.id}/${randomBytes(16).toString('hex')}.png`;
  await db.insert(files).values({ ownerId: owner.id, path, originalName: 'обложка.png', mime: 'image/png', size: 1234 });
  return `/uploads/${path}`;
}

const input = (overrides: Record<string, unknown> = {}) => ({
  title: 'Сделаю презентацию для инвесторов',
  description: 'Структура, дизайн и инфографика презентации до 20 слайдов, правки до полного согласования.',
  category: 'design',
  sub: 'presentation-design',
  tags: ['презентация'],
  images: [],
  price: 500_000,
  days: 4,
  ...overrides,
});

const adminList = (query: Record<string, string>, token = admin.token) =>
  call<Service[]>(app, 'GET', '/api/admin/services', { query, token }) as Promise<{ status: number; body: Page<Service> }>;
const decide = (id: string, body: unknown, token = admin.token) => call<Service>(app, 'PATCH', `/api/admin/services/${id}`, { body, token });
const edit = (id: string, body: unknown, token = admin.token) => call<Service>(app, 'PUT', `/api/admin/services/${id}`, { body, token });
const row = async (id: string) => (await db.select().from(services).where(eq(services.id, id)))[0]!;
const auditOf = (id: string) => db.select().from(auditLog).where(and(eq(auditLog.targetType, 'service'), eq(auditLog.targetId, id))).orderBy(auditLog.createdAt);
const lettersTo = (email: string) => sink.messages.filter((m) => m.to.includes(email));
const marker = () => `метка${randomBytes(4).toString('hex')}`;

describe('authorization: moderation is for admins only', () => {
  type Request = { title: string; method: InjectOptions['method']; url: (id: string) => string; body?: unknown; query?: Record<string, string>; adminStatus: number };
  const requests: Request[] = [
    { title: 'the queue', method: 'GET', url: () => '/api/admin/services', adminStatus: 200 },
    { title: 'the queue with filters', method: 'GET', url: () => '/api/admin/services', query: { status: 'moderation', q: 'презентация', limit: '5' }, adminStatus: 200 },
    { title: 'the queue with an invalid query', method: 'GET', url: () => '/api/admin/services', query: { status: 'deleted', limit: '1000' }, adminStatus: 400 },
    { title: 'the queue with a broken cursor', method: 'GET', url: () => '/api/admin/services', query: { cursor: 'xyz' }, adminStatus: 400 },
    { title: 'one service', method: 'GET', url: (id) => `/api/admin/services/${id}`, adminStatus: 200 },
    { title: 'an unknown service', method: 'GET', url: () => '/api/admin/services/00000000-0000-4000-8000-000000000000', adminStatus: 404 },
    { title: 'a malformed id', method: 'GET', url: () => '/api/admin/services/42', adminStatus: 400 },
    { title: 'approve', method: 'PATCH', url: (id) => `/api/admin/services/${id}`, body: { status: 'active' }, adminStatus: 200 },
    { title: 'reject', method: 'PATCH', url: (id) => `/api/admin/services/${id}`, body: { status: 'rejected', reason: 'Нет примеров работ' }, adminStatus: 200 },
    { title: 'hide', method: 'PATCH', url: (id) => `/api/admin/services/${id}`, body: { status: 'hidden', reason: 'Жалобы' }, adminStatus: 200 },
    { title: 'reject without a reason', method: 'PATCH', url: (id) => `/api/admin/services/${id}`, body: { status: 'rejected' }, adminStatus: 400 },
    { title: 'an unknown decision', method: 'PATCH', url: (id) => `/api/admin/services/${id}`, body: { status: 'draft' }, adminStatus: 400 },
    { title: 'decide on an unknown service', method: 'PATCH', url: () => '/api/admin/services/00000000-0000-4000-8000-000000000000', body: { status: 'active' }, adminStatus: 404 },
    { title: 'edit', method: 'PUT', url: (id) => `/api/admin/services/${id}`, body: input(), adminStatus: 200 },
    { title: 'edit with an invalid body', method: 'PUT', url: (id) => `/api/admin/services/${id}`, body: input({ price: 100 }), adminStatus: 400 },
    { title: 'a wrong method', method: 'DELETE', url: (id) => `/api/admin/services/${id}`, adminStatus: 404 },
  ];

  it.each(requests)('$title: guest 401, customer 403, the owner 403, admin $adminStatus', async (r) => {
    const owner = await seller();
    for (const [who, token, status] of [
      ['guest', null, 401],
      ['customer', customer.token, 403],
      ['owner', owner.token, 403],
      ['admin', admin.token, r.adminStatus],
    ] as const) {
      const s = await createService(db, owner.user.id, { status: 'moderation' });
      const res = await call(app, r.method, r.url(s.id), { token, body: r.body, query: r.query });
      expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (status === 403) {
        expect(res.body.message).toBe(MESSAGES.forbidden);
        expect(res.body.result).toBeUndefined();
        expect(res.body.errors).toBeUndefined();
        // Refused: nothing changed, nothing recorded.
        expect((await row(s.id)).status).toBe('moderation');
        expect(await auditOf(s.id)).toEqual([]);
      }
    }
  });
});

describe('GET /api/admin/services', () => {
  const tag = marker();
  const made: Record<ServiceStatus, string[]> = { draft: [], moderation: [], active: [], rejected: [], paused: [], hidden: [] };
  beforeAll(async () => {
    const owner = await seller();
    let day = 1;
    for (const status of ['moderation', 'active', 'hidden', 'moderation', 'draft', 'rejected', 'moderation', 'paused', 'moderation', 'moderation'] as const) {
      const s = await createService(db, owner.user.id, { status, tags: [tag], title: `Презентация для инвесторов ${day}`, updatedAt: new Date(Date.UTC(2020, 0, day++)) });
      made[status].push(s.id);
    }
  });
  const mine = (list: Service[]) => list.filter((s) => s.tags.includes(tag)).map((s) => s._id);

  it('the moderation queue, oldest first, page by page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await adminList({ status: 'moderation', q: tag, limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.total).toBe(5);
      expect(res.body.result.every((s) => s.status === 'moderation')).toBe(true);
      seen.push(...res.body.result.map((s) => s._id));
      cursor = res.body.next;
    } while (cursor);
    expect(seen).toEqual(made.moderation);
  });

  it('any other state, or all of them, newest first; services of every state are there', async () => {
    const all = await adminList({ q: tag, limit: '60' });
    expect(all.body.total).toBe(10);
    expect(new Set(all.body.result.map((s) => s.status))).toEqual(new Set(['draft', 'moderation', 'active', 'rejected', 'paused', 'hidden']));
    const dates = all.body.result.map((s) => s.updated_at);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(mine((await adminList({ status: 'hidden', q: tag })).body.result)).toEqual(made.hidden);
  });

  it('searches words in any form, and fragments of the title', async () => {
    expect((await adminList({ q: `инвесторам ${tag}`, limit: '60' })).body.total).toBe(10);
    expect((await adminList({ q: 'Презентация для инвест', status: 'paused' })).body.result.map((s) => s._id)).toContain(made.paused[0]);
    expect((await adminList({ q: "'; drop table services; --" })).status).toBe(200);
    expect((await adminList({ q: '%' })).status).toBe(200);
  });

  it('a cursor of the queue does not work for another list', async () => {
    const first = await adminList({ status: 'moderation', q: tag, limit: '2' });
    const res = await adminList({ status: 'active', cursor: first.body.next! });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(CATALOG_MESSAGES.badCursor);
    expect((await adminList({ cursor: encodeCursor(['recent', 1, 2]) })).status).toBe(400);
  });

  it('one service in any state, with its reason', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'rejected', rejectReason: 'Нет портфолио' });
    const res = await call<Service>(app, 'GET', `/api/admin/services/${s.id}`, { token: admin.token });
    expect(res.body.result).toMatchObject({ _id: s.id, status: 'rejected', reject_reason: 'Нет портфолио' });
    // Reading it is not a view.
    expect((await row(s.id)).views).toBe(0);
  });
});

describe('PATCH /api/admin/services/{id}: decisions, audited, the owner told by email', () => {
  it('approve: moderation → active, published, public; audited; the owner gets a letter', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'moderation', title: 'Сделаю презентацию «Весна»' });
    const res = await decide(s.id, { status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'active', reject_reason: null });
    expect((await row(s.id)).publishedAt).toBeInstanceOf(Date);
    expect((await call(app, 'GET', `/api/services/${s.id}`)).status).toBe(200);
    const entries = await auditOf(s.id);
    expect(entries).toMatchObject([{ actorId: admin.user.id, action: 'service.approve', targetType: 'service', targetId: s.id, details: {} }]);
    const letter = await sink.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('прошла модерацию'));
    expect(letter.subject).toBe('Услуга прошла модерацию — Подряд');
    expect(letter.text).toContain('«Сделаю презентацию «Весна»»');
    expect(letter.text).toContain(`Здравствуйте, ${owner.user.name}!`);
    expect(letter.links).toContain('http://podryad.test/profile/items');
    expect(letter.html).toContain('http://podryad.test/profile/items');
  });

  it('reject: the reason is stored, shown to the owner, audited and mailed', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'moderation' });
    const reason = 'Описание скопировано <с чужого> сайта';
    expect((await decide(s.id, { status: 'rejected', reason: `  ${reason} ` })).body.result).toMatchObject({ status: 'rejected', reject_reason: reason });
    expect((await call<Service>(app, 'GET', `/api/services/${s.id}`, { token: owner.token })).body.result.reject_reason).toBe(reason);
    expect(await auditOf(s.id)).toMatchObject([{ action: 'service.reject', details: { reason } }]);
    const letter = await sink.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('не прошла модерацию'));
    expect(letter.text).toContain(`Причина: ${reason}`);
    expect(letter.html).toContain('Причина: Описание скопировано &lt;с чужого&gt; сайта');
    expect((await row(s.id)).publishedAt).toBeNull();
  });

  it('hide and restore: out of the catalogue and back, keeping the publication date', async () => {
    const owner = await seller();
    const tag = marker();
    const s = await createService(db, owner.user.id, { tags: [tag] });
    const published = (await row(s.id)).publishedAt;
    const listed = async () => (await call<Service[]>(app, 'GET', '/api/services', { query: { tag } })).body.result.length;
    expect(await listed()).toBe(1);

    expect((await decide(s.id, { status: 'hidden', reason: 'Жалобы покупателей' })).body.result).toMatchObject({ status: 'hidden', reject_reason: 'Жалобы покупателей' });
    expect(await listed()).toBe(0);
    expect((await call(app, 'GET', `/api/services/${s.id}`)).status).toBe(404);
    await sink.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('скрыта'));

    expect((await decide(s.id, { status: 'active' })).body.result).toMatchObject({ status: 'active', reject_reason: null });
    expect(await listed()).toBe(1);
    expect((await row(s.id)).publishedAt).toEqual(published);
    await sink.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('снова в каталоге'));
    expect((await auditOf(s.id)).map((e) => [e.action, e.details])).toEqual([
      ['service.hide', { reason: 'Жалобы покупателей' }],
      ['service.restore', {}],
    ]);
  });

  it('any state but hidden can be hidden', async () => {
    const owner = await seller();
    for (const status of ['draft', 'moderation', 'active', 'rejected', 'paused'] as const) {
      const s = await createService(db, owner.user.id, { status });
      expect((await decide(s.id, { status: 'hidden', reason: 'Запрещённая услуга' })).body.result.status, status).toBe('hidden');
    }
  });

  it('decisions that do not fit the state are refused: nothing changes, nothing is recorded or mailed', async () => {
    const owner = await seller();
    const refused: [ServiceStatus, unknown][] = [
      ['draft', { status: 'active' }],
      ['active', { status: 'active' }],
      ['paused', { status: 'active' }],
      ['rejected', { status: 'active' }],
      ['draft', { status: 'rejected', reason: 'Причина' }],
      ['active', { status: 'rejected', reason: 'Причина' }],
      ['rejected', { status: 'rejected', reason: 'Причина' }],
      ['hidden', { status: 'rejected', reason: 'Причина' }],
      ['hidden', { status: 'hidden', reason: 'Причина' }],
    ];
    for (const [status, body] of refused) {
      const s = await createService(db, owner.user.id, { status });
      const res = await decide(s.id, body);
      expect(res.status, `${status} → ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.cannotChange);
      expect((await row(s.id)).status).toBe(status);
      expect(await auditOf(s.id)).toEqual([]);
    }
    // Whatever was committed has been delivered by now: nothing was.
    await app.services.platform.dispatcher.runDue();
    expect(lettersTo(owner.user.email)).toEqual([]);
  });

  it('reject and hide need a reason; approve does not keep one', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'moderation' });
    for (const body of [{ status: 'rejected' }, { status: 'hidden' }, { status: 'rejected', reason: '  ' }, { status: 'hidden', reason: 'а' }]) {
      const res = await decide(s.id, body);
      expect(res.status).toBe(400);
      expect(res.body.errors?.reason).toEqual([ADMIN_SERVICE_MESSAGES.reasonRequired]);
    }
    expect((await decide(s.id, { status: 'rejected', reason: 'x'.repeat(1001) })).body.errors?.reason).toEqual(['Причина — до 1000 символов']);
    expect((await decide(s.id, { status: 'active', reason: 'Всё хорошо' })).body.result.reject_reason).toBeNull();
  });
});

describe('PUT /api/admin/services/{id}: an admin edit', () => {
  it('changes the fields and keeps the state; audited; the owner told', async () => {
    const owner = await seller();
    const tag = marker();
    const s = await createService(db, owner.user.id, { tags: [tag] });
    const image = await upload(owner.user);
    const res = await edit(s.id, input({ title: 'Исправленное название услуги', category: 'development', sub: 'landing-pages', images: [image], tags: [tag, 'Лендинг'] }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'active', title: 'Исправленное название услуги', category: 'development', sub: 'landing-pages', images: [image], tags: [tag, 'лендинг'] });
    expect((await call<Service[]>(app, 'GET', '/api/services', { query: { tag } })).body.result.map((c) => c._id)).toEqual([s.id]);
    expect(await auditOf(s.id)).toMatchObject([{ actorId: admin.user.id, action: 'service.edit' }]);
    await sink.waitFor((m) => m.to.includes(owner.user.email) && m.subject.includes('Администрация изменила'));

    const draft = await createService(db, owner.user.id, { status: 'moderation' });
    expect((await edit(draft.id, input())).body.result.status).toBe('moderation');
  });

  it('the images stay the seller\'s own: the admin\'s files are refused; categories are checked', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id);
    const mine = await upload(admin.user);
    const res = await edit(s.id, input({ images: [mine] }));
    expect(res.status).toBe(400);
    expect(res.body.errors?.['images.0']).toEqual([CATALOG_MESSAGES.notYourImage]);
    expect((await edit(s.id, input({ category: 'design', sub: 'landing-pages' }))).body.errors?.sub).toEqual([CATALOG_MESSAGES.unknownSub]);
    expect(await auditOf(s.id)).toEqual([]);
    expect((await edit('00000000-0000-4000-8000-000000000000', input())).status).toBe(404);
  });
});

describe('an edit of a live service waits beside it (issue 15, 3)', () => {
  const ownerEdit = (id: string, body: unknown, token: string) => call<Service>(app, 'PUT', `/api/services/${id}`, { body, token });
  const publicGet = (id: string) => call<Service>(app, 'GET', `/api/services/${id}`);

  it('keeps the approved version public; the owner and the queue see the edit; approval swaps them', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'active', title: 'Старое название услуги', publishedAt: new Date('2026-01-01') });
    const picture = await upload(owner.user);
    const res = await ownerEdit(s.id, input({ title: 'Новое название услуги', images: [picture] }), owner.token);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'active', title: 'Старое название услуги', pending_edit: { title: 'Новое название услуги', images: [picture] } });

    // Buyers: the approved version, still listed, with nothing of the edit.
    const seen = await publicGet(s.id);
    expect(seen.status).toBe(200);
    expect(seen.body.result.title).toBe('Старое название услуги');
    expect(seen.body.result).not.toHaveProperty('pending_edit');
    // The owner's own list shows the edit.
    const mine = await call<Service[]>(app, 'GET', '/api/services/my', { token: owner.token });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.result.find((x) => x._id === s.id)?.pending_edit?.title).toBe('Новое название услуги');
    // The moderation queue has it.
    const queue = await adminList({ status: 'moderation', q: 'Старое название услуги' });
    expect(queue.status, JSON.stringify(queue.body)).toBe(200);
    expect(queue.body.result.find((x) => x._id === s.id)?.pending_edit?.title).toBe('Новое название услуги');

    const approved = await decide(s.id, { status: 'active' });
    expect(approved.status).toBe(200);
    expect(approved.body.result).toMatchObject({ status: 'active', title: 'Новое название услуги', images: [picture], pending_edit: null });
    expect((await publicGet(s.id)).body.result.title).toBe('Новое название услуги');
    expect((await row(s.id)).publishedAt?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect((await auditOf(s.id)).map((a) => a.action)).toEqual(['service.approve-edit']);
  });

  it('a rejected edit is dropped with its reason; the approved version stays public', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'active', title: 'Прежнее название услуги' });
    await ownerEdit(s.id, input({ title: 'Запрещённое название услуги' }), owner.token);
    const rejected = await decide(s.id, { status: 'rejected', reason: 'Название нарушает правила' });
    expect(rejected.body.result).toMatchObject({ status: 'active', title: 'Прежнее название услуги', reject_reason: 'Название нарушает правила', pending_edit: null });
    expect((await publicGet(s.id)).status).toBe(200);
    expect((await auditOf(s.id)).map((a) => a.action)).toEqual(['service.reject-edit']);
    // Deciding again finds nothing waiting: a plain approve of an active service is refused.
    expect((await decide(s.id, { status: 'active' })).status).toBe(400);
  });

  it('a second edit replaces the first; a hide still hides', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'active' });
    await ownerEdit(s.id, input({ title: 'Первая правка названия' }), owner.token);
    const second = await ownerEdit(s.id, input({ title: 'Вторая правка названия' }), owner.token);
    expect(second.body.result.pending_edit?.title).toBe('Вторая правка названия');
    expect((await decide(s.id, { status: 'hidden', reason: 'Жалобы покупателей' })).body.result.status).toBe('hidden');
  });

  it('the pictures of a waiting edit survive the uploads cleanup', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { status: 'active' });
    const picture = await upload(owner.user);
    await db.update(files).set({ createdAt: new Date(Date.now() - 3 * 86_400_000) }).where(eq(files.path, picture.replace('/uploads/', '')));
    await ownerEdit(s.id, input({ images: [picture] }), owner.token);
    await app.services.files.sweepUnused(new Date(Date.now() - 86_400_000), 100_000);
    expect(await db.select().from(files).where(eq(files.path, picture.replace('/uploads/', '')))).toHaveLength(1);
  });
});
