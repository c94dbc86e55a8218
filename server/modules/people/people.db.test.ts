import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { services } from '../services/schema.ts';
import { cities, countries } from '../lookups/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import type { PublicUser } from '#contract/catalog';
import { call } from '../../test/api.ts';
import { encodeCursor } from '../../platform/listing/listing.ts';
import { sellerLevel } from '../users/index.ts';
import { PeopleService, PEOPLE_MESSAGES, PROFILE_SERVICES_MAX, type PublicProfile } from './service.ts';
import { peopleRoutes } from './routes.ts';
import { createService } from '../../db/catalog-factories.ts';

type Page<T> = { status: number; result: T[]; total: number; next: string | null; message: string };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
let url: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  if (!app.hasRoute({ method: 'GET', url: '/api/freelancers' })) {
    await app.register(peopleRoutes, { people: new PeopleService({ db, presence: app.services.realtime }), reads: new Map() });
  }
  // Listening, so that a socket can connect (online status).
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

const freelancers = async (query: Record<string, string>) => (await call(app, 'GET', '/api/freelancers', { query })) as { status: number; body: Page<PublicUser> };
const profile = (id: string, token: string | null = null) => call<PublicProfile>(app, 'GET', `/api/users/${encodeURIComponent(id)}`, { token });

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, into));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}

/** Every page of a listing, following `next`. */
async function allPages(query: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await freelancers({ ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(...res.body.result.map((p) => p._id));
    cursor = res.body.next;
    if (!cursor) return ids;
  }
  throw new Error('too many pages');
}

async function online(user: UserRow): Promise<Socket> {
  const token = await app.services.tokens.sign(user);
  const socket = connect(url, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

describe('GET /api/freelancers', () => {
  it('lists sellers in good standing with at least one active service (in the category, when given)', async () => {
    const category = 'accounting-legal';
    const active = await createUser(db, { role: 'seller' });
    await createService(db, active.id, { category });
    const elsewhere = await createUser(db, { role: 'seller' });
    await createService(db, elsewhere.id, { category: 'design' });
    const drafts = await createUser(db, { role: 'seller' });
    for (const status of ['draft', 'moderation', 'paused', 'hidden', 'rejected'] as const) await createService(db, drafts.id, { category, status });
    const blocked = await createUser(db, { role: 'seller', blockedAt: new Date() });
    await createService(db, blocked.id, { category });
    // A customer whose seller role was taken away keeps no place among freelancers.
    const former = await createUser(db, { role: 'customer' });
    await createService(db, former.id, { category });
    await createUser(db, { role: 'seller' });

    const res = await freelancers({ category });
    expect(res.status).toBe(200);
    expect(res.body.result.map((p) => p._id)).toEqual([active.id]);
    expect(res.body.total).toBe(1);
    expect(res.body.next).toBeNull();
    expect(res.body.result[0]).toEqual({
      _id: active.id,
      user_name: active.userName,
      name: active.name,
      surname: active.surname,
      avatar: null,
      level: 'new',
      rating: 0,
      reviews_count: 0,
      orders_count: 0,
      online_status: false,
    });
    expect(keysOf(res.body).has('email')).toBe(false);

    const everyone = await allPages({ limit: '60' });
    expect(everyone).toEqual(expect.arrayContaining([active.id, elsewhere.id]));
    for (const id of [drafts.id, blocked.id, former.id]) expect(everyone).not.toContain(id);
    expect((await freelancers({ category: 'no-such-category' })).body).toMatchObject({ result: [], total: 0, next: null });
  });

  it('filters by derived level and by recent presence', async () => {
    const category = 'administration-support';
    const make = async (completedOrders: number, rating: number, lastSeenAt: Date | null = null) => {
      const user = await createUser(db, { role: 'seller', completedOrders, rating, lastSeenAt });
      await createService(db, user.id, { category });
      return user;
    };
    const pro = await make(60, 480);
    const almostPro = await make(60, 460); // rating below 4.7: advanced
    const advanced = await make(10, 450, new Date());
    const beginner = await make(9, 500, new Date(Date.now() - 60 * 60 * 1000));
    const ids = async (query: Record<string, string>) => (await freelancers({ category, ...query })).body.result.map((p) => p._id).sort();
    expect(await ids({ level: 'pro' })).toEqual([pro.id]);
    expect(await ids({ level: 'advanced' })).toEqual([almostPro.id, advanced.id].sort());
    expect(await ids({ level: 'new' })).toEqual([beginner.id]);
    for (const level of ['pro', 'advanced', 'new'] as const) {
      const res = await freelancers({ category, level });
      for (const person of res.body.result) {
        const row = [pro, almostPro, advanced, beginner].find((u) => u.id === person._id)!;
        expect(person.level).toBe(level);
        expect(sellerLevel(row.completedOrders, row.rating)).toBe(level);
      }
    }
    expect(await ids({ online: '1' })).toEqual([advanced.id]);
    expect(await ids({ online: 'true', level: 'advanced' })).toEqual([advanced.id]);
  });

  it('shows the live online status of each card', async () => {
    const category = 'business-life';
    const seller = await createUser(db, { role: 'seller' });
    await createService(db, seller.id, { category });
    const socket = await online(seller);
    try {
      expect((await freelancers({ category })).body.result[0]?.online_status).toBe(true);
      expect((await profile(seller.id)).body.result.online_status).toBe(true);
    } finally {
      socket.disconnect();
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await freelancers({ category })).body.result[0]?.online_status).toBe(false);
  });

  describe('sort orders hold across cursor pages (no duplicates, no gaps)', () => {
    const category = 'architecture-engineering';
    const people: UserRow[] = [];
    /** Registration times as stored, to the microsecond. */
    const createdKey = new Map<string, string>();

    beforeAll(async () => {
      // Ties on purpose: equal ratings, reviews, orders and registration times.
      const stats = [
        [480, 10, 55],
        [480, 10, 12],
        [480, 3, 55],
        [0, 0, 0],
        [450, 20, 12],
        [0, 0, 3],
        [500, 1, 1],
        [480, 10, 0],
        [300, 2, 55],
        [450, 20, 12],
        [0, 0, 0],
      ] as const;
      const created = ['2025-01-01T00:00:00.000001Z', '2025-01-01T00:00:00.000001Z', '2025-01-01T00:00:00.000002Z', '2025-01-01T00:00:00.000000Z', '2025-06-01T12:00:00.500000Z', '2025-06-01T12:00:00.500001Z'];
      for (const [i, [rating, reviewsCount, completedOrders]] of stats.entries()) {
        const user = await createUser(db, { role: 'seller', rating, reviewsCount, completedOrders });
        await db.update(users).set({ createdAt: sql`${created[i % created.length]!}::timestamptz` }).where(eq(users.id, user.id));
        await createService(db, user.id, { category });
        // A second active service does not make a second card.
        if (i % 3 === 0) await createService(db, user.id, { category });
        people.push((await db.select().from(users).where(eq(users.id, user.id)))[0]!);
        createdKey.set(user.id, created[i % created.length]!);
      }
    });

    const idDesc = (a: UserRow, b: UserRow) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    const key = (u: UserRow) => createdKey.get(u.id)!;
    const expected = {
      rating: () => [...people].sort((a, b) => b.rating - a.rating || b.reviewsCount - a.reviewsCount || idDesc(a, b)),
      orders: () => [...people].sort((a, b) => b.completedOrders - a.completedOrders || idDesc(a, b)),
      new: () => [...people].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : idDesc(a, b))),
    };

    for (const sort of ['rating', 'orders', 'new'] as const) {
      it(sort, async () => {
        const want = expected[sort]().map((u) => u.id);
        for (const limit of ['1', '2', '5', '11', '60']) {
          const got = await allPages({ category, sort, limit });
          expect(got, `limit ${limit}`).toEqual(want);
        }
        expect((await freelancers({ category, sort, limit: '2' })).body.total).toBe(people.length);
      });
    }

    it('the default sort is rating', async () => {
      expect(await allPages({ category, limit: '3' })).toEqual(expected.rating().map((u) => u.id));
    });
  });

  it('answers a safe result or a 400 to bad queries, never a 500', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const bad: Record<string, string>[] = [
      { limit: '100000' },
      { limit: '0' },
      { sort: 'price' },
      { level: 'god' },
      { online: 'maybe' },
      { category: "x' or 1=1 --" },
      { cursor: '%%%' },
      { cursor: 'eyJ4IjoxfQ' },
      { cursor: encodeCursor(['rating', 'высокий', 0, uuid]) },
      { cursor: encodeCursor(['orders', 5, uuid]), sort: 'rating' },
      { cursor: encodeCursor(['rating', 5, 5, uuid]), sort: 'orders' },
      { cursor: encodeCursor(['new', '2025-02-30T00:00:00Z', uuid]), sort: 'new' },
      { cursor: encodeCursor(['new', '0000-01-01T00:00:00Z', uuid]), sort: 'new' },
      { cursor: encodeCursor(['orders', 5, 'not-a-uuid']), sort: 'orders' },
    ];
    for (const query of bad) {
      const res = await freelancers(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.result).toBeUndefined();
    }
    const fine: Record<string, string>[] = [
      { category: 'no-such' },
      { cursor: encodeCursor(['orders', 5, uuid]), sort: 'orders' },
      { cursor: encodeCursor(['new', '2025-01-01T00:00:00Z', uuid]), sort: 'new' },
    ];
    for (const query of fine) {
      expect((await freelancers(query)).status, JSON.stringify(query)).toBe(200);
    }
  });
});

describe('GET /api/users/{id}', () => {
  it('shows public fields only, to everybody alike: never the email or anything private', async () => {
    const [moscow] = await db.select().from(cities).where(eq(cities.title, 'Москва'));
    const [russia] = await db.select().from(countries).where(eq(countries.code, 'RU'));
    const { user: seller, token: ownToken } = await account({
      role: 'seller',
      about: 'Дизайнер интерфейсов, 7 лет опыта.',
      cityId: moscow!.id,
      countryId: russia!.id,
      avatar: '/uploads/avatar.png',
      completedOrders: 12,
      rating: 460,
      reviewsCount: 9,
    });
    const other = await account();
    const admin = await account({ role: 'admin' });
    const service = await createService(db, seller.id, { images: ['/uploads/cover.png', '/uploads/2.png'] });

    const answers: Awaited<ReturnType<typeof profile>>['body'][] = [];
    for (const token of [null, other.token, ownToken, admin.token]) {
      const res = await profile(seller.id, token);
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    expect(answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0]))).toBe(true);

    const result = answers[0]!.result;
    expect(result).toEqual({
      _id: seller.id,
      user_name: seller.userName,
      name: seller.name,
      surname: seller.surname,
      avatar: '/uploads/avatar.png',
      level: 'advanced',
      rating: 4.6,
      reviews_count: 9,
      orders_count: 12,
      online_status: false,
      about: 'Дизайнер интерфейсов, 7 лет опыта.',
      city: 'Москва',
      country: 'Россия',
      created_at: seller.createdAt.toISOString(),
      services: [expect.objectContaining({ _id: service.id, title: service.title, cover: '/uploads/cover.png', price: service.price })],
      services_total: 1,
    });

    const keys = keysOf(answers[0]);
    for (const key of ['email', 'password', 'passwordHash', 'password_hash', 'roles', 'active_role', 'referralCode', 'tokenVersion', 'token_version', 'preferences', 'blockedAt', 'block_reason', 'balance', 'lastSeenAt']) {
      expect(keys.has(key), key).toBe(false);
    }
    const text = JSON.stringify(answers[0]);
    expect(text).not.toContain(seller.email);
    expect(text).not.toContain(seller.referralCode);
    expect(text).not.toContain(seller.passwordHash);
  });

  it(`lists at most ${PROFILE_SERVICES_MAX} active services, most popular first`, async () => {
    const seller = await createUser(db, { role: 'seller' });
    const made = [];
    for (let i = 0; i < PROFILE_SERVICES_MAX + 2; i++) made.push(await createService(db, seller.id, { popularity: i * 10 }));
    for (const status of ['draft', 'moderation', 'paused', 'hidden', 'rejected'] as const) await createService(db, seller.id, { status, popularity: 10_000 });
    const res = await profile(seller.id);
    expect(res.body.result.services.map((s) => s._id)).toEqual(made.reverse().slice(0, PROFILE_SERVICES_MAX).map((s) => s.id));
    expect(res.body.result.services_total).toBe(PROFILE_SERVICES_MAX + 2);
  });

  it('a customer has a page too, without services; no city or country shows as null', async () => {
    const customer = await createUser(db);
    const res = await profile(customer.id);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ _id: customer.id, services: [], services_total: 0, city: null, country: null, about: '' });
  });

  it('unknown, malformed and blocked people are 404, never 400 or 500', async () => {
    const blocked = await createUser(db, { role: 'seller', blockedAt: new Date(), blockReason: 'Спам' });
    await createService(db, blocked.id);
    for (const id of [blocked.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1', "1' or '1'='1", 'x'.repeat(100), blocked.id.toUpperCase().replace(/-/g, '')]) {
      const res = await profile(id);
      expect(res.status, id).toBe(404);
      expect(res.body.message).toBe(PEOPLE_MESSAGES.userNotFound);
      expect(JSON.stringify(res.body)).not.toContain('Спам');
    }
    // A blocked seller's services leave the freelancers listing with them.
    expect((await freelancers({ limit: '60' })).body.result.map((p) => p._id)).not.toContain(blocked.id);
    // personPolicy: a blocked person stays visible to admins (their services do not: those are public only).
    const admin = await account({ role: 'admin' });
    const seen = await profile(blocked.id, admin.token);
    expect(seen.status).toBe(200);
    expect(seen.body.result).toMatchObject({ _id: blocked.id, services: [], services_total: 0 });
    const other = await account();
    expect((await profile(blocked.id, other.token)).status).toBe(404);
  });

  it('leaves the own-account route alone: /api/users/me/ is still the signed-in user', async () => {
    const { user, token } = await account();
    for (const path of ['/api/users/me/', '/api/users/me']) {
      const res = await call<{ _id: string; email: string }>(app, 'GET', path, { token });
      expect(res.status, path).toBe(200);
      expect(res.body.result).toMatchObject({ _id: user.id, email: user.email });
    }
    expect((await call(app, 'GET', '/api/users/me/')).status).toBe(401);
  });

  it('a seller’s services that stop being public leave the page', async () => {
    const seller = await createUser(db, { role: 'seller' });
    const service = await createService(db, seller.id);
    expect((await profile(seller.id)).body.result.services_total).toBe(1);
    await db.update(services).set({ status: 'paused' }).where(eq(services.id, service.id));
    expect((await profile(seller.id)).body.result).toMatchObject({ services: [], services_total: 0 });
  });
});
