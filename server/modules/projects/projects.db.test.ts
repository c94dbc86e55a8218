import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { favorites } from '../favorites/schema.ts';
import { projects } from './schema.ts';
import { files } from '../files/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { CATALOG_MESSAGES, type Project } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { call } from '../../test/api.ts';
import { encodeCursor } from '../../platform/listing/listing.ts';
import { archiveStaleProjects, ProjectService, PROJECT_MESSAGES } from './service.ts';
import { projectRoutes } from './routes.ts';
import { createProject } from '../../db/catalog-factories.ts';

type Page<T> = { status: number; result: T[]; total: number; next: string | null };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  if (!app.hasRoute({ method: 'GET', url: '/api/projects' })) {
    const service = new ProjectService({
      db,
      presence: app.services.realtime,
      withTx: app.services.platform.withTx,
      letters: app.services.letters,
      log: pino({ level: 'silent' }),
    });
    await app.register(projectRoutes, { projects: service, reads: new Map() });
  }
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

/** A file row of `owner`, as the upload would leave it, and its public url. */
async function upload(owner: UserRow, ext = 'pdf') {
  const path = `${owner.id}/${randomBytes(16).toString('hex')}.${ext}`;
  await db.insert(files).values({ ownerId: owner.id, path, originalName: `ТЗ.${ext}`, mime: 'application/pdf', size: 1234 });
  return `/uploads/${path}`;
}

const input = (overrides: Record<string, unknown> = {}) => ({
  title: 'Разработать сайт для кофейни',
  description: 'Нужен сайт с меню, онлайн-бронированием столиков и страницей контактов.',
  category: 'development',
  sub: 'website-development',
  budget: 3_000_000,
  days: 14,
  attachments: [],
  ...overrides,
});

const list = (query: Record<string, string>, token: string | null = null) => call<Project[]>(app, 'GET', '/api/projects', { query, token }) as Promise<{ status: number; body: Page<Project> & { message: string } }>;
const detail = (id: string, token: string | null = null) => call<Project>(app, 'GET', `/api/projects/${id}`, { token });
const row = async (id: string) => (await db.select().from(projects).where(eq(projects.id, id)))[0];

/** Every page of a listing, following `next`. */
async function allPages(query: Record<string, string>, token: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await list({ ...query, ...(cursor ? { cursor } : {}) }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.result.map((p) => p._id));
    cursor = res.body.next;
    if (!cursor) return ids;
    expect(res.body.result.length).toBe(Number(query.limit));
  }
  throw new Error('too many pages');
}

describe('authorization of every endpoint', () => {
  let owner: { user: UserRow; token: string };
  let other: { user: UserRow; token: string };
  let admin: { user: UserRow; token: string };

  beforeAll(async () => {
    owner = await account();
    other = await account();
    admin = await account({ role: 'admin' });
  });

  type Who = 'guest' | 'other' | 'owner' | 'admin';
  const tokenOf = (who: Who) => (who === 'guest' ? null : { other, owner, admin }[who].token);

  async function expectStatuses(
    method: InjectOptions['method'],
    url: (projectId: string) => string,
    setup: () => Promise<string>,
    expected: Record<Who, number>,
    body?: unknown,
  ) {
    for (const who of ['guest', 'other', 'owner', 'admin'] as const) {
      const id = await setup();
      const res = await call(app, method, url(id), { token: tokenOf(who), body });
      expect(res.status, `${who} ${method} ${url(id)}: ${JSON.stringify(res.body)}`).toBe(expected[who]);
      if (expected[who] === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (expected[who] >= 400) expect(res.body.result).toBeUndefined();
    }
  }
  const active = () => createProject(db, owner.user.id).then((p) => p.id);
  const inState = (status: 'hidden' | 'archived' | 'in_progress' | 'closed') => () =>
    createProject(db, owner.user.id, { status, hiddenReason: status === 'hidden' ? 'Спам' : null }).then((p) => p.id);

  it('GET /api/projects: open to everybody', async () => {
    await expectStatuses('GET', () => '/api/projects', active, { guest: 200, other: 200, owner: 200, admin: 200 });
  });

  it('GET /api/projects/{id}: an active, in-progress or closed project is public', async () => {
    for (const setup of [active, inState('in_progress'), inState('closed')]) {
      await expectStatuses('GET', (id) => `/api/projects/${id}`, setup, { guest: 200, other: 200, owner: 200, admin: 200 });
    }
  });

  it('GET /api/projects/{id}: a hidden or archived project exists for its owner and admins only', async () => {
    for (const setup of [inState('hidden'), inState('archived')]) {
      await expectStatuses('GET', (id) => `/api/projects/${id}`, setup, { guest: 404, other: 404, owner: 200, admin: 200 });
    }
  });

  it('GET /api/projects/my: signed in only', async () => {
    await expectStatuses('GET', () => '/api/projects/my', active, { guest: 401, other: 200, owner: 200, admin: 200 });
    // Even with an invalid query, a guest gets 401 rather than a 400.
    expect((await call(app, 'GET', '/api/projects/my', { query: { limit: '100000' } })).status).toBe(401);
  });

  it('POST /api/projects: a confirmed customer (an admin acting as admin is not one)', async () => {
    await expectStatuses('POST', () => '/api/projects', active, { guest: 401, other: 200, owner: 200, admin: 403 }, input());
    expect((await call(app, 'POST', '/api/projects', { body: { title: 1 } })).status).toBe(401);
  });

  it('PUT /api/projects/{id}: the owner only; someone else gets 403 on a public project, 404 on a hidden one', async () => {
    await expectStatuses('PUT', (id) => `/api/projects/${id}`, active, { guest: 401, other: 403, owner: 200, admin: 403 }, input());
    await expectStatuses('PUT', (id) => `/api/projects/${id}`, inState('hidden'), { guest: 401, other: 404, owner: 400, admin: 403 }, input());
  });

  it('DELETE /api/projects/{id}: the owner only', async () => {
    await expectStatuses('DELETE', (id) => `/api/projects/${id}`, active, { guest: 401, other: 403, owner: 200, admin: 403 });
    await expectStatuses('DELETE', (id) => `/api/projects/${id}`, inState('archived'), { guest: 401, other: 404, owner: 200, admin: 403 });
  });

  it('a foreign PUT or DELETE changes nothing', async () => {
    const project = await createProject(db, owner.user.id);
    await call(app, 'PUT', `/api/projects/${project.id}`, { token: other.token, body: input({ title: 'Чужое название проекта' }) });
    await call(app, 'DELETE', `/api/projects/${project.id}`, { token: other.token });
    expect((await row(project.id))?.title).toBe(project.title);
  });

  it('unknown and malformed ids are 404 (a project is looked up like a page)', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', "1' or '1'='1"]) {
      const url = `/api/projects/${encodeURIComponent(id)}`;
      expect((await call(app, 'GET', url)).status, id).toBe(404);
      expect((await call(app, 'GET', url, { token: owner.token })).status, id).toBe(404);
      expect((await call(app, 'PUT', url, { token: owner.token, body: input() })).status, id).toBe(404);
      expect((await call(app, 'DELETE', url, { token: owner.token })).status, id).toBe(404);
    }
  });
});

describe('POST /api/projects', () => {
  it('publishes at once and answers the project with the public face of its customer', async () => {
    const { user, token } = await account();
    const file = await upload(user);
    const res = await call<Project>(app, 'POST', '/api/projects', { token, body: input({ attachments: [file, file] }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.result;
    expect(p).toMatchObject({
      title: 'Разработать сайт для кофейни',
      category: 'development',
      category_title: 'Разработка и IT',
      sub: 'website-development',
      budget: 3_000_000,
      days: 14,
      attachments: [file],
      status: 'active',
      hidden_reason: null,
      bids_count: 0,
      views: 0,
    });
    expect(p.customer).toEqual({
      _id: user.id,
      user_name: user.userName,
      name: user.name,
      surname: user.surname,
      avatar: null,
      level: 'new',
      rating: 0,
      reviews_count: 0,
      orders_count: 0,
      online_status: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(user.email);
    expect((await list({ q: 'кофейни' })).body.result.map((x) => x._id)).toContain(p._id);

    // The page names each attachment as it was uploaded (issue 15), not "Файл 1 · PDF".
    const page = await call<Project>(app, 'GET', `/api/projects/${p._id}`);
    expect(page.body.result.attachment_files).toEqual([{ url: file, name: 'ТЗ.pdf', mime: 'application/pdf', size: 1234 }]);
  });

  it('budget and days may be left open ("by agreement")', async () => {
    const { token } = await account();
    const res = await call<Project>(app, 'POST', '/api/projects', { token, body: input({ budget: null, days: undefined, sub: null }) });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ budget: null, days: null, sub: null });
  });

  it('needs a confirmed email and the customer mode', async () => {
    const unconfirmed = await account({ emailConfirmedAt: null });
    const res = await call(app, 'POST', '/api/projects', { token: unconfirmed.token, body: input() });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(AUTH_MESSAGES.mustConfirm);

    const seller = await account({ role: 'seller' });
    const asSeller = await call(app, 'POST', '/api/projects', { token: seller.token, body: input() });
    expect(asSeller.status).toBe(403);
    expect(asSeller.body.message).toBe(CATALOG_MESSAGES.customerOnly);
    expect(await db.select().from(projects).where(eq(projects.customerId, seller.user.id))).toEqual([]);
  });

  it('refuses unknown categories, a sub-category of another category and files that are not the customer’s', async () => {
    const { user, token } = await account();
    const stranger = await createUser(db);
    const post = (body: unknown) => call(app, 'POST', '/api/projects', { token, body });

    const badCategory = await post(input({ category: 'no-such-category', sub: null }));
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.errors?.category).toEqual([CATALOG_MESSAGES.unknownCategory]);

    const foreignSub = await post(input({ category: 'design', sub: 'website-development' }));
    expect(foreignSub.status).toBe(400);
    expect(foreignSub.body.errors?.sub).toEqual([CATALOG_MESSAGES.unknownSub]);

    const foreignFile = await post(input({ attachments: [await upload(user), await upload(stranger)] }));
    expect(foreignFile.status).toBe(400);
    expect(foreignFile.body.errors?.attachments).toEqual([PROJECT_MESSAGES.notYourFile]);

    const unknownFile = await post(input({ attachments: [`/uploads/${user.id}/${'a'.repeat(32)}.pdf`] }));
    expect(unknownFile.status).toBe(400);

    for (const body of [
      input({ title: 'Коротко' }),
      input({ description: 'Мало' }),
      input({ budget: 100 }),
      input({ budget: 1.5 }),
      input({ days: 0 }),
      input({ attachments: ['/etc/passwd'] }),
      input({ attachments: Array.from({ length: 11 }, () => `/uploads/${user.id}/${'b'.repeat(32)}.pdf`) }),
      {},
    ]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await db.select().from(projects).where(eq(projects.customerId, user.id))).toEqual([]);
  });
});

describe('GET /api/projects', () => {
  it('lists only active projects of customers who are not blocked', async () => {
    const { user } = await account();
    const marker = `маркер${randomBytes(3).toString('hex')}`;
    const make = (status: 'active' | 'in_progress' | 'closed' | 'archived' | 'hidden') =>
      createProject(db, user.id, { status, title: `Проект ${marker} ${status}` });
    const shown = await make('active');
    for (const status of ['in_progress', 'closed', 'archived', 'hidden'] as const) await make(status);
    const ids = async () => (await list({ q: marker })).body.result.map((p) => p._id);
    expect(await ids()).toEqual([shown.id]);
    expect((await list({ q: marker })).body.total).toBe(1);

    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, user.id));
    expect(await ids()).toEqual([]);
    expect((await detail(shown.id)).status).toBe(404);
  });

  it('filters by category, sub-category and budget range', async () => {
    const { user } = await account();
    const a = await createProject(db, user.id, { category: 'audio-video', sub: null, budget: 100_000 });
    const b = await createProject(db, user.id, { category: 'audio-video', sub: null, budget: 900_000 });
    const c = await createProject(db, user.id, { category: 'audio-video', sub: null, budget: null });
    const ids = async (query: Record<string, string>) => (await list({ category: 'audio-video', ...query })).body.result.map((p) => p._id).sort();
    expect(await ids({})).toEqual([a.id, b.id, c.id].sort());
    expect(await ids({ budget_min: '500000' })).toEqual([b.id]);
    expect(await ids({ budget_max: '500000' })).toEqual([a.id]);
    expect(await ids({ budget_min: '100000', budget_max: '900000' })).toEqual([a.id, b.id].sort());
    expect(await ids({ category: 'design' })).toEqual([]);
    expect(await ids({ category: 'no-such-category' })).toEqual([]);

    const subbed = await createProject(db, user.id, { category: 'design', sub: 'logo-design' });
    const subIds = (await list({ sub: 'logo-design' })).body.result.map((p) => p._id);
    expect(subIds).toContain(subbed.id);
    expect((await list({ category: 'design', sub: 'logo-design' })).body.result.map((p) => p._id)).toContain(subbed.id);
    // A sub-category of another category: nothing, not an error.
    expect((await list({ category: 'audio-video', sub: 'logo-design' })).body).toMatchObject({ result: [], total: 0, next: null });
  });

  it('searches in Russian with stemming', async () => {
    const { user } = await account();
    const site = await createProject(db, user.id, {
      category: 'education',
      title: 'Создание сайта для цветочного магазина',
      description: 'Нужны каталог букетов, корзина и оплата картой на сайте.',
    });
    await createProject(db, user.id, { category: 'education', title: 'Логотип для пекарни «Колосок»', description: 'Нужен простой логотип в тёплых тонах, три варианта.' });
    const found = async (q: string) => (await list({ category: 'education', q })).body.result.map((p) => p._id);
    for (const q of ['сайт', 'сайта', 'сайты', 'САЙТОВ', 'цветочный магазин', '"цветочного магазина"', 'букеты']) {
      expect(await found(q), q).toEqual([site.id]);
    }
    expect(await found('сайт -букет')).toEqual([]);
    expect(await found('сайт or логотип')).toHaveLength(2);
    expect(await found('телеграм')).toEqual([]);
  });

  it('answers a safe result or a 400 to bad queries, never a 500', async () => {
    const okQueries: Record<string, string>[] = [
      { q: "'; drop table projects; --" },
      { q: "сайт' or 1=1 --" },
      { q: '!!! ??? ...' },
      { q: '"' },
      { q: '& | ! ( ) : *' },
      { q: '<script>alert(1)</script>' },
      { q: '\\' },
      { q: '%_%' },
      { q: '' },
      { category: 'no-such-category' },
      { sub: 'no-such-sub' },
    ];
    for (const query of okQueries) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(Array.isArray(res.body.result)).toBe(true);
    }
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(projects))[0]!.n).toBeGreaterThan(0);

    const newCursor = encodeCursor(['new', '2026-01-01T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000']);
    const badQueries: Record<string, string>[] = [
      { limit: '100000' },
      { limit: '0' },
      { limit: '-1' },
      { limit: 'ten' },
      { sort: 'popular' },
      { sort: "new'; --" },
      { budget_min: '-1' },
      { budget_max: 'много' },
      { budget_min: '1e20' },
      { category: '../../etc' },
      { category: 'Дизайн' },
      { q: 'а'.repeat(201) },
      { cursor: '!!!' },
      { cursor: 'x'.repeat(201) },
      { cursor: 'bm90IGpzb24' },
      { cursor: encodeCursor([]) },
      { cursor: encodeCursor(['new', 'вчера', '00000000-0000-4000-8000-000000000000']) },
      { cursor: encodeCursor(['new', '2026-13-45T00:00:00Z', '00000000-0000-4000-8000-000000000000']) },
      // Dates that JavaScript takes and PostgreSQL does not.
      { cursor: encodeCursor(['new', '2026-02-30T00:00:00Z', '00000000-0000-4000-8000-000000000000']) },
      { cursor: encodeCursor(['new', '0000-01-01T00:00:00Z', '00000000-0000-4000-8000-000000000000']) },
      { cursor: encodeCursor(['new', '2026-01-01T24:00:00Z', '00000000-0000-4000-8000-000000000000']) },
      { cursor: encodeCursor(['new', '2026-01-01T00:00:00Z', "1' or '1'='1"]) },
      { cursor: encodeCursor(['bids', 'много', '00000000-0000-4000-8000-000000000000']) },
      { cursor: encodeCursor(['bids', 1.5, '00000000-0000-4000-8000-000000000000']), sort: 'bids' },
      // A cursor of one sort is refused by another.
      { cursor: newCursor, sort: 'bids' },
      { cursor: encodeCursor(['bids', 3, '00000000-0000-4000-8000-000000000000']), sort: 'budget_desc' },
    ];
    for (const query of badQueries) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.result).toBeUndefined();
    }
    const badCursor = await list({ cursor: '!!!' });
    expect(badCursor.body.message).toBe(CATALOG_MESSAGES.badCursor);
    expect((await list({ cursor: newCursor })).status).toBe(200);
  });

  describe('sort orders hold across cursor pages (no duplicates, no gaps)', () => {
    const category = 'photo-3d';
    type Seed = { id: string; createdKey: string; budget: number | null; bids: number };
    const seeds: Seed[] = [];

    beforeAll(async () => {
      const { user } = await account();
      // Ties on purpose (equal budgets, bids and timestamps) and timestamps a microsecond apart.
      const budgets = [null, 500_000, 500_000, 1_000_000, null, 2_000_000, 500_000, null, 3_000_000, 1_000_000, 2_000_000, null, 750_000, 500_000];
      const bids = [0, 3, 3, 1, 0, 7, 3, 2, 0, 1, 7, 5, 3, 0];
      const micros = ['000001', '000002', '000002', '000003', '999999', '000000', '000001', '500000', '500001', '500001', '000004', '000004', '123456', '123457'];
      for (let i = 0; i < budgets.length; i++) {
        const project = await createProject(db, user.id, { category, budget: budgets[i]!, bidsCount: bids[i]! });
        const createdKey = `2026-03-0${1 + (i % 3)}T10:00:00.${micros[i]}Z`;
        await db.update(projects).set({ createdAt: sql`${createdKey}::timestamptz` }).where(eq(projects.id, project.id));
        seeds.push({ id: project.id, createdKey, budget: budgets[i]!, bids: bids[i]! });
      }
      // Hidden and in-progress rows in the same category stay out of every page.
      await createProject(db, user.id, { category, status: 'hidden', budget: 9_000_000 });
      await createProject(db, user.id, { category, status: 'in_progress', bidsCount: 99 });
    });

    const byIdDesc = (a: Seed, b: Seed) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    const expected = {
      new: () => [...seeds].sort((a, b) => (a.createdKey < b.createdKey ? 1 : a.createdKey > b.createdKey ? -1 : byIdDesc(a, b))),
      bids: () => [...seeds].sort((a, b) => b.bids - a.bids || byIdDesc(a, b)),
      budget_desc: () =>
        [...seeds].sort((a, b) => {
          if (a.budget === b.budget) return byIdDesc(a, b);
          if (a.budget === null) return 1;
          if (b.budget === null) return -1;
          return b.budget - a.budget;
        }),
    };

    for (const sort of ['new', 'bids', 'budget_desc'] as const) {
      it(`${sort}`, async () => {
        const want = expected[sort]().map((s) => s.id);
        for (const limit of ['1', '3', '4', '14', '60']) {
          const got = await allPages({ category, sort, limit });
          expect(got, `limit ${limit}`).toEqual(want);
          expect(new Set(got).size).toBe(got.length);
        }
        const first = await list({ category, sort, limit: '5' });
        expect(first.body.total).toBe(seeds.length);
      });
    }

    it('the default sort is new; filters and search keep working on later pages', async () => {
      expect(await allPages({ category, limit: '4' })).toEqual(expected.new().map((s) => s.id));
      const withBudget = expected.budget_desc().filter((s) => s.budget !== null && s.budget >= 750_000).map((s) => s.id);
      expect(await allPages({ category, sort: 'budget_desc', budget_min: '750000', limit: '2' })).toEqual(withBudget);
    });
  });
});

describe('GET /api/projects/{id}', () => {
  it('counts views of everyone but the owner', async () => {
    const owner = await account();
    const other = await account();
    const project = await createProject(db, owner.user.id);
    expect((await detail(project.id)).body.result.views).toBe(1);
    expect((await detail(project.id, other.token)).body.result.views).toBe(2);
    expect((await detail(project.id, owner.token)).body.result.views).toBe(2);
    expect((await row(project.id))?.views).toBe(2);
  });

  it('does not count views of a project that is not public', async () => {
    const owner = await account();
    const admin = await account({ role: 'admin' });
    const project = await createProject(db, owner.user.id, { status: 'hidden', hiddenReason: 'Спам' });
    const seen = await detail(project.id, admin.token);
    expect(seen.status).toBe(200);
    expect(seen.body.result).toMatchObject({ status: 'hidden', hidden_reason: 'Спам' });
    expect((await row(project.id))?.views).toBe(0);
  });
});

describe('GET /api/projects/my', () => {
  it('lists the customer’s own projects in every state, newest first, page by page', async () => {
    const { user, token } = await account();
    const made: string[] = [];
    // A second apart: two inserts in the same millisecond would be ordered by their random ids.
    const start = Date.now() - 60_000;
    for (const [i, status] of (['active', 'in_progress', 'closed', 'archived', 'hidden'] as const).entries()) {
      made.unshift((await createProject(db, user.id, { status, createdAt: new Date(start + i * 1000) })).id);
    }
    await createProject(db, (await createUser(db)).id);
    const res = await call<Project[]>(app, 'GET', '/api/projects/my', { token });
    expect(res.body.result.map((p) => p._id)).toEqual(made);
    expect(res.body.total).toBe(5);

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const pageRes: { body: Page<Project> } = (await call(app, 'GET', '/api/projects/my', { token, query: { limit: '2', ...(cursor ? { cursor } : {}) } })) as never;
      ids.push(...pageRes.body.result.map((p) => p._id));
      cursor = pageRes.body.next;
    } while (cursor);
    expect(ids).toEqual(made);

    const hidden = await call<Project[]>(app, 'GET', '/api/projects/my', { token, query: { status: 'hidden' } });
    expect(hidden.body.result.map((p) => p.status)).toEqual(['hidden']);
    expect((await call(app, 'GET', '/api/projects/my', { token, query: { status: 'deleted' } })).status).toBe(400);
    expect((await call(app, 'GET', '/api/projects/my', { token, query: { cursor: 'broken!' } })).status).toBe(400);
  });
});

describe('PUT /api/projects/{id}', () => {
  it('the owner edits an active project', async () => {
    const { user, token } = await account();
    const project = await createProject(db, user.id);
    const file = await upload(user);
    const res = await call<Project>(app, 'PUT', `/api/projects/${project.id}`, {
      token,
      body: input({ title: 'Новое название проекта', category: 'design', sub: 'logo-design', budget: null, attachments: [file] }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ title: 'Новое название проекта', category: 'design', sub: 'logo-design', budget: null, attachments: [file], status: 'active' });
    const after = (await row(project.id))!;
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(project.updatedAt.getTime());
    // The search document follows the text.
    expect((await list({ q: 'новое название' })).body.result.map((p) => p._id)).toContain(project.id);
  });

  it('only while active', async () => {
    const { user, token } = await account();
    for (const status of ['in_progress', 'closed', 'archived', 'hidden'] as const) {
      const project = await createProject(db, user.id, { status });
      const res = await call(app, 'PUT', `/api/projects/${project.id}`, { token, body: input() });
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.cannotChange);
      expect((await row(project.id))?.title).toBe(project.title);
    }
  });

  it('validates like creating', async () => {
    const { user, token } = await account();
    const project = await createProject(db, user.id);
    const stranger = await createUser(db);
    const res = await call(app, 'PUT', `/api/projects/${project.id}`, { token, body: input({ attachments: [await upload(stranger)] }) });
    expect(res.status).toBe(400);
    expect(res.body.errors?.attachments).toEqual([PROJECT_MESSAGES.notYourFile]);
    expect((await call(app, 'PUT', `/api/projects/${project.id}`, { token, body: input({ category: 'nope' }) })).status).toBe(400);
  });
});

describe('DELETE /api/projects/{id}', () => {
  it('removes the project and the favourites of it', async () => {
    const { user, token } = await account();
    const fan = await createUser(db);
    const project = await createProject(db, user.id);
    await db.insert(favorites).values({ userId: fan.id, type: 'project', itemId: project.id });
    const res = await call(app, 'DELETE', `/api/projects/${project.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ _id: project.id });
    expect(await row(project.id)).toBeUndefined();
    expect(await db.select().from(favorites).where(and(eq(favorites.userId, fan.id)))).toEqual([]);
    expect((await detail(project.id)).status).toBe(404);
    expect((await call(app, 'DELETE', `/api/projects/${project.id}`, { token })).status).toBe(404);
  });

  it('keeps projects an order came out of', async () => {
    const { user, token } = await account();
    for (const status of ['in_progress', 'closed'] as const) {
      const project = await createProject(db, user.id, { status });
      const res = await call(app, 'DELETE', `/api/projects/${project.id}`, { token });
      expect(res.status, status).toBe(400);
      expect(res.body.message).toBe(CATALOG_MESSAGES.cannotChange);
      expect(await row(project.id)).toBeDefined();
    }
  });
});

describe('archiveStaleProjects', () => {
  it('archives active projects older than 30 days, and nothing else', async () => {
    const { user, token } = await account();
    const age = async (id: string, days: number) =>
      db.update(projects).set({ createdAt: sql`now() - make_interval(days => ${days})` }).where(eq(projects.id, id));
    const stale = await createProject(db, user.id);
    await age(stale.id, 31);
    const fresh = await createProject(db, user.id);
    await age(fresh.id, 29);
    const busy = await createProject(db, user.id, { status: 'in_progress' });
    await age(busy.id, 60);
    const hidden = await createProject(db, user.id, { status: 'hidden' });
    await age(hidden.id, 60);

    const archived = await archiveStaleProjects(db);
    expect(archived).toContain(stale.id);
    expect(archived).not.toContain(fresh.id);
    expect((await row(stale.id))?.status).toBe('archived');
    expect((await row(fresh.id))?.status).toBe('active');
    expect((await row(busy.id))?.status).toBe('in_progress');
    expect((await row(hidden.id))?.status).toBe('hidden');

    // Gone from the public, still the owner's.
    expect((await detail(stale.id)).status).toBe(404);
    expect((await detail(stale.id, token)).body.result.status).toBe('archived');
    expect((await list({ limit: '60' })).body.result.map((p) => p._id)).not.toContain(stale.id);

    // Idempotent: a second run finds nothing more.
    expect(await archiveStaleProjects(db)).not.toContain(stale.id);
    // The period is a parameter (an operator setting later).
    expect(await archiveStaleProjects(db, 28)).toEqual([fresh.id]);
  });
});
