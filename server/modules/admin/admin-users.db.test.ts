import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser, DEFAULT_PASSWORD, type UserOverrides } from '../../db/factories.ts';
import { users, type UserRow } from '../users/schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { ADMIN_MESSAGES, type AdminUser, type AuditEntry } from '#contract/admin';
import { AUTH_MESSAGES } from '#contract/auth';
import { MESSAGES } from '#contract/messages';
import { call, login, me, unique } from '../../test/api.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestApp>>['database']['db'];
let admin: UserRow;
let adminToken: string;
let customerToken: string;
let sellerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  db = t.database.db;
  admin = await createUser(db, { role: 'admin' });
  adminToken = await app.services.tokens.sign(admin);
  customerToken = await app.services.tokens.sign(await createUser(db, { role: 'customer' }));
  sellerToken = await app.services.tokens.sign(await createUser(db, { role: 'seller' }));
});

afterAll(async () => {
  await t?.close();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

const row = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const list = (query: Record<string, string>, token = adminToken) => call<AdminUser[]>(app, 'GET', '/api/admin/users', { token, query });
const detail = (id: string, token = adminToken) => call<{ user: AdminUser; audit: AuditEntry[] }>(app, 'GET', `/api/admin/users/${id}`, { token });
const block = (id: string, body: unknown, token = adminToken) => call<AdminUser>(app, 'PATCH', `/api/admin/users/${id}/block`, { token, body });
const setAdmin = (id: string, body: unknown, token = adminToken) => call<AdminUser>(app, 'PATCH', `/api/admin/users/${id}/admin`, { token, body });

describe('authorization: the whole admin API is for admins only', () => {
  type Request = { title: string; method: InjectOptions['method']; url: () => Promise<string> | string; body?: unknown; query?: Record<string, string>; adminStatus: number };
  const target = async () => (await createUser(db)).id;
  const requests: Request[] = [
    { title: 'list', method: 'GET', url: () => '/api/admin/users', adminStatus: 200 },
    { title: 'list with filters', method: 'GET', url: () => '/api/admin/users', query: { q: 'a', role: 'seller', state: 'active', page: '1', limit: '5' }, adminStatus: 200 },
    { title: 'list with an invalid query', method: 'GET', url: () => '/api/admin/users', query: { limit: '1000', state: 'deleted' }, adminStatus: 400 },
    { title: 'one user', method: 'GET', url: async () => `/api/admin/users/${await target()}`, adminStatus: 200 },
    { title: 'an unknown user', method: 'GET', url: () => '/api/admin/users/00000000-0000-4000-8000-000000000000', adminStatus: 404 },
    { title: 'a malformed id', method: 'GET', url: () => '/api/admin/users/not-a-uuid', adminStatus: 400 },
    { title: 'block', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/block`, body: { blocked: true, reason: 'Спам в чатах' }, adminStatus: 200 },
    { title: 'unblock', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/block`, body: { blocked: false }, adminStatus: 200 },
    { title: 'block without a body', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/block`, adminStatus: 400 },
    { title: 'block with a malformed id', method: 'PATCH', url: () => '/api/admin/users/1/block', body: { blocked: true, reason: 'Спам' }, adminStatus: 400 },
    { title: 'grant admin', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/admin`, body: { admin: true }, adminStatus: 200 },
    { title: 'revoke admin', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/admin`, body: { admin: false }, adminStatus: 200 },
    { title: 'admin flag with a bad body', method: 'PATCH', url: async () => `/api/admin/users/${await target()}/admin`, body: { admin: 'yes' }, adminStatus: 400 },
    { title: 'an unknown admin path', method: 'GET', url: () => '/api/admin/whatever', adminStatus: 404 },
    { title: 'an unknown admin path, deeper', method: 'POST', url: () => '/api/admin/users/x/y/z', body: {}, adminStatus: 404 },
    { title: 'the admin root', method: 'GET', url: () => '/api/admin', adminStatus: 404 },
    { title: 'a wrong method', method: 'DELETE', url: async () => `/api/admin/users/${await target()}`, adminStatus: 404 },
  ];

  it.each(requests)('$title: guest 401, customer 403, seller 403, admin $adminStatus', async (r) => {
    for (const [who, token, status] of [
      ['guest', null, 401],
      ['customer', customerToken, 403],
      ['seller', sellerToken, 403],
      ['admin', adminToken, r.adminStatus],
    ] as const) {
      const url = await r.url();
      const res = await call(app, r.method, url, { token, body: r.body, query: r.query });
      expect(res.status, `${who} ${r.method} ${url}`).toBe(status);
      if (status === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (status === 403) {
        expect(res.body.message).toBe(MESSAGES.forbidden);
        expect(res.body.result).toBeUndefined();
        expect(res.body.errors).toBeUndefined();
      }
    }
  });

  it('a non-admin changes nothing, even with a valid request', async () => {
    const victim = await createUser(db);
    for (const token of [customerToken, sellerToken]) {
      await block(victim.id, { blocked: true, reason: 'Просто так' }, token);
      await setAdmin(victim.id, { admin: true }, token);
    }
    const after = await row(victim.id);
    expect(after.blockedAt).toBeNull();
    expect(after.roles).toEqual(['customer']);
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, victim.id))).toEqual([]);
  });

  it('percent-encoded or doubled slashes do not sneak past the check', async () => {
    for (const url of ['/api/%61dmin/users?limit=1000', '/api/%61dmin/users/x/block']) {
      const res = await call(app, url.endsWith('block') ? 'PATCH' : 'GET', url, { token: customerToken, body: url.endsWith('block') ? {} : undefined });
      expect(res.status, url).toBe(403);
    }
    for (const url of ['/api/%61dmin/users', '/api/admin%2Fusers', '/api//admin/users', '/api/admin/./users', '/api/Admin/users']) {
      const res = await call(app, 'GET', url, { token: customerToken });
      expect([401, 403, 404], url).toContain(res.status);
      expect(res.body.result, url).toBeUndefined();
    }
  });

  it('an admin with a revoked or stale token is a guest', async () => {
    const { user, token } = await account({ role: 'admin' });
    await call(app, 'POST', '/api/auth/logout-all', { token });
    expect((await list({}, token)).status).toBe(401);
    const fresh = await app.services.tokens.sign(await row(user.id));
    expect((await list({}, fresh)).status).toBe(200);
  });
});

describe('GET /api/admin/users', () => {
  it('finds by name, surname, full name, email and login, case-insensitively', async () => {
    const marker = unique();
    const target = await createUser(db, { name: 'Зинаида', surname: `Кукушкина${marker}`, email: `zina_${marker}@example.com`, userName: `zina_${marker}` });
    await createUser(db, { name: 'Зинаида', surname: 'Другая' });
    const ids = async (q: string) => (await list({ q })).body.result.map((u) => u._id);
    expect(await ids(`кукушкина${marker}`)).toEqual([target.id]);
    expect(await ids(`Зинаида Кукушкина${marker}`)).toEqual([target.id]);
    expect(await ids(`ZINA_${marker}@EXAMPLE`)).toEqual([target.id]);
    expect(await ids(`zina_${marker}`)).toEqual([target.id]);
    expect(await ids(marker.toUpperCase())).toEqual([target.id]);
    const res = await list({ q: `кукушкина${marker}` });
    expect(res.body.total).toBe(1);
    expect(res.body.result[0]).toEqual({
      _id: target.id,
      user_name: target.userName,
      name: 'Зинаида',
      surname: target.surname,
      email: target.email,
      avatar: null,
      roles: ['customer'],
      active_role: 'customer',
      email_confirmed: true,
      two_factor: false,
      blocked: false,
      block_reason: null,
      created_at: target.createdAt.toISOString(),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon/i);
  });

  it('treats % and _ in the search as plain characters', async () => {
    const marker = unique();
    await createUser(db, { surname: `Процент${marker}` });
    expect((await list({ q: '%' })).body.total).toBe(0);
    expect((await list({ q: `${marker.slice(0, 3)}%${marker.slice(4)}` })).body.total).toBe(0);
    expect((await list({ q: '\\' })).body.total).toBe(0);
    expect((await list({ q: "'; drop table users; --" })).status).toBe(200);
  });

  it('filters by role and by state (active, blocked, unconfirmed)', async () => {
    const marker = unique();
    const surname = `Фильтров${marker}`;
    const customer = await createUser(db, { role: 'customer', surname });
    const seller = await createUser(db, { role: 'seller', surname });
    const both = await createUser(db, { role: 'seller', roles: ['customer', 'seller'], surname });
    const anAdmin = await createUser(db, { role: 'admin', surname });
    const blocked = await createUser(db, { surname, blockedAt: new Date(), blockReason: 'спам' });
    const unconfirmed = await createUser(db, { surname, emailConfirmedAt: null });
    const ids = async (query: Record<string, string>) => (await list({ q: surname, ...query })).body.result.map((u) => u._id).sort();
    const sorted = (...rows: UserRow[]) => rows.map((r) => r.id).sort();

    expect(await ids({ role: 'seller' })).toEqual(sorted(seller, both));
    expect(await ids({ role: 'customer' })).toEqual(sorted(customer, both, anAdmin, blocked, unconfirmed));
    expect(await ids({ role: 'admin' })).toEqual(sorted(anAdmin));
    expect(await ids({ state: 'blocked' })).toEqual(sorted(blocked));
    expect(await ids({ state: 'active' })).toEqual(sorted(customer, seller, both, anAdmin, unconfirmed));
    expect(await ids({ state: 'unconfirmed' })).toEqual(sorted(unconfirmed));
    expect(await ids({ role: 'seller', state: 'blocked' })).toEqual([]);
    const blockedRow = (await list({ q: surname, state: 'blocked' })).body.result[0]!;
    expect(blockedRow).toMatchObject({ blocked: true, block_reason: 'спам' });
  });

  it('pages newest first with the total of all matches', async () => {
    const surname = `Страничный${unique()}`;
    const created: UserRow[] = [];
    for (let i = 0; i < 5; i++) created.push(await createUser(db, { surname, createdAt: new Date(Date.UTC(2024, 0, 1 + i)) }));
    const page = async (p: number) => list({ q: surname, limit: '2', page: String(p) });
    const [p1, p2, p3, p4] = [await page(1), await page(2), await page(3), await page(4)];
    expect([p1, p2, p3, p4].map((p) => p.body.total)).toEqual([5, 5, 5, 5]);
    expect([...p1.body.result, ...p2.body.result, ...p3.body.result].map((u) => u._id)).toEqual(created.map((u) => u.id).reverse());
    expect(p3.body.result).toHaveLength(1);
    expect(p4.body.result).toEqual([]);
    const all = await list({ q: surname });
    expect(all.body.result).toHaveLength(5);
  });

  it('refuses a limit over 100, a page below 1 and unknown filter values', async () => {
    const queries: Record<string, string>[] = [{ limit: '101' }, { limit: '0' }, { page: '0' }, { page: 'x' }, { role: 'god' }, { state: 'deleted' }, { q: 'x'.repeat(101) }];
    for (const query of queries) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.message).toBe(MESSAGES.validation);
      expect(Object.keys(res.body.errors ?? {})).toHaveLength(1);
    }
    expect((await list({ limit: '100' })).status).toBe(200);
  });
});

describe('GET /api/admin/users/:id', () => {
  it('answers the user and their audit trail, newest first', async () => {
    const target = await createUser(db);
    await block(target.id, { blocked: true, reason: 'Первое нарушение' });
    await block(target.id, { blocked: false });
    const res = await detail(target.id);
    expect(res.status).toBe(200);
    expect(res.body.result.user).toMatchObject({ _id: target.id, blocked: false, block_reason: null });
    expect(res.body.result.audit.map((a) => a.action)).toEqual(['user.unblock', 'user.block']);
    expect(res.body.result.audit[1]).toMatchObject({ actor: admin.id, details: { reason: 'Первое нарушение' } });
  });

  it('answers 404 in Russian for an unknown id', async () => {
    const res = await detail('00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(ADMIN_MESSAGES.userNotFound);
  });
});

describe('PATCH /api/admin/users/:id/block', () => {
  it('blocks with a reason: the user\'s tokens stop working, login answers 403, the action is audited', async () => {
    const { user, token } = await account();
    const res = await block(user.id, { blocked: true, reason: '  Мошенничество с оплатой  ' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ _id: user.id, blocked: true, block_reason: 'Мошенничество с оплатой' });

    expect((await me(app, token)).status).toBe(401);
    const loginRes = await login(app, user.email, DEFAULT_PASSWORD);
    expect(loginRes.status).toBe(403);
    expect(loginRes.body.message).toBe(AUTH_MESSAGES.blocked);

    const entries = await db.select().from(auditLog).where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, user.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: admin.id, action: 'user.block', details: { reason: 'Мошенничество с оплатой' } });
  });

  it('requires a reason of at least 3 characters to block', async () => {
    const { user, token } = await account();
    for (const body of [{ blocked: true }, { blocked: true, reason: '' }, { blocked: true, reason: '  ab  ' }, { blocked: true, reason: 'x'.repeat(501) }]) {
      const res = await block(user.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.reason, JSON.stringify(body)).toBeDefined();
    }
    expect((await block(user.id, { blocked: true, reason: 'abc' })).status).toBe(200);
    expect((await me(app, token)).status).toBe(401);
  });

  it('reports the missing reason in Russian', async () => {
    const { user } = await account();
    const res = await block(user.id, { blocked: true });
    expect(res.body.errors).toEqual({ reason: ['Укажите причину блокировки'] });
  });

  it('unblocks: login works again, the reason is cleared, the action is audited', async () => {
    const { user } = await account();
    await block(user.id, { blocked: true, reason: 'Спам' });
    const res = await block(user.id, { blocked: false });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ blocked: false, block_reason: null });
    const loginRes = await login(app, user.email, DEFAULT_PASSWORD);
    expect(loginRes.status).toBe(200);
    expect((await me(app, loginRes.body.result)).status).toBe(200);
    const actions = (await detail(user.id)).body.result.audit.map((a) => a.action);
    expect(actions).toEqual(['user.unblock', 'user.block']);
  });

  it('an admin cannot block themselves', async () => {
    const res = await block(admin.id, { blocked: true, reason: 'Устал' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ADMIN_MESSAGES.notYourself);
    expect((await row(admin.id)).blockedAt).toBeNull();
    expect((await list({ limit: '1' })).status).toBe(200);
  });

  it('answers 404 for an unknown user, writing no audit row', async () => {
    const id = '00000000-0000-4000-8000-0000000000aa';
    expect((await block(id, { blocked: true, reason: 'Спам' })).status).toBe(404);
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, id))).toEqual([]);
  });

  it('a blocked admin loses the admin API at once', async () => {
    const { user, token } = await account({ role: 'admin' });
    expect((await list({}, token)).status).toBe(200);
    await block(user.id, { blocked: true, reason: 'Злоупотребление' });
    expect((await list({}, token)).status).toBe(401);
  });
});

describe('PATCH /api/admin/users/:id/admin', () => {
  it('grants and revokes the admin role, each audited', async () => {
    // With a second factor: an admin needs one before the admin API answers them (ADR 054).
    const { user, token } = await account({ role: 'seller', twoFactor: true });
    expect((await list({}, token)).status).toBe(403);

    const granted = await setAdmin(user.id, { admin: true });
    expect(granted.status).toBe(200);
    expect(granted.body.result.roles).toEqual(['seller', 'admin']);
    expect(granted.body.result.active_role).toBe('seller');
    expect((await list({}, token)).status).toBe(200);

    const twice = await setAdmin(user.id, { admin: true });
    expect(twice.body.result.roles).toEqual(['seller', 'admin']);

    const revoked = await setAdmin(user.id, { admin: false });
    expect(revoked.status).toBe(200);
    expect(revoked.body.result.roles).toEqual(['seller']);
    expect((await list({}, token)).status).toBe(403);

    const entries = await db.select().from(auditLog).where(eq(auditLog.targetId, user.id));
    expect(entries.map((e) => e.action).sort()).toEqual(['user.grant_admin', 'user.grant_admin', 'user.revoke_admin']);
    expect(entries.every((e) => e.actorId === admin.id && e.targetType === 'user')).toBe(true);
  });

  it('revoking from an admin whose active role is admin switches them to a role they have', async () => {
    const { user } = await account({ role: 'admin' });
    expect(user.activeRole).toBe('admin');
    const res = await setAdmin(user.id, { admin: false });
    expect(res.body.result).toMatchObject({ roles: ['customer'], active_role: 'customer' });
    const lone = await createUser(db, { roles: ['admin'], activeRole: 'admin' });
    const res2 = await setAdmin(lone.id, { admin: false });
    expect(res2.body.result).toMatchObject({ roles: ['customer'], active_role: 'customer' });
  });

  it('an admin cannot change their own admin role', async () => {
    const res = await setAdmin(admin.id, { admin: false });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ADMIN_MESSAGES.notYourself);
    expect((await row(admin.id)).roles).toContain('admin');
  });

  it('a new admin can act; the audit names them as the actor', async () => {
    const { user: second, token } = await account({ role: 'customer', twoFactor: true });
    await setAdmin(second.id, { admin: true });
    const victim = await createUser(db);
    expect((await block(victim.id, { blocked: true, reason: 'Спам' }, token)).status).toBe(200);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, victim.id));
    expect(entry).toMatchObject({ actorId: second.id, action: 'user.block' });
  });
});
