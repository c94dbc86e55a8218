import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { services, type ServiceStatus } from './schema.ts';
import { files } from '../files/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { CATALOG_MESSAGES, type Service, type ServiceCard } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { call } from '../../test/api.ts';
import { FILE_MESSAGES } from '../../platform/files.ts';
import { encodeCursor, orderBy } from '../../platform/listing/listing.ts';
import { EXACT_TOTAL_LIMIT } from '../../platform/listing/totals.ts';
import { sortPlan, type ListingSort } from './queries/listing-plan.ts';
import { sellerLevel } from '../users/index.ts';
import { createService } from '../../db/catalog-factories.ts';

type Page<T> = { status: number; result: T[]; total: number; total_exact?: boolean; next: string | null; message?: string; errors?: Record<string, string[]> };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
let admin: { user: UserRow; token: string };

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const env = testEnv();
  const log = pino({ level: 'silent' });
  app = await buildApp({ env, database, logger: log, web: false });
  await app.ready();
  admin = await account({ role: 'admin' });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}
const seller = (overrides: UserOverrides = {}) => account({ role: 'seller', ...overrides });

/** A file row of `owner`, as an upload leaves it, and its public url. */
async function upload(owner: UserRow, kind: 'png' | 'pdf' = 'png') {
  const path = `${owner.id}/${randomBytes(16).toString('hex')}.${kind}`;
  await db.insert(files).values({ ownerId: owner.id, path, originalName: `файл.${kind}`, mime: kind === 'png' ? 'image/png' : 'application/pdf', size: 1234 });
  return `/uploads/${path}`;
}

const marker = () => `метка${randomBytes(4).toString('hex')}`;

const input = (overrides: Record<string, unknown> = {}) => ({
  title: 'Нарисую логотип для вашей компании',
  description: 'Разработаю уникальный логотип: три варианта на выбор, правки до утверждения и исходники в векторе.',
  category: 'design',
  sub: 'logo-design',
  tags: ['Логотип', '  фирменный   стиль '],
  images: [],
  price: 300_000,
  days: 5,
  packages: [
    { kind: 'economy', price: 300_000, days: 5, revisions: 1, description: 'Один вариант логотипа' },
    { kind: 'business', price: 900_000, days: 10, revisions: 5, description: 'Логотип и фирменный стиль' },
  ],
  extras: [{ title: 'Срочно за сутки', price: 100_000, days: 0 }],
  ...overrides,
});

const list = (query: Record<string, string>, token: string | null = null) => call<ServiceCard[]>(app, 'GET', '/api/services', { query, token }) as Promise<{ status: number; body: Page<ServiceCard> }>;
const detail = (id: string, token: string | null = null) => call<Service>(app, 'GET', `/api/services/${id}`, { token });
const create = (body: unknown, token: string | null) => call<Service>(app, 'POST', '/api/services', { body, token });
const update = (id: string, body: unknown, token: string | null) => call<Service>(app, 'PUT', `/api/services/${id}`, { body, token });
const action = (id: string, name: string, token: string | null) => call<Service>(app, 'PATCH', `/api/services/${id}/status`, { body: { action: name }, token });
const decide = (id: string, body: unknown) => call<Service>(app, 'PATCH', `/api/admin/services/${id}`, { body, token: admin.token });
const mine = (token: string) => call<Service[]>(app, 'GET', '/api/services/my', { token });
const row = async (id: string) => (await db.select().from(services).where(eq(services.id, id)))[0];
const ids = (cards: { _id: string }[]) => cards.map((c) => c._id);

/** Every page of a listing through its cursors. */
async function walk(query: Record<string, string>, limit: number): Promise<{ ids: string[]; pages: number[]; totals: number[] }> {
  const out = { ids: [] as string[], pages: [] as number[], totals: [] as number[] };
  let cursor: string | null = null;
  do {
    const res = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.ids.push(...ids(res.body.result));
    out.pages.push(res.body.result.length);
    out.totals.push(res.body.total);
    cursor = res.body.next;
    if (out.pages.length > 100) throw new Error('the cursor never ends');
  } while (cursor);
  return out;
}

describe('POST /api/services', () => {
  it('creates a service for moderation, or a draft, with everything the seller entered', async () => {
    const { user, token } = await seller();
    const images = [await upload(user), await upload(user)];
    const res = await create(input({ images }), token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({
      title: 'Нарисую логотип для вашей компании',
      category: 'design',
      category_title: 'Дизайн',
      sub: 'logo-design',
      tags: ['логотип', 'фирменный стиль'],
      images,
      cover: images[0],
      price: 300_000,
      days: 5,
      revisions: 2,
      status: 'moderation',
      reject_reason: null,
      views: 0,
      orders_count: 0,
      rating: 0,
      reviews_count: 0,
      extras: [{ title: 'Срочно за сутки', price: 100_000, days: 0 }],
    });
    expect(s.packages.map((p) => p.kind)).toEqual(['economy', 'business']);
    expect(s.seller).toMatchObject({ _id: user.id, user_name: user.userName, level: 'new', online_status: false });
    expect(JSON.stringify(s.seller)).not.toMatch(/email|password/i);
    const stored = await row(s._id);
    expect(stored).toMatchObject({ sellerId: user.id, tagsText: 'логотип фирменный стиль', publishedAt: null });

    const draft = await create(input({ publish: false }), token);
    expect(draft.body.result.status).toBe('draft');
  });

  it('guest 401, unconfirmed 403 (confirm first), customer mode 403 (seller only), admin mode 403', async () => {
    expect((await create(input(), null)).status).toBe(401);
    const unconfirmed = await seller({ emailConfirmedAt: null });
    const res = await create(input(), unconfirmed.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(AUTH_MESSAGES.mustConfirm);
    const customer = await account({ role: 'customer' });
    const asCustomer = await create(input(), customer.token);
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.message).toBe(CATALOG_MESSAGES.sellerOnly);
    const both = await account({ role: 'seller', roles: ['customer', 'seller'], activeRole: 'customer' });
    expect((await create(input(), both.token)).body.message).toBe(CATALOG_MESSAGES.sellerOnly);
    expect((await create(input(), admin.token)).body.message).toBe(CATALOG_MESSAGES.sellerOnly);
    const count = await db.select({ id: services.id }).from(services).where(inArray(services.sellerId, [unconfirmed.user.id, customer.user.id, both.user.id]));
    expect(count).toEqual([]);
  });

  describe('validation, in Russian, field by field', () => {
    let s: Awaited<ReturnType<typeof seller>>;
    beforeAll(async () => {
      s = await seller();
    });

    const cases: [string, () => Promise<Record<string, unknown>>, string, string][] = [
      ['price 49 999 kopecks', async () => ({ price: 49_999 }), 'price', 'Минимальная цена — 500\u00a0руб.'],
      ['a price in rubles with kopecks', async () => ({ price: 500_00.5 }), 'price', 'Цену — целое число копеек'],
      ['a package below the minimum', async () => ({ packages: [{ kind: 'economy', price: 100, days: 1, revisions: 0, description: 'Дёшево' }] }), 'packages.0.price', 'Цена — от 500\u00a0руб.'],
      ['11 images', async () => ({ images: await Promise.all(Array.from({ length: 11 }, () => upload(s.user))) }), 'images', 'Не больше 10 изображений'],
      ['an image path typed by hand', async () => ({ images: ['/etc/passwd'] }), 'images.0', 'Загрузите файл через форму'],
      ['an image of another user', async () => ({ images: [await upload((await seller()).user)] }), 'images.0', CATALOG_MESSAGES.notYourImage],
      ['an image nobody uploaded', async () => ({ images: [`/uploads/${s.user.id}/${'0'.repeat(32)}.png`] }), 'images.0', CATALOG_MESSAGES.notYourImage],
      ['a document instead of an image', async () => ({ images: [await upload(s.user), await upload(s.user, 'pdf')] }), 'images.1', FILE_MESSAGES.badType],
      ['an unknown category', async () => ({ category: 'astrology', sub: null }), 'category', CATALOG_MESSAGES.unknownCategory],
      ['no category', async () => ({ category: undefined }), 'category', 'Выберите категорию'],
      ['a sub-category of another category', async () => ({ category: 'design', sub: 'landing-pages' }), 'sub', CATALOG_MESSAGES.unknownSub],
      ['an unknown sub-category', async () => ({ sub: 'nothing-like-it' }), 'sub', CATALOG_MESSAGES.unknownSub],
      ['the same package twice', async () => ({ packages: [input().packages[0], input().packages[0]] }), 'packages', 'Каждый пакет — один раз'],
      ['a short title', async () => ({ title: 'Логотип' }), 'title', 'Название — от 10 символов'],
      ['a short description', async () => ({ description: 'Быстро и дёшево' }), 'description', 'Описание — от 50 символов'],
      ['no days', async () => ({ days: undefined }), 'days', 'Укажите срок'],
      ['zero days', async () => ({ days: 0 }), 'days', 'Срок — от 1 дня'],
      ['a title of control characters', async () => ({ title: '\u0000'.repeat(12) }), 'title', 'Название — от 10 символов'],
      ['11 tags', async () => ({ tags: Array.from({ length: 11 }, (_, i) => `тег${i}`) }), 'tags', 'Не больше 10 тегов'],
    ];

    it.each(cases)('%s → 400 on %s', async (_title, overrides, field, message) => {
      const res = await create(input(await overrides()), s.token);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBe(MESSAGES.validation);
      expect(res.body.errors?.[field], JSON.stringify(res.body.errors)).toContain(message);
    });

    it('nothing was stored by the failed attempts, and exactly 10 own images are fine', async () => {
      expect(await db.select({ id: services.id }).from(services).where(eq(services.sellerId, s.user.id))).toEqual([]);
      const images = await Promise.all(Array.from({ length: 10 }, () => upload(s.user)));
      const res = await create(input({ images, sub: null, price: 50_000 }), s.token);
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ images, sub: null, price: 50_000 });
    });

    it('control characters are dropped (NUL at the edge, the others by the schema), line breaks kept', async () => {
      const res = await create(input({ title: 'Нарисую\u0000 логотип\tдля вас', description: `${input().description}\r\nВторая строка\u0000.`, tags: ['лого\u0000тип'] }), s.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.result).toMatchObject({ title: 'Нарисую логотип для вас', description: `${input().description}\nВторая строка.`, tags: ['логотип'] });
      await db.delete(services).where(eq(services.id, res.body.result._id));
    });

    it('a body that is not JSON, or no body, is a 400', async () => {
      expect((await create(undefined, s.token)).status).toBe(400);
      const res = await app.inject({ method: 'POST', url: '/api/services', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, payload: '{"title":' });
      expect(res.statusCode).toBe(400);
    });
  });
});

describe('the state machine, as the seller drives it', () => {
  it('draft → moderation → active ⇄ paused; an edit goes back to moderation; rejected with a reason; resubmitted', async () => {
    const { token } = await seller();
    const id = (await create(input({ publish: false }), token)).body.result._id;
    const status = async () => (await row(id))!.status;
    const expectCannot = async (name: string) => {
      const res = await action(id, name, token);
      expect(res.status, `${name} from ${await status()}`).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.cannotChange);
    };

    // draft: only submit.
    await expectCannot('pause');
    await expectCannot('resume');
    // An edit of a draft without publish keeps it a draft.
    expect((await update(id, input({ publish: false, title: 'Нарисую логотип, черновик' }), token)).body.result.status).toBe('draft');
    expect((await action(id, 'submit', token)).body.result.status).toBe('moderation');
    // moderation: nothing for the seller; an edit keeps it in moderation.
    await expectCannot('submit');
    await expectCannot('pause');
    await expectCannot('resume');
    expect((await update(id, input({ publish: false }), token)).body.result.status).toBe('moderation');
    // Not public yet.
    expect((await detail(id)).status).toBe(404);

    expect((await decide(id, { status: 'active' })).status).toBe(200);
    expect(await status()).toBe('active');
    const published = (await row(id))!.publishedAt;
    expect(published).toBeInstanceOf(Date);
    expect((await detail(id)).status).toBe(200);
    await expectCannot('submit');
    await expectCannot('resume');

    expect((await action(id, 'pause', token)).body.result.status).toBe('paused');
    expect((await detail(id)).status).toBe(404);
    await expectCannot('pause');
    await expectCannot('submit');
    expect((await action(id, 'resume', token)).body.result.status).toBe('active');
    expect((await detail(id)).status).toBe(200);

    // An edit of an active service waits for moderation beside it: buyers keep the approved version (issue 15, 3).
    const before = (await detail(id)).body.result.title;
    const edited = await update(id, input({ title: 'Нарисую логотип, новая версия', publish: false }), token);
    expect(edited.body.result).toMatchObject({ status: 'active', title: before, pending_edit: { title: 'Нарисую логотип, новая версия' } });
    expect((await detail(id)).body.result.title).toBe(before);
    expect((await decide(id, { status: 'active' })).body.result.title).toBe('Нарисую логотип, новая версия');

    // An edit of a paused service sends it back to moderation, even without publish.
    await action(id, 'pause', token);
    expect((await update(id, input({ title: 'Нарисую логотип, третья версия', publish: false }), token)).body.result).toMatchObject({
      status: 'moderation',
      title: 'Нарисую логотип, третья версия',
    });
    expect((await detail(id)).status).toBe(404);

    // Rejected: the reason is the seller's to see.
    expect((await decide(id, { status: 'rejected', reason: 'На изображениях чужие работы' })).status).toBe(200);
    const rejected = await detail(id, token);
    expect(rejected.body.result).toMatchObject({ status: 'rejected', reject_reason: 'На изображениях чужие работы' });
    expect((await mine(token)).body.result.find((s) => s._id === id)).toMatchObject({ status: 'rejected', reject_reason: 'На изображениях чужие работы' });
    await expectCannot('pause');
    await expectCannot('resume');
    // Edited after the rejection: back to moderation, the old reason gone.
    expect((await update(id, input(), token)).body.result).toMatchObject({ status: 'moderation', reject_reason: null });
    await decide(id, { status: 'rejected', reason: 'Всё ещё чужие работы' });
    expect((await action(id, 'submit', token)).body.result).toMatchObject({ status: 'moderation', reject_reason: null });

    // Approved again: the publication date stays the first one.
    await decide(id, { status: 'active' });
    expect((await row(id))!.publishedAt).toEqual(published);

    // A paused service that is edited goes to moderation too.
    await action(id, 'pause', token);
    expect((await update(id, input(), token)).body.result.status).toBe('moderation');

    // Hidden by an admin: the seller can neither edit it nor change its state, only delete it.
    await decide(id, { status: 'hidden', reason: 'Жалобы покупателей' });
    expect((await detail(id, token)).body.result).toMatchObject({ status: 'hidden', reject_reason: 'Жалобы покупателей' });
    for (const name of ['pause', 'resume', 'submit']) await expectCannot(name);
    const edit = await update(id, input(), token);
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe(CATALOG_MESSAGES.cannotChange);
    expect((await call(app, 'DELETE', `/api/services/${id}`, { token })).status).toBe(200);
    expect(await row(id)).toBeUndefined();
    expect((await detail(id, token)).status).toBe(404);
  });

  it('an unknown action is a 400 with field errors', async () => {
    const { user, token } = await seller();
    const s = await createService(db, user.id);
    const res = await action(s.id, 'publish', token);
    expect(res.status).toBe(400);
    expect(res.body.errors?.action).toBeDefined();
  });

  it('GET /api/services/my: every state, newest first, with the reason', async () => {
    const { user, token } = await seller();
    const statuses: ServiceStatus[] = ['draft', 'moderation', 'active', 'rejected', 'paused', 'hidden'];
    const made = [];
    for (const [i, status] of statuses.entries()) {
      made.push(
        await createService(db, user.id, {
          status,
          rejectReason: status === 'rejected' ? 'Причина' : null,
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
        }),
      );
    }
    await createService(db, (await seller()).user.id);
    const res = await mine(token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(ids(res.body.result)).toEqual(made.map((m) => m.id).reverse());
    expect(res.body.result.map((s) => s.status)).toEqual([...statuses].reverse());
    expect(res.body.result.find((s) => s.status === 'rejected')!.reject_reason).toBe('Причина');
    expect((await call(app, 'GET', '/api/services/my')).status).toBe(401);
  });
});

describe('authorization of every endpoint: guest, another user, an admin, the owner', () => {
  type Who = 'guest' | 'other' | 'admin' | 'owner';
  type Case = {
    title: string;
    method: InjectOptions['method'];
    status: ServiceStatus;
    path: (id: string) => string;
    body?: () => unknown;
    expected: Record<Who, number>;
  };
  const put = () => input();
  const cases: Case[] = [
    { title: 'read an active service', method: 'GET', status: 'active', path: (id) => `/api/services/${id}`, expected: { guest: 200, other: 200, admin: 200, owner: 200 } },
    ...(['draft', 'moderation', 'rejected', 'paused', 'hidden'] as const).map(
      (status): Case => ({ title: `read a ${status} service`, method: 'GET', status, path: (id) => `/api/services/${id}`, expected: { guest: 404, other: 404, admin: 200, owner: 200 } }),
    ),
    { title: 'edit an active service', method: 'PUT', status: 'active', path: (id) => `/api/services/${id}`, body: put, expected: { guest: 401, other: 403, admin: 403, owner: 200 } },
    { title: 'edit a draft', method: 'PUT', status: 'draft', path: (id) => `/api/services/${id}`, body: put, expected: { guest: 401, other: 404, admin: 403, owner: 200 } },
    { title: 'delete an active service', method: 'DELETE', status: 'active', path: (id) => `/api/services/${id}`, expected: { guest: 401, other: 403, admin: 403, owner: 200 } },
    { title: 'delete a service in moderation', method: 'DELETE', status: 'moderation', path: (id) => `/api/services/${id}`, expected: { guest: 401, other: 404, admin: 403, owner: 200 } },
    { title: 'pause an active service', method: 'PATCH', status: 'active', path: (id) => `/api/services/${id}/status`, body: () => ({ action: 'pause' }), expected: { guest: 401, other: 403, admin: 403, owner: 200 } },
    { title: 'resume a paused service', method: 'PATCH', status: 'paused', path: (id) => `/api/services/${id}/status`, body: () => ({ action: 'resume' }), expected: { guest: 401, other: 404, admin: 403, owner: 200 } },
    { title: 'submit a draft', method: 'PATCH', status: 'draft', path: (id) => `/api/services/${id}/status`, body: () => ({ action: 'submit' }), expected: { guest: 401, other: 404, admin: 403, owner: 200 } },
  ];

  it.each(cases)('$title', async (c) => {
    for (const who of ['guest', 'other', 'admin', 'owner'] as const) {
      const owner = await seller();
      const s = await createService(db, owner.user.id, { status: c.status });
      const before = await row(s.id);
      const token = who === 'guest' ? null : who === 'owner' ? owner.token : who === 'admin' ? admin.token : (await seller()).token;
      const res = await call<Service>(app, c.method, c.path(s.id), { token, body: c.body?.() });
      expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(c.expected[who]);
      if (res.status === 404) {
        expect(res.body.message).toBe(CATALOG_MESSAGES.serviceNotFound);
        expect(res.body.result).toBeUndefined();
      }
      if (res.status === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (res.status === 403) expect(res.body.message).toBe(MESSAGES.forbidden);
      if (res.status >= 400 && c.method !== 'GET') {
        // A refused change changes nothing.
        expect(await row(s.id)).toEqual(before);
      }
    }
  });

  it('an edit needs a confirmed email', async () => {
    const owner = await seller({ emailConfirmedAt: null });
    const s = await createService(db, owner.user.id, { status: 'draft' });
    const res = await update(s.id, input(), owner.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(AUTH_MESSAGES.mustConfirm);
  });

  it('unknown ids are 404, malformed ones 400, for every method', async () => {
    const { token } = await seller();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await detail(unknown)).status).toBe(404);
    expect((await update(unknown, input(), token)).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/services/${unknown}`, { token })).status).toBe(404);
    expect((await action(unknown, 'pause', token)).status).toBe(404);
    expect((await detail('not-a-uuid')).status).toBe(400);
    expect((await update('1', input(), token)).status).toBe(400);
    expect((await call(app, 'DELETE', '/api/services/1%27%20or%201=1', { token })).status).toBe(400);
  });

  it('the listing and the detail are open to guests', async () => {
    expect((await list({})).status).toBe(200);
  });
});

describe('GET /api/services/{id}', () => {
  it('a view by anyone but the owner counts, in views and in popularity', async () => {
    const owner = await seller();
    const s = await createService(db, owner.user.id, { views: 5, popularity: 45 });
    expect((await detail(s.id)).body.result.views).toBe(6);
    expect((await detail(s.id, (await seller()).token)).body.result.views).toBe(7);
    expect((await detail(s.id, owner.token)).body.result.views).toBe(7);
    // Views are written in batches: not yet in the table, then all at once.
    expect(await row(s.id)).toMatchObject({ views: 5, popularity: 45 });
    await app.services.serviceCatalog.flushViews();
    expect(await row(s.id)).toMatchObject({ views: 7, popularity: 47 });
    // Another visitor (views count once a day per visitor: see views.db.test.ts).
    expect((await call<Service>(app, 'GET', `/api/services/${s.id}`, { remoteAddress: '10.9.9.9' })).body.result.views).toBe(8);
  });

  it('answers the whole service; a blocked seller\'s service is gone', async () => {
    const owner = await seller({ completedOrders: 12, rating: 460, reviewsCount: 9 });
    const image = await upload(owner.user);
    const s = await createService(db, owner.user.id, { sub: 'logo-design', images: [image], tags: ['логотип'], rating: 480, reviewsCount: 3 });
    const res = await detail(s.id);
    expect(res.body.result).toMatchObject({
      _id: s.id,
      category: 'design',
      category_title: 'Дизайн',
      sub: 'logo-design',
      cover: image,
      images: [image],
      tags: ['логотип'],
      rating: 4.8,
      reviews_count: 3,
      status: 'active',
      seller: { _id: owner.user.id, level: 'advanced', rating: 4.6, reviews_count: 9, orders_count: 12, online_status: false },
    });
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    expect((await detail(s.id)).status).toBe(404);
    expect((await detail(s.id, (await seller()).token)).status).toBe(404);
  });
});

describe('GET /api/users/{id}/services', () => {
  it("a seller's public services only, most popular first, whoever asks; none once the seller is blocked", async () => {
    const owner = await seller();
    const active = [];
    for (let i = 0; i < 3; i++) active.push(await createService(db, owner.user.id, { popularity: i * 10 }));
    for (const status of ['draft', 'moderation', 'paused', 'hidden', 'rejected'] as const) await createService(db, owner.user.id, { status, popularity: 10_000 });
    const offered = (query: Record<string, string>, token: string | null = null) => call<ServiceCard[]>(app, 'GET', `/api/users/${owner.user.id}/services`, { query, token });
    const expected = ids(active.map((s) => ({ _id: s.id })).reverse());
    for (const token of [null, owner.token, admin.token]) {
      const res = await offered({}, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect([ids(res.body.result), res.body.total]).toEqual([expected, 3]);
    }
    // At most `limit`, the total still all of them; a limit out of range is a 400.
    const two = await offered({ limit: '2' });
    expect([ids(two.body.result), two.body.total]).toEqual([expected.slice(0, 2), 3]);
    for (const limit of ['0', '13', 'x']) expect((await offered({ limit })).status, limit).toBe(400);
    expect((await call(app, 'GET', '/api/users/not-an-id/services')).status).toBe(400);

    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    const blocked = await offered({});
    expect([blocked.body.result, blocked.body.total]).toEqual([[], 0]);
  });
});

describe('GET /api/services: the public listing', () => {
  it('cards only, of active services of sellers who are not blocked', async () => {
    const tag = marker();
    const owner = await seller();
    const image = await upload(owner.user);
    const shown = await createService(db, owner.user.id, { tags: [tag], images: [image, await upload(owner.user)] });
    for (const status of ['draft', 'moderation', 'rejected', 'paused', 'hidden'] as const) await createService(db, owner.user.id, { tags: [tag], status });
    const blocked = await seller({ blockedAt: new Date() });
    await createService(db, blocked.user.id, { tags: [tag] });

    for (const token of [null, owner.token, admin.token]) {
      const res = await list({ tag }, token);
      expect(ids(res.body.result)).toEqual([shown.id]);
      expect(res.body.total).toBe(1);
      expect(res.body.next).toBeNull();
    }
    const card = (await list({ tag })).body.result[0]!;
    expect(card).toEqual({
      _id: shown.id,
      title: shown.title,
      cover: image,
      price: shown.price,
      days: shown.days,
      category: 'design',
      rating: 0,
      reviews_count: 0,
      seller: {
        _id: owner.user.id,
        user_name: owner.user.userName,
        name: owner.user.name,
        surname: owner.user.surname,
        avatar: null,
        level: 'new',
        rating: 0,
        reviews_count: 0,
        orders_count: 0,
        online_status: false,
      },
    });

    // Blocking a seller takes their services out at once.
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    expect((await list({ tag })).body).toMatchObject({ result: [], total: 0, next: null });
  });

  describe('filters', () => {
    const tag = marker();
    const made: Record<string, string> = {};
    beforeAll(async () => {
      const a = await seller();
      const add = async (name: string, overrides: Parameters<typeof createService>[2]) => {
        made[name] = (await createService(db, a.user.id, { ...overrides, tags: [tag, ...(overrides?.tags ?? [])] })).id;
      };
      await add('logo', { title: 'Нарисую логотип для кофейни', sub: 'logo-design', price: 100_000, days: 2 });
      await add('logos', { title: 'Три логотипа на выбор', sub: 'logo-design', price: 250_000, days: 4 });
      await add('brand', { title: 'Фирменный стиль под ключ', sub: 'brand-identity', price: 900_000, days: 14, tags: ['брендбук'] });
      await add('described', { title: 'Айдентика для стартапа', description: 'Разработаю логотипы, визитки и бланки в одном стиле для вашего стартапа.', sub: 'brand-identity', price: 500_000, days: 7 });
      await add('site', { title: 'Сверстаю лендинг на Тильде', category: 'development', sub: 'landing-pages', price: 2_000_000, days: 10 });
    });
    const found = async (query: Record<string, string>) => {
      const res = await list({ tag, ...query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.total).toBe(res.body.result.length);
      return new Set(ids(res.body.result));
    };
    const names = (...list: string[]) => new Set(list.map((n) => made[n]));

    it('by category and sub-category slugs', async () => {
      expect(await found({ category: 'design' })).toEqual(names('logo', 'logos', 'brand', 'described'));
      expect(await found({ category: 'development' })).toEqual(names('site'));
      expect(await found({ sub: 'logo-design' })).toEqual(names('logo', 'logos'));
      expect(await found({ category: 'design', sub: 'brand-identity' })).toEqual(names('brand', 'described'));
      expect(await found({ category: 'development', sub: 'brand-identity' })).toEqual(names());
      expect(await found({ category: 'no-such-category' })).toEqual(names());
    });

    it('by tag, case-insensitively', async () => {
      expect(await found({ tag: 'брендбук' })).toEqual(names('brand'));
      expect(await found({ tag: ' Брендбук ' })).toEqual(names('brand'));
      expect((await found({ tag: tag.toUpperCase() })).size).toBe(5);
    });

    it('by price range and delivery days', async () => {
      expect(await found({ price_min: '250000', price_max: '900000' })).toEqual(names('logos', 'brand', 'described'));
      expect(await found({ price_max: '100000' })).toEqual(names('logo'));
      expect(await found({ price_min: '2000001' })).toEqual(names());
      expect(await found({ price_min: '900000', price_max: '100000' })).toEqual(names());
      expect(await found({ days_max: '4' })).toEqual(names('logo', 'logos'));
      expect(await found({ days_max: '7', price_min: '200000' })).toEqual(names('logos', 'described'));
    });

    it('Russian search with stemming: логотип, логотипа, логотипы find the same services', async () => {
      const expected = names('logo', 'logos', 'described');
      for (const q of ['логотип', 'логотипа', 'логотипы', 'Логотипов', 'ЛОГОТИПАМИ']) expect(await found({ q }), q).toEqual(expected);
      expect(await found({ q: 'брендбука' })).toEqual(names('brand'));
      expect(await found({ q: 'лендинги' })).toEqual(names('site'));
      expect(await found({ q: 'логотип -кофейни' })).toEqual(names('logos', 'described'));
      // 'described' is in the sub-category «Фирменный стиль», whose title is searched too (ADR 028).
      expect(await found({ q: '"фирменный стиль"' })).toEqual(names('brand', 'described'));
      expect(await found({ q: 'логотип', category: 'design', price_max: '300000' })).toEqual(names('logo', 'logos'));
    });

    it('a search ranks the title above the description', async () => {
      const res = await list({ tag, q: 'логотипы' });
      expect(res.body.result.at(-1)!._id).toBe(made.described);
    });

    it('by seller level, derived in SQL exactly as sellerLevel()', async () => {
      const levelTag = marker();
      const grid: [number, number][] = [
        [0, 0], [9, 500], [10, 449], [10, 450], [49, 500], [50, 469], [50, 470], [200, 500], [100, 449],
      ];
      const bySeller = new Map<string, string>();
      for (const [completedOrders, rating] of grid) {
        const { user } = await seller({ completedOrders, rating });
        bySeller.set((await createService(db, user.id, { tags: [levelTag] })).id, sellerLevel(completedOrders, rating));
      }
      for (const level of ['new', 'advanced', 'pro'] as const) {
        const res = await list({ tag: levelTag, level });
        const expected = [...bySeller].filter(([, l]) => l === level).map(([id]) => id);
        expect(new Set(ids(res.body.result)), level).toEqual(new Set(expected));
        expect(res.body.result.every((c) => c.seller.level === level)).toBe(true);
      }
      expect(new Set([...bySeller.values()])).toEqual(new Set(['new', 'advanced', 'pro']));
    });

    it('online now: sellers seen within the last five minutes', async () => {
      const onlineTag = marker();
      const add = async (lastSeenAt: Date | null) => (await createService(db, (await seller({ lastSeenAt })).user.id, { tags: [onlineTag] })).id;
      const now = await add(new Date());
      const recently = await add(new Date(Date.now() - 4 * 60_000));
      await add(new Date(Date.now() - 10 * 60_000));
      await add(null);
      expect(new Set(ids((await list({ tag: onlineTag, online: '1' })).body.result))).toEqual(new Set([now, recently]));
      expect(new Set(ids((await list({ tag: onlineTag, online: 'true' })).body.result))).toEqual(new Set([now, recently]));
      expect((await list({ tag: onlineTag })).body.total).toBe(4);
    });
  });

  describe('sort orders and keyset pages', () => {
    const tag = marker();
    type Made = { id: string; popularity: number; price: number; rating: number; micros: number };
    const made: Made[] = [];
    beforeAll(async () => {
      const sellers = [await seller(), await seller(), await seller()];
      for (let i = 0; i < 30; i++) {
        // Plenty of ties in every key, so the id decides often.
        const values = { popularity: (i * 7) % 10, price: 50_000 + ((i * 13) % 8) * 10_000, rating: ((i * 11) % 6) * 50 + 200 };
        const s = await createService(db, sellers[i % 3]!.user.id, { ...values, tags: [tag], title: `Сделаю презентацию номер ${i}` });
        // Publication times a microsecond apart, some equal: a millisecond clock would lose the order.
        const micros = (i * 17) % 12;
        await db.update(services).set({ publishedAt: sql`timestamptz '2025-03-01 12:00:00+00' + make_interval(secs => ${micros}::double precision / 1000000)` }).where(eq(services.id, s.id));
        made.push({ id: s.id, ...values, micros });
      }
    });

    const byKeys = (keys: ((m: Made) => number | string)[], dir: 1 | -1) => (a: Made, b: Made) => {
      for (const key of keys) {
        const [x, y] = [key(a), key(b)];
        if (x !== y) return (x < y ? -1 : 1) * dir;
      }
      return 0;
    };
    const expected: Record<string, () => string[]> = {
      popular: () => [...made].sort(byKeys([(m) => m.popularity, (m) => m.id], -1)).map((m) => m.id),
      new: () => [...made].sort(byKeys([(m) => m.micros, (m) => m.id], -1)).map((m) => m.id),
      price_asc: () => [...made].sort(byKeys([(m) => m.price, (m) => m.id], 1)).map((m) => m.id),
      price_desc: () => [...made].sort(byKeys([(m) => m.price, (m) => m.id], -1)).map((m) => m.id),
      rating: () => [...made].sort(byKeys([(m) => m.rating, (m) => m.id], -1)).map((m) => m.id),
    };

    it.each(Object.keys(expected))('%s: pages of 7 through the cursor give the whole order, no repeats, no gaps', async (sort) => {
      const { ids: walked, pages, totals } = await walk({ tag, sort }, 7);
      expect(walked).toEqual(expected[sort]!());
      expect(pages).toEqual([7, 7, 7, 7, 2]);
      expect(totals.every((t) => t === 30)).toBe(true);
      // An exact multiple of the page size ends without an empty page.
      expect((await walk({ tag, sort }, 5)).pages).toEqual([5, 5, 5, 5, 5, 5]);
      expect((await walk({ tag, sort }, 60)).ids).toEqual(walked);
    });

    it.each(Object.keys(expected))('%s: a page is read from an index in its order, with or without a category, never sorted', async (sort) => {
      const keys = sortPlan(sort as ListingSort, null).keys;
      for (const category of [false, true]) {
        const page = db
          .select({ id: services.id })
          .from(services)
          .where(and(sql`${services.status} = 'active'`, category ? sql`${services.categoryId} = (select id from categories where slug = 'design')` : undefined))
          .orderBy(...orderBy(keys))
          .limit(21);
        // Sorting made too costly to choose: a plan that still sorts has no index to read the order from (a page of
        // price_desc sorted every service of the catalogue, 1.2 s at a million).
        const plan = await db.transaction(async (tx) => {
          await tx.execute(sql`set local enable_sort = off`);
          await tx.execute(sql`set local enable_incremental_sort = off`);
          const result = (await tx.execute(sql`explain (format json) ${page.getSQL()}`)) as unknown as { rows: { 'QUERY PLAN': unknown }[] };
          return JSON.stringify(result.rows[0]!['QUERY PLAN']);
        });
        expect(plan, `${sort}${category ? ' in a category' : ''}`).not.toMatch(/"Node Type":\s*"(Incremental )?Sort"/);
        expect(plan).toMatch(/Index (Only )?Scan/);
      }
    });

    it('the default sort is popular', async () => {
      expect(ids((await list({ tag, limit: '60' })).body.result)).toEqual(expected.popular!());
    });

    it('a search with the default sort orders by relevance, and its pages add up to the whole list', async () => {
      const searchTag = marker();
      const a = await seller();
      const titles = ['Логотип', 'Логотип и логотипы', 'Визитка', 'Логотип, визитка и бланк', 'Лого и логотипчик', 'Логотип логотип логотип'];
      for (const [i, title] of titles.entries()) {
        await createService(db, a.user.id, { tags: [searchTag], title: `${title} — заказ ${i}`, description: 'Логотип для вашей компании, фирменный стиль и визитки в подарок, быстро и качественно.' });
      }
      for (const limit of [1, 2, 4]) {
        const walked = await walk({ tag: searchTag, q: 'логотип' }, limit);
        const whole = ids((await list({ tag: searchTag, q: 'логотип', limit: '60' })).body.result);
        expect(walked.ids).toEqual(whole);
        expect(new Set(walked.ids).size).toBe(walked.ids.length);
      }
      // With an explicit sort other than popular, the matches keep that sort.
      const cheap = await walk({ tag: searchTag, q: 'логотип', sort: 'price_asc' }, 2);
      expect(cheap.ids.length).toBe(6);
    });

    it('a cursor of another sort, or a forged one, is refused', async () => {
      const first = await list({ tag, sort: 'popular', limit: '7' });
      const res = await list({ tag, sort: 'rating', limit: '7', cursor: first.body.next! });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.badCursor);
      const made0 = made[0]!;
      const forged: [string, string][] = [
        ['popular', encodeCursor(['popular', made0.popularity])],
        ['popular', encodeCursor(['popular', '10', made0.id])],
        ['popular', encodeCursor(['popular', 1.5, made0.id])],
        ['popular', encodeCursor(['popular', made0.popularity, 'not-a-uuid'])],
        ['popular', encodeCursor(['popular', made0.popularity, made0.id, 1])],
        ['popular', encodeCursor(['popular', { $gt: 1 } as never, made0.id])],
        ['new', encodeCursor(['new', '2025-03-01', made0.id])],
        ['new', encodeCursor(['new', '2025-13-45T99:99:99Z', made0.id])],
        ['new', encodeCursor(['new', null, made0.id])],
        ['popular', encodeCursor([])],
        ['popular', Buffer.from('{"a":1}').toString('base64url')],
        ['popular', Buffer.from('not json').toString('base64url')],
        ['popular', 'abc'],
        ['popular', '%%%'],
        ['popular', '===='],
        ['popular', `${encodeCursor(['popular', 1, made0.id])}x`],
      ];
      for (const [sort, cursor] of forged) {
        const bad = await list({ tag, sort, cursor });
        expect(bad.status, cursor).toBe(400);
        expect(bad.body.message).toBe(CATALOG_MESSAGES.badCursor);
      }
      // A well-formed cursor of a position that does not exist just continues from there.
      const after = await list({ tag, sort: 'popular', cursor: encodeCursor(['popular', 5, '00000000-0000-4000-8000-000000000000']) });
      expect(after.status).toBe(200);
      expect(ids(after.body.result)).toEqual(expected.popular!().filter((id) => made.find((m) => m.id === id)!.popularity < 5));
    });
  });

  describe('bad queries: a 400 or a safe answer, never a 500', () => {
    const bad: Record<string, string>[] = [
      { limit: '100000' },
      { limit: '0' },
      { limit: '-1' },
      { limit: 'ten' },
      { sort: 'views' },
      { sort: 'price_asc; drop table services' },
      { price_min: '-1' },
      { price_max: '1e99' },
      { price_min: 'дёшево' },
      { days_max: '0' },
      { days_max: '1000' },
      { level: 'god' },
      { online: 'yes' },
      { category: "design' or '1'='1" },
      { category: 'Дизайн' },
      { sub: '../etc' },
      { tag: 'x'.repeat(41) },
      { q: 'логотип '.repeat(40) },
      { cursor: 'x'.repeat(201) },
    ];
    it.each(bad)('%o → 400', async (query) => {
      const res = await list(query);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toBeTruthy();
    });

    const safe = [
      "'; drop table services; --",
      ')(*&^',
      '"',
      '""""',
      '!!!',
      '& | ! <->',
      'or',
      '-',
      '- -логотип',
      'логотип & | ! ( ) : * <-> \\',
      '\u0000',
      'логотип\u0000',
      'лого\u0000тип\u0007',
      '😀',
      'а'.repeat(200),
      'и в на',
      '%_\\',
    ];
    it.each(safe)('q=%j → 200', async (q) => {
      const res = await list({ q });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Array.isArray(res.body.result)).toBe(true);
      expect(typeof res.body.total).toBe('number');
    });

    it('an empty cursor is a first page, in every shape of filter (the fuzz found a 500 there)', async () => {
      const first = await list({ category: 'design', limit: '2' });
      const shapes: Record<string, string>[] = [{}, { category: 'design' }, { category: 'design', tag: 'лого', price_min: '100', online: 'true' }];
      for (const query of shapes) {
        const res = await list({ ...query, limit: '2', cursor: '' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expect(ids((await list({ category: 'design', limit: '2', cursor: '' })).body.result)).toEqual(ids(first.body.result));
    });

    it('a tag with control characters is a safe answer too', async () => {
      expect((await list({ tag: 'лого\u0000тип' })).status).toBe(200);
    });

    it('the services table is still there', async () => {
      expect((await list({})).status).toBe(200);
    });
  });

  it('a search with more matches than are ranked, but few: popularity order read from the search index, an exact total, every page once', async () => {
    // Letters only: one lexeme (a marker's digits would split it into several, each estimated apart).
    const word = `мозаика${[...randomBytes(6)].map((b) => 'бвгджзклмнпрстфхцчшщ'[b % 20]).join('')}`;
    const { user } = await seller();
    // More than twice the limit: one seller's services are half of what the planner expects of them (its guess
    // for the blocked-seller check on a table of a few users).
    const n = EXACT_TOTAL_LIMIT * 2 + 600;
    await db.execute(sql`
      insert into services (seller_id, title, description, category_id, price, days, status, published_at, popularity)
      select ${user.id}, 'Массовая услуга ' || ${word} || ' номер ' || g, 'Описание массовой услуги для проверки поиска, достаточно длинное.',
             (select id from categories where slug = 'design'), 50000 + g, 3, 'active', now(), (g * 37) % 500
      from generate_series(1, ${n}) g`);
    try {
      // The planner knows the word (and how few sellers are blocked): more matches than are ranked, too few for a
      // walk of the popularity index.
      await db.execute(sql`analyze services`);
      await db.execute(sql`analyze users`);
      const first = await list({ q: word, limit: '60' });
      expect(first.body).toMatchObject({ total: n, total_exact: true });
      const all = await walk({ q: word }, 60);
      const expected = await db
        .select({ id: services.id })
        .from(services)
        .where(eq(services.sellerId, user.id))
        .orderBy(desc(services.popularity), desc(services.id));
      expect(all.ids).toEqual(expected.map((r) => r.id));
      expect(new Set(all.totals)).toEqual(new Set([n]));
    } finally {
      await db.delete(services).where(eq(services.sellerId, user.id));
    }
  });

  it(`total is exact up to ${EXACT_TOTAL_LIMIT} and a rounded estimate beyond, reused by later pages`, async () => {
    const tag = marker();
    const { user } = await seller();
    await db.execute(sql`
      insert into services (seller_id, title, description, category_id, price, days, status, published_at, tags, tags_text, popularity)
      select ${user.id}, 'Массовая услуга ' || g, 'Описание массовой услуги для проверки счётчика, достаточно длинное.',
             (select id from categories where slug = 'design'), 50000 + g, 3, 'active', now(), array[${tag}]::text[], ${tag}, g % 100
      from generate_series(1, ${EXACT_TOTAL_LIMIT + 50}) g`);
    try {
      const all = await list({ tag, limit: '60' });
      // Whatever the planner guessed for this fresh tag, a count of more than the limit is never "exact".
      expect(all.body.total_exact).toBe(false);
      expect(all.body.total).toBeGreaterThanOrEqual(EXACT_TOTAL_LIMIT);
      expect(all.body.result).toHaveLength(60);
      expect(all.body.next).toBeTruthy();
      const some = await list({ tag, price_max: String(50_000 + 123) });
      expect(some.body).toMatchObject({ total: 123, total_exact: true });
      const second = await list({ tag, limit: '60', cursor: all.body.next! });
      expect(second.body).toMatchObject({ total: all.body.total, total_exact: false });
      expect(new Set([...ids(all.body.result), ...ids(second.body.result)]).size).toBe(120);
      // Once the planner knows the table, the estimate is close to the truth.
      await db.execute(sql`analyze services`);
      const analyzed = await list({ category: 'design', limit: '1' });
      expect(analyzed.body.total_exact).toBe(false);
      expect(analyzed.body.total).toBeGreaterThan(EXACT_TOTAL_LIMIT * 0.7);
    } finally {
      await db.delete(services).where(eq(services.sellerId, user.id));
    }
  });
});
