import { eq, inArray } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { services, type ServiceStatus } from './schema.ts';
import { users } from '../users/schema.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { CATALOG_MESSAGES, type Service, type ServiceCard } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { call } from '../../test/api.ts';
import { FILE_MESSAGES } from '../../platform/files.ts';
import { createService } from '../../db/catalog-factories.ts';
import { ids, serviceInput as input, useServicesApi } from './testing.ts';

// The services API as sellers and admins drive it: creating, editing and moderating a service, who may do what, a
// service's page. The public listing: services-listing*.db.test.ts.

const api = useServicesApi();
const { account, seller, upload, list, detail, create, update, action, decide, mine, row } = api;

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
    expect((await create(input(), api.admin.token)).body.message).toBe(CATALOG_MESSAGES.sellerOnly);
    const count = await api.db.select({ id: services.id }).from(services).where(inArray(services.sellerId, [unconfirmed.user.id, customer.user.id, both.user.id]));
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
      expect(await api.db.select({ id: services.id }).from(services).where(eq(services.sellerId, s.user.id))).toEqual([]);
      const images = await Promise.all(Array.from({ length: 10 }, () => upload(s.user)));
      const res = await create(input({ images, sub: null, price: 50_000 }), s.token);
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ images, sub: null, price: 50_000 });
    });

    it('control characters are dropped (NUL at the edge, the others by the schema), line breaks kept', async () => {
      const res = await create(input({ title: 'Нарисую\u0000 логотип\tдля вас', description: `${input().description}\r\nВторая строка\u0000.`, tags: ['лого\u0000тип'] }), s.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.result).toMatchObject({ title: 'Нарисую логотип для вас', description: `${input().description}\nВторая строка.`, tags: ['логотип'] });
      await api.db.delete(services).where(eq(services.id, res.body.result._id));
    });

    it('a body that is not JSON, or no body, is a 400', async () => {
      expect((await create(undefined, s.token)).status).toBe(400);
      const res = await api.app.inject({ method: 'POST', url: '/api/services', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, payload: '{"title":' });
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
    expect((await call(api.app, 'DELETE', `/api/services/${id}`, { token })).status).toBe(200);
    expect(await row(id)).toBeUndefined();
    expect((await detail(id, token)).status).toBe(404);
  });

  it('an unknown action is a 400 with field errors', async () => {
    const { user, token } = await seller();
    const s = await createService(api.db, user.id);
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
        await createService(api.db, user.id, {
          status,
          rejectReason: status === 'rejected' ? 'Причина' : null,
          createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
        }),
      );
    }
    await createService(api.db, (await seller()).user.id);
    const res = await mine(token);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(6);
    expect(ids(res.body.result)).toEqual(made.map((m) => m.id).reverse());
    expect(res.body.result.map((s) => s.status)).toEqual([...statuses].reverse());
    expect(res.body.result.find((s) => s.status === 'rejected')!.reject_reason).toBe('Причина');
    expect((await call(api.app, 'GET', '/api/services/my')).status).toBe(401);
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
      const s = await createService(api.db, owner.user.id, { status: c.status });
      const before = await row(s.id);
      const token = who === 'guest' ? null : who === 'owner' ? owner.token : who === 'admin' ? api.admin.token : (await seller()).token;
      const res = await call<Service>(api.app, c.method, c.path(s.id), { token, body: c.body?.() });
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
    const s = await createService(api.db, owner.user.id, { status: 'draft' });
    const res = await update(s.id, input(), owner.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(AUTH_MESSAGES.mustConfirm);
  });

  it('unknown ids are 404, malformed ones 400, for every method', async () => {
    const { token } = await seller();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await detail(unknown)).status).toBe(404);
    expect((await update(unknown, input(), token)).status).toBe(404);
    expect((await call(api.app, 'DELETE', `/api/services/${unknown}`, { token })).status).toBe(404);
    expect((await action(unknown, 'pause', token)).status).toBe(404);
    expect((await detail('not-a-uuid')).status).toBe(400);
    expect((await update('1', input(), token)).status).toBe(400);
    expect((await call(api.app, 'DELETE', '/api/services/1%27%20or%201=1', { token })).status).toBe(400);
  });

  it('the listing and the detail are open to guests', async () => {
    expect((await list({})).status).toBe(200);
  });
});

describe('GET /api/services/{id}', () => {
  it('a view by anyone but the owner counts, in views and in popularity', async () => {
    const owner = await seller();
    const s = await createService(api.db, owner.user.id, { views: 5, popularity: 45 });
    expect((await detail(s.id)).body.result.views).toBe(6);
    expect((await detail(s.id, (await seller()).token)).body.result.views).toBe(7);
    expect((await detail(s.id, owner.token)).body.result.views).toBe(7);
    // Views are written in batches: not yet in the table, then all at once.
    expect(await row(s.id)).toMatchObject({ views: 5, popularity: 45 });
    await api.app.services.serviceCatalog.flushViews();
    expect(await row(s.id)).toMatchObject({ views: 7, popularity: 47 });
    // Another visitor (views count once a day per visitor: see views.db.test.ts).
    expect((await call<Service>(api.app, 'GET', `/api/services/${s.id}`, { remoteAddress: '10.9.9.9' })).body.result.views).toBe(8);
  });

  it('answers the whole service; a blocked seller\'s service is gone', async () => {
    const owner = await seller({ completedOrders: 12, rating: 460, reviewsCount: 9 });
    const image = await upload(owner.user);
    const s = await createService(api.db, owner.user.id, { sub: 'logo-design', images: [image], tags: ['логотип'], rating: 480, reviewsCount: 3 });
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
    await api.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    expect((await detail(s.id)).status).toBe(404);
    expect((await detail(s.id, (await seller()).token)).status).toBe(404);
  });
});

describe('GET /api/users/{id}/services', () => {
  it("a seller's public services only, most popular first, whoever asks; none once the seller is blocked", async () => {
    const owner = await seller();
    const active = [];
    for (let i = 0; i < 3; i++) active.push(await createService(api.db, owner.user.id, { popularity: i * 10 }));
    for (const status of ['draft', 'moderation', 'paused', 'hidden', 'rejected'] as const) await createService(api.db, owner.user.id, { status, popularity: 10_000 });
    const offered = (query: Record<string, string>, token: string | null = null) => call<ServiceCard[]>(api.app, 'GET', `/api/users/${owner.user.id}/services`, { query, token });
    const expected = ids(active.map((s) => ({ _id: s.id })).reverse());
    for (const token of [null, owner.token, api.admin.token]) {
      const res = await offered({}, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect([ids(res.body.result), res.body.total]).toEqual([expected, 3]);
    }
    // At most `limit`, the total still all of them; a limit out of range is a 400.
    const two = await offered({ limit: '2' });
    expect([ids(two.body.result), two.body.total]).toEqual([expected.slice(0, 2), 3]);
    for (const limit of ['0', '13', 'x']) expect((await offered({ limit })).status, limit).toBe(400);
    expect((await call(api.app, 'GET', '/api/users/not-an-id/services')).status).toBe(400);

    await api.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, owner.user.id));
    const blocked = await offered({});
    expect([blocked.body.result, blocked.body.total]).toEqual([[], 0]);
  });
});

