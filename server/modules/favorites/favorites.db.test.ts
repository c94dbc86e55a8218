import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { favorites } from './schema.ts';
import { projects } from '../projects/schema.ts';
import { services } from '../services/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import type { Favorite, Project, PublicUser, ServiceCard } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { call } from '../../test/api.ts';
import { FavoriteService, FAVORITE_MESSAGES, FAVORITES_MAX } from './service.ts';
import { favoriteRoutes } from './routes.ts';
import { ProjectService } from '../projects/service.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  if (!app.hasRoute({ method: 'GET', url: '/api/favorites' })) {
    const presence = app.services.realtime;
    const projectService = new ProjectService({ db, presence, withTx: app.services.platform.withTx, letters: app.services.letters, log: pino({ level: 'silent' }) });
    await app.register(favoriteRoutes, { favorites: new FavoriteService({ db, presence, projects: projectService, withTx: app.services.platform.withTx }), reads: new Map() });
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

const toggle = (token: string | null, body: unknown) => call<{ favorite: boolean }>(app, 'POST', '/api/favorites/toggle', { token, body });
const listOf = async (token: string) => (await call<Favorite[]>(app, 'GET', '/api/favorites', { token })).body.result;
const itemsOf = async <T extends { _id: string }>(token: string, type: Favorite['type']) => {
  const res = await call<T[]>(app, 'GET', '/api/favorites/items', { token, query: { type } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
};
const sync = (token: string | null, items: unknown) => call<Favorite[]>(app, 'POST', '/api/favorites/sync', { token, body: { items } });
const setUser = (id: string, values: Partial<UserRow>) => db.update(users).set(values).where(eq(users.id, id));

/** A seller with an active service, a customer with an active project. */
async function catalogue() {
  const seller = await createUser(db, { role: 'seller' });
  const service = await createService(db, seller.id);
  const customer = await createUser(db);
  const project = await createProject(db, customer.id);
  return { seller, service, customer, project };
}

describe('authorization', () => {
  const requests: { title: string; method: InjectOptions['method']; url: string; body?: unknown; query?: Record<string, string> }[] = [
    { title: 'list', method: 'GET', url: '/api/favorites' },
    { title: 'items', method: 'GET', url: '/api/favorites/items', query: { type: 'service' } },
    { title: 'items with a bad type', method: 'GET', url: '/api/favorites/items', query: { type: 'order' } },
    { title: 'toggle', method: 'POST', url: '/api/favorites/toggle', body: { id: randomUUID(), type: 'service' } },
    { title: 'toggle with a bad body', method: 'POST', url: '/api/favorites/toggle', body: { id: 'x' } },
    { title: 'sync', method: 'POST', url: '/api/favorites/sync', body: { items: [] } },
    { title: 'sync with a bad body', method: 'POST', url: '/api/favorites/sync', body: { items: 'all' } },
  ];

  it.each(requests)('$title: a guest gets 401 (SPEC §5: favouriting requires being signed in)', async (r) => {
    const res = await call(app, r.method, r.url, { body: r.body, query: r.query });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(MESSAGES.unauthorized);
  });

  it('each person sees and changes only their own list; an admin is a person like any other', async () => {
    const { service, project } = await catalogue();
    const a = await account();
    const b = await account({ role: 'seller' });
    const admin = await account({ role: 'admin' });
    expect((await toggle(a.token, { id: service.id, type: 'service' })).body.result).toEqual({ favorite: true });
    expect((await toggle(admin.token, { id: project.id, type: 'project' })).body.result).toEqual({ favorite: true });
    expect(await listOf(a.token)).toEqual([{ id: service.id, type: 'service' }]);
    expect(await listOf(b.token)).toEqual([]);
    expect(await listOf(admin.token)).toEqual([{ id: project.id, type: 'project' }]);
    // b's toggle adds to b's list; a's stays.
    expect((await toggle(b.token, { id: service.id, type: 'service' })).body.result).toEqual({ favorite: true });
    expect((await toggle(b.token, { id: service.id, type: 'service' })).body.result).toEqual({ favorite: false });
    expect(await listOf(a.token)).toEqual([{ id: service.id, type: 'service' }]);
  });
});

describe('POST /api/favorites/toggle', () => {
  it('adds an absent item and removes a present one, for each type', async () => {
    const { seller, service, project } = await catalogue();
    const { token } = await account();
    for (const item of [
      { id: service.id, type: 'service' },
      { id: project.id, type: 'project' },
      { id: seller.id, type: 'freelancer' },
    ] as const) {
      expect((await toggle(token, item)).body.result).toEqual({ favorite: true });
      expect(await listOf(token)).toContainEqual(item);
      expect((await toggle(token, item)).body.result).toEqual({ favorite: false });
      expect(await listOf(token)).not.toContainEqual(item);
    }
  });

  it('refuses items that do not exist or are not public (404), and malformed ones (400)', async () => {
    const { seller, service, customer, project } = await catalogue();
    const { user, token } = await account();
    const draft = await createService(db, seller.id, { status: 'moderation' });
    const hidden = await createProject(db, customer.id, { status: 'hidden' });
    const archived = await createProject(db, customer.id, { status: 'archived' });
    const blockedSeller = await createUser(db, { role: 'seller', blockedAt: new Date() });
    for (const item of [
      { id: randomUUID(), type: 'service' },
      { id: randomUUID(), type: 'project' },
      { id: randomUUID(), type: 'freelancer' },
      { id: draft.id, type: 'service' },
      { id: hidden.id, type: 'project' },
      { id: archived.id, type: 'project' },
      { id: customer.id, type: 'freelancer' }, // not a seller
      { id: blockedSeller.id, type: 'freelancer' },
      // The right id under the wrong type.
      { id: service.id, type: 'project' },
      { id: project.id, type: 'freelancer' },
    ]) {
      const res = await toggle(token, item);
      expect(res.status, JSON.stringify(item)).toBe(404);
      expect(res.body.message).toBe(FAVORITE_MESSAGES.itemNotFound);
    }
    for (const body of [{ id: 'not-a-uuid', type: 'service' }, { id: service.id, type: 'order' }, { id: service.id }, {}, [], null]) {
      expect((await toggle(token, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await db.select().from(favorites).where(eq(favorites.userId, user.id))).toEqual([]);
  });

  it('a project in progress or closed can still be saved (its page is open)', async () => {
    const customer = await createUser(db);
    const { token } = await account();
    for (const status of ['in_progress', 'closed'] as const) {
      const project = await createProject(db, customer.id, { status });
      expect((await toggle(token, { id: project.id, type: 'project' })).body.result, status).toEqual({ favorite: true });
    }
  });

  it('removes an item that is no longer public', async () => {
    const { service } = await catalogue();
    const { token } = await account();
    await toggle(token, { id: service.id, type: 'service' });
    await db.update(services).set({ status: 'hidden' }).where(eq(services.id, service.id));
    expect((await toggle(token, { id: service.id, type: 'service' })).body.result).toEqual({ favorite: false });
    await db.update(services).set({ status: 'active' }).where(eq(services.id, service.id));
    expect(await listOf(token)).toEqual([]);
  });

  it(`keeps at most ${FAVORITES_MAX} favourites`, async () => {
    const { service } = await catalogue();
    const { user, token } = await account();
    await db.insert(favorites).values(Array.from({ length: FAVORITES_MAX }, () => ({ userId: user.id, type: 'project' as const, itemId: randomUUID() })));
    const res = await toggle(token, { id: service.id, type: 'service' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(FAVORITE_MESSAGES.tooMany);
    expect(await db.select().from(favorites).where(eq(favorites.itemId, service.id))).toEqual([]);
  });
});

describe('GET /api/favorites and /api/favorites/items', () => {
  it('answer newest first, with cards of each type for /profile/saved', async () => {
    const { seller, service, customer, project } = await catalogue();
    const other = await createService(db, seller.id, { title: 'Нарисую иллюстрацию для детской книги', images: ['/uploads/a.png'] });
    const { token } = await account();
    for (const item of [
      { id: service.id, type: 'service' },
      { id: project.id, type: 'project' },
      { id: seller.id, type: 'freelancer' },
      { id: other.id, type: 'service' },
    ] as const) {
      await toggle(token, item);
    }
    const res = await call<Favorite[]>(app, 'GET', '/api/favorites', { token });
    expect(res.body.result).toEqual([
      { id: other.id, type: 'service' },
      { id: seller.id, type: 'freelancer' },
      { id: project.id, type: 'project' },
      { id: service.id, type: 'service' },
    ]);
    expect(res.body.total).toBe(4);

    const cards = await itemsOf<ServiceCard>(token, 'service');
    expect(cards.map((c) => c._id)).toEqual([other.id, service.id]);
    expect(cards[0]).toMatchObject({ title: 'Нарисую иллюстрацию для детской книги', cover: '/uploads/a.png', price: other.price, category: 'design' });
    expect(cards[0]!.seller).toMatchObject({ _id: seller.id, user_name: seller.userName, online_status: false });

    const savedProjects = await itemsOf<Project>(token, 'project');
    expect(savedProjects).toHaveLength(1);
    expect(savedProjects[0]).toMatchObject({ _id: project.id, title: project.title, customer: { _id: customer.id } });
    // Looking at the saved list is not a view of the project.
    expect((await db.select().from(projects).where(eq(projects.id, project.id)))[0]?.views).toBe(0);

    const people = await itemsOf<PublicUser>(token, 'freelancer');
    expect(people.map((p) => p._id)).toEqual([seller.id]);

    const everything = JSON.stringify([cards, savedProjects, people]);
    expect(everything).not.toContain(seller.email);
    expect(everything).not.toContain(customer.email);
    expect(everything).not.toMatch(/"email"|password|referral/i);
  });

  it('items that stop being public disappear, and come back when they are public again', async () => {
    const { seller, service, customer, project } = await catalogue();
    const { token } = await account();
    for (const item of [
      { id: service.id, type: 'service' },
      { id: project.id, type: 'project' },
      { id: seller.id, type: 'freelancer' },
    ] as const) {
      await toggle(token, item);
    }
    const ids = async () => ({
      list: (await listOf(token)).map((f) => f.id).sort(),
      service: (await itemsOf(token, 'service')).map((c) => c._id),
      project: (await itemsOf(token, 'project')).map((c) => c._id),
      freelancer: (await itemsOf(token, 'freelancer')).map((c) => c._id),
    });
    const all = { list: [service.id, project.id, seller.id].sort(), service: [service.id], project: [project.id], freelancer: [seller.id] };
    expect(await ids()).toEqual(all);

    for (const status of ['paused', 'hidden', 'moderation'] as const) {
      await db.update(services).set({ status }).where(eq(services.id, service.id));
      expect((await ids()).service, status).toEqual([]);
    }
    await db.update(services).set({ status: 'active' }).where(eq(services.id, service.id));

    for (const status of ['hidden', 'archived'] as const) {
      await db.update(projects).set({ status }).where(eq(projects.id, project.id));
      expect((await ids()).project, status).toEqual([]);
      expect((await ids()).list, status).not.toContain(project.id);
    }
    await db.update(projects).set({ status: 'active' }).where(eq(projects.id, project.id));
    expect(await ids()).toEqual(all);

    // A blocked seller takes their page and their services along; a blocked customer their project.
    await setUser(seller.id, { blockedAt: new Date() });
    await setUser(customer.id, { blockedAt: new Date() });
    expect(await ids()).toEqual({ list: [], service: [], project: [], freelancer: [] });
    await setUser(seller.id, { blockedAt: null });
    await setUser(customer.id, { blockedAt: null });
    expect(await ids()).toEqual(all);

    // Deleted for good: gone.
    await db.delete(services).where(eq(services.id, service.id));
    expect((await ids()).service).toEqual([]);
  });
});

describe('POST /api/favorites/sync', () => {
  it('merges a guest’s list into the account and answers the merged list, newest first', async () => {
    const { seller, service, project } = await catalogue();
    const second = await createService(db, seller.id);
    const draft = await createService(db, seller.id, { status: 'draft' });
    const { user, token } = await account();
    await toggle(token, { id: service.id, type: 'service' });
    const before = (await db.select().from(favorites).where(eq(favorites.userId, user.id)))[0]!;

    // Oldest first, as the web keeps it; with a duplicate, an item already there, an unknown and a draft.
    const res = await sync(token, [
      { id: project.id, type: 'project' },
      { id: randomUUID(), type: 'service' },
      { id: service.id, type: 'service' },
      { id: draft.id, type: 'service' },
      { id: seller.id, type: 'freelancer' },
      { id: project.id, type: 'project' },
      { id: second.id, type: 'service' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual([
      { id: second.id, type: 'service' },
      { id: seller.id, type: 'freelancer' },
      { id: project.id, type: 'project' },
      { id: service.id, type: 'service' },
    ]);
    expect(res.body.total).toBe(4);
    expect(await listOf(token)).toEqual(res.body.result);
    // What was there stays as it was; nothing non-public was stored.
    const rows = await db.select().from(favorites).where(eq(favorites.userId, user.id));
    expect(rows.find((r) => r.itemId === service.id)?.createdAt).toEqual(before.createdAt);
    expect(rows).toHaveLength(4);

    // Again: nothing changes.
    expect((await sync(token, [{ id: project.id, type: 'project' }])).body.result).toEqual(res.body.result);
    expect((await sync(token, [])).body.result).toEqual(res.body.result);
  });

  it("puts the merged list after the account's newest item, even one added in the same milliseconds", async () => {
    const { seller, service, project } = await catalogue();
    const { user, token } = await account();
    await toggle(token, { id: service.id, type: 'service' });
    // As a toggle a few milliseconds before the merge leaves it, or a database clock ahead of the server's.
    await db.update(favorites).set({ createdAt: new Date(Date.now() + 60_000) }).where(eq(favorites.userId, user.id));
    const res = await sync(token, [
      { id: project.id, type: 'project' },
      { id: seller.id, type: 'freelancer' },
    ]);
    expect(res.body.result).toEqual([
      { id: seller.id, type: 'freelancer' },
      { id: project.id, type: 'project' },
      { id: service.id, type: 'service' },
    ]);
  });

  it('refuses malformed lists and more than 200 items at once', async () => {
    const { token } = await account();
    const many = Array.from({ length: 201 }, () => ({ id: randomUUID(), type: 'service' }));
    expect((await sync(token, many)).status).toBe(400);
    expect((await sync(token, many.slice(0, 200))).status).toBe(200);
    for (const items of [[{ id: 'x', type: 'service' }], [{ id: randomUUID(), type: 'order' }], 'all', null, [null]]) {
      expect((await sync(token, items)).status, JSON.stringify(items)).toBe(400);
    }
    expect((await call(app, 'POST', '/api/favorites/sync', { token, body: {} })).status).toBe(400);
  });

  it(`leaves out the oldest new items past ${FAVORITES_MAX}`, async () => {
    const { seller } = await catalogue();
    const { user, token } = await account();
    await db.insert(favorites).values(Array.from({ length: FAVORITES_MAX - 2 }, () => ({ userId: user.id, type: 'project' as const, itemId: randomUUID() })));
    const extra = [];
    for (let i = 0; i < 4; i++) extra.push(await createService(db, seller.id));
    const res = await sync(token, extra.map((s) => ({ id: s.id, type: 'service' })));
    expect(res.status).toBe(200);
    expect(res.body.result.map((f) => f.id)).toEqual([extra[3]!.id, extra[2]!.id]);
    expect(await db.select().from(favorites).where(eq(favorites.userId, user.id))).toHaveLength(FAVORITES_MAX);
  });
});

describe('recently viewed services (the signed-in home page)', () => {
  const recent = async (token: string, limit?: number) => {
    const res = await call<ServiceCard[]>(app, 'GET', '/api/favorites/recent', { token, query: limit ? { limit: String(limit) } : {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.map((c) => c._id);
  };
  const open = async (token: string | null, id: string) => expect((await call(app, 'GET', `/api/services/${id}`, { token })).status).toBe(200);

  it('lists the public services a person opened, the latest first, once each; not their own, not hidden ones', async () => {
    const { seller, service: first } = await catalogue();
    const second = await createService(db, seller.id);
    const third = await createService(db, seller.id);
    const { token } = await account();
    expect(await recent(token)).toEqual([]);

    await open(token, first.id);
    await new Promise((r) => setTimeout(r, 5));
    await open(token, second.id);
    await new Promise((r) => setTimeout(r, 5));
    await open(token, first.id);
    expect(await recent(token)).toEqual([first.id, second.id]);
    expect(await recent(token, 1)).toEqual([first.id]);

    // The seller's own page views are not "viewed"; a guest's views are nobody's.
    const sellerToken = await app.services.tokens.sign(seller);
    await open(sellerToken, third.id);
    await open(null, third.id);
    expect(await recent(sellerToken)).toEqual([]);

    // A service that stops being public drops out (and comes back with it).
    await db.update(services).set({ status: 'paused' }).where(eq(services.id, first.id));
    expect(await recent(token)).toEqual([second.id]);
    await db.update(services).set({ status: 'active' }).where(eq(services.id, first.id));
    expect(await recent(token)).toEqual([first.id, second.id]);
  });

  it('gives the home page the newest public favourites only, as many as asked', async () => {
    const { seller, service: a } = await catalogue();
    const b = await createService(db, seller.id);
    const c = await createService(db, seller.id);
    const { token } = await account();
    for (const s of [a, b, c]) {
      expect((await toggle(token, { id: s.id, type: 'service' })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 5));
    }
    const newest = async (limit: string) => (await call<ServiceCard[]>(app, 'GET', '/api/favorites/items', { token, query: { type: 'service', limit } })).body.result.map((x) => x._id);
    expect(await newest('2')).toEqual([c.id, b.id]);
    // A hidden one does not take a place.
    await db.update(services).set({ status: 'paused' }).where(eq(services.id, c.id));
    expect(await newest('2')).toEqual([b.id, a.id]);
    expect((await call(app, 'GET', '/api/favorites/items', { token, query: { type: 'service', limit: '0' } })).status).toBe(400);
  });

  it('needs a signed-in person and a limit in range', async () => {
    expect((await call(app, 'GET', '/api/favorites/recent', { token: null })).status).toBe(401);
    const { token } = await account();
    for (const limit of ['0', '21', 'x']) {
      expect((await call(app, 'GET', '/api/favorites/recent', { token, query: { limit } })).status, limit).toBe(400);
    }
  });
});
