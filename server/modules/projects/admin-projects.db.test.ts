import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { projects } from './schema.ts';
import { auditLog } from '../../platform/schema.ts';
import { files } from '../files/schema.ts';
import { outbox } from '../../platform/schema.ts';
import type { UserRow } from '../users/schema.ts';
import type { AuditEntry } from '#contract/admin';
import { CATALOG_MESSAGES, type Project } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import type { Letter } from '../../lib/mail.ts';
import { call } from '../../test/api.ts';
import { ProjectService, PROJECT_MESSAGES, type AdminProject } from './service.ts';
import { projectRoutes } from './routes.ts';
import { adminProjectRoutes } from './admin-routes.ts';
import { createProject } from '../../db/catalog-factories.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];
let admin: UserRow;
let adminToken: string;
let send: MockInstance<(to: string, letter: Letter) => Promise<void>>;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  const service = new ProjectService({
    db,
    presence: app.services.realtime,
    withTx: app.services.platform.withTx,
    letters: app.services.letters,
    log: pino({ level: 'silent' }),
  });
  if (!app.hasRoute({ method: 'GET', url: '/api/projects' })) await app.register(projectRoutes, { projects: service, reads: new Map() });
  if (!app.hasRoute({ method: 'GET', url: '/api/admin/projects' })) await app.register(adminProjectRoutes, { projects: service, reads: new Map() });
  await app.ready();
  admin = await createUser(db, { role: 'admin' });
  adminToken = await app.services.tokens.sign(admin);
});

beforeEach(() => {
  send?.mockRestore();
  send = vi.spyOn(app.services.mailer, 'send').mockResolvedValue(undefined);
});

afterAll(async () => {
  send?.mockRestore();
  await app?.close();
  await database?.drop();
});

async function account(overrides: UserOverrides = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

const input = (overrides: Record<string, unknown> = {}) => ({
  title: 'Перевести сайт на английский язык',
  description: 'Нужно перевести двадцать страниц сайта интернет-магазина, терминология — бытовая техника.',
  category: 'texts-translations',
  sub: null,
  budget: 2_000_000,
  days: 10,
  attachments: [],
  ...overrides,
});

const row = async (id: string) => (await db.select().from(projects).where(eq(projects.id, id)))[0]!;
const auditOf = (id: string) => db.select().from(auditLog).where(and(eq(auditLog.targetType, 'project'), eq(auditLog.targetId, id)));
const decide = (id: string, body: unknown, token = adminToken) => call<AdminProject>(app, 'PATCH', `/api/admin/projects/${id}`, { token, body });
/** Delivers the letters committed so far (the dispatcher is not started here), then those sent to `email`. */
const delivered = () => app.services.platform.dispatcher.runDue();
const lettersTo = async (email: string) => (await delivered(), send.mock.calls).filter(([to]) => to === email).map(([, letter]) => letter);

describe('authorization: admins only, before validation', () => {
  type Request = { title: string; method: InjectOptions['method']; url: (id: string) => string; body?: unknown; query?: Record<string, string>; adminStatus: number };
  const requests: Request[] = [
    { title: 'list', method: 'GET', url: () => '/api/admin/projects', adminStatus: 200 },
    { title: 'list with filters', method: 'GET', url: () => '/api/admin/projects', query: { status: 'hidden', q: 'сайт', limit: '5' }, adminStatus: 200 },
    { title: 'list with an invalid query', method: 'GET', url: () => '/api/admin/projects', query: { status: 'deleted', limit: '100000' }, adminStatus: 400 },
    { title: 'one project', method: 'GET', url: (id) => `/api/admin/projects/${id}`, adminStatus: 200 },
    { title: 'an unknown project', method: 'GET', url: () => '/api/admin/projects/00000000-0000-4000-8000-000000000000', adminStatus: 404 },
    { title: 'a malformed id', method: 'GET', url: () => '/api/admin/projects/not-a-uuid', adminStatus: 400 },
    { title: 'hide', method: 'PATCH', url: (id) => `/api/admin/projects/${id}`, body: { status: 'hidden', reason: 'Контакты в описании' }, adminStatus: 200 },
    { title: 'hide without a reason', method: 'PATCH', url: (id) => `/api/admin/projects/${id}`, body: { status: 'hidden' }, adminStatus: 400 },
    { title: 'a decision without a body', method: 'PATCH', url: (id) => `/api/admin/projects/${id}`, adminStatus: 400 },
    { title: 'an unknown status', method: 'PATCH', url: (id) => `/api/admin/projects/${id}`, body: { status: 'closed' }, adminStatus: 400 },
    { title: 'edit', method: 'PUT', url: (id) => `/api/admin/projects/${id}`, body: input(), adminStatus: 200 },
    { title: 'edit with an invalid body', method: 'PUT', url: (id) => `/api/admin/projects/${id}`, body: { title: '' }, adminStatus: 400 },
    { title: 'a wrong method', method: 'DELETE', url: (id) => `/api/admin/projects/${id}`, adminStatus: 404 },
  ];

  it.each(requests)('$title: guest 401, other user 403, the project’s owner 403, admin $adminStatus', async (r) => {
    const owner = await account();
    const other = await account({ role: 'seller' });
    for (const [who, token, status] of [
      ['guest', null, 401],
      ['other', other.token, 403],
      ['owner', owner.token, 403],
      ['admin', adminToken, r.adminStatus],
    ] as const) {
      const project = await createProject(db, owner.user.id);
      const res = await call(app, r.method, r.url(project.id), { token, body: r.body, query: r.query });
      expect(res.status, `${who} ${r.method} ${r.url(project.id)}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (status === 403) {
        expect(res.body.message).toBe(MESSAGES.forbidden);
        expect(res.body.errors).toBeUndefined();
      }
      if (status >= 400) expect(res.body.result).toBeUndefined();
      if (status !== 200) expect((await row(project.id)).status).toBe('active');
    }
  });

  it('a non-admin changes nothing and leaves no audit trail', async () => {
    const owner = await account();
    const project = await createProject(db, owner.user.id);
    await decide(project.id, { status: 'hidden', reason: 'Просто так' }, owner.token);
    await call(app, 'PUT', `/api/admin/projects/${project.id}`, { token: owner.token, body: input({ title: 'Захваченный проект' }) });
    expect(await row(project.id)).toMatchObject({ status: 'active', title: project.title });
    expect(await auditOf(project.id)).toEqual([]);
    expect(await lettersTo(owner.user.email)).toEqual([]);
  });
});

describe('GET /api/admin/projects', () => {
  it('lists projects in every state with the customer’s email, filters by state and finds by words, title, email, login or id', async () => {
    const marker = randomBytes(3).toString('hex');
    const { user } = await account({ email: `acme_${marker}@example.com`, userName: `acme_${marker}` });
    const hidden = await createProject(db, user.id, { status: 'hidden', hiddenReason: 'Спам', title: `Чат-бот для записи к стоматологу ${marker.split('').reverse().join('')}x` });
    const archived = await createProject(db, user.id, { status: 'archived', title: 'Настроить рекламу в поиске' });
    const ids = async (query: Record<string, string>) =>
      (await call<AdminProject[]>(app, 'GET', '/api/admin/projects', { token: adminToken, query })).body.result.map((p) => p._id);

    const all = await call<AdminProject[]>(app, 'GET', '/api/admin/projects', { token: adminToken, query: { q: `acme_${marker}@example.com` } });
    expect(all.body.result.map((p) => p._id)).toEqual([archived.id, hidden.id]);
    expect(all.body.total).toBe(2);
    expect(all.body.result[1]).toMatchObject({ status: 'hidden', hidden_reason: 'Спам', customer_email: user.email });

    expect(await ids({ q: `ACME_${marker}` })).toEqual([archived.id, hidden.id]);
    expect(await ids({ q: `acme_${marker}`, status: 'hidden' })).toEqual([hidden.id]);
    expect(await ids({ q: 'стоматологу', status: 'hidden' })).toContain(hidden.id);
    expect(await ids({ q: 'стоматолог' })).toContain(hidden.id);
    expect(await ids({ q: hidden.id })).toEqual([hidden.id]);
    expect(await ids({ q: user.id })).toEqual([archived.id, hidden.id]);
    expect(await ids({ q: `${marker.split('').reverse().join('')}X` })).toEqual([hidden.id]);
    expect(await ids({ q: marker })).toEqual([archived.id, hidden.id]);
    for (const q of ["'; drop table projects; --", '%', '_', '\\', '!!!']) {
      expect((await call(app, 'GET', '/api/admin/projects', { token: adminToken, query: { q } })).status, q).toBe(200);
    }
  });

  it('pages by cursor, newest first, without repeats', async () => {
    const { user } = await account();
    const made: string[] = [];
    // A second apart: two inserts in the same millisecond would be ordered by their random ids.
    const start = Date.now() - 60_000;
    for (let i = 0; i < 5; i++) made.unshift((await createProject(db, user.id, { createdAt: new Date(start + i * 1000) })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { result: AdminProject[]; next: string | null } } = (await call(app, 'GET', '/api/admin/projects', {
        token: adminToken,
        query: { q: user.id, limit: '2', ...(cursor ? { cursor } : {}) },
      })) as never;
      expect(res.status).toBe(200);
      seen.push(...res.body.result.map((p) => p._id));
      cursor = res.body.next;
    } while (cursor);
    expect(seen).toEqual(made);
    expect((await call(app, 'GET', '/api/admin/projects', { token: adminToken, query: { cursor: 'zzz' } })).status).toBe(400);
  });
});

describe('PATCH /api/admin/projects/{id}', () => {
  it('hides with a reason: gone from the public, kept for the owner, audited, the owner gets a letter', async () => {
    const owner = await account();
    const project = await createProject(db, owner.user.id, { category: 'design' });

    const noReason = await decide(project.id, { status: 'hidden', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.reason).toEqual([PROJECT_MESSAGES.hideReason]);

    const res = await decide(project.id, { status: 'hidden', reason: 'Контакты в описании' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ _id: project.id, status: 'hidden', hidden_reason: 'Контакты в описании', customer_email: owner.user.email });
    expect(await row(project.id)).toMatchObject({ status: 'hidden', hiddenReason: 'Контакты в описании' });

    expect((await call(app, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    const own = await call<Project>(app, 'GET', `/api/projects/${project.id}`, { token: owner.token });
    expect(own.body.result).toMatchObject({ status: 'hidden', hidden_reason: 'Контакты в описании' });
    const listed = await call<Project[]>(app, 'GET', '/api/projects', { query: { category: 'design', limit: '60' } });
    expect(listed.body.result.map((p) => p._id)).not.toContain(project.id);

    const [entry] = await auditOf(project.id);
    expect(entry).toMatchObject({ actorId: admin.id, action: 'project.hide', details: { from: 'active', reason: 'Контакты в описании' } });

    const [letter] = await lettersTo(owner.user.email);
    expect(letter?.subject).toContain('скрыт');
    expect(letter?.text).toContain('Контакты в описании');
    // Outside production a letter links to the address the requests came to (inject's Host: localhost).
    expect(letter?.text).toContain(`http://localhost/projects/design/${project.id}`);
    expect(letter?.text).toContain(`Здравствуйте, ${owner.user.name}!`);

    // Hidden twice: nothing to do.
    const again = await decide(project.id, { status: 'hidden', reason: 'Ещё раз' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(CATALOG_MESSAGES.cannotChange);
  });

  it('restores a hidden project to active and clears the reason', async () => {
    const owner = await account();
    const project = await createProject(db, owner.user.id, { status: 'hidden', hiddenReason: 'Спам' });
    const res = await decide(project.id, { status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'active', hidden_reason: null });
    expect((await call(app, 'GET', `/api/projects/${project.id}`)).status).toBe(200);
    expect((await auditOf(project.id)).map((e) => e.action)).toEqual(['project.restore']);
    expect((await lettersTo(owner.user.email)).map((l) => l.subject)).toEqual([expect.stringContaining('снова опубликован')]);

    // Only a hidden project can be restored.
    const active = await decide(project.id, { status: 'active' });
    expect(active.status).toBe(400);
    expect(active.body.message).toBe(CATALOG_MESSAGES.cannotChange);
  });

  it('hides a project in any state; the history shows on the admin page', async () => {
    const owner = await account();
    for (const status of ['in_progress', 'closed', 'archived'] as const) {
      const project = await createProject(db, owner.user.id, { status });
      expect((await decide(project.id, { status: 'hidden', reason: 'Нарушение правил' })).status, status).toBe(200);
      const page = await call<{ project: AdminProject; audit: AuditEntry[] }>(app, 'GET', `/api/admin/projects/${project.id}`, { token: adminToken });
      expect(page.body.result.project.status).toBe('hidden');
      expect(page.body.result.audit).toEqual([
        expect.objectContaining({ actor: admin.id, action: 'project.hide', details: { from: status, reason: 'Нарушение правил' } }),
      ]);
    }
    expect((await decide('00000000-0000-4000-8000-000000000000', { status: 'hidden', reason: 'Спам' })).status).toBe(404);
  });

  it('a failing mailer does not fail the decision; the letter stays in the outbox for a retry', async () => {
    send.mockRejectedValue(new Error('smtp down'));
    const owner = await account();
    const project = await createProject(db, owner.user.id);
    const res = await decide(project.id, { status: 'hidden', reason: 'Спам' });
    expect(res.status).toBe(200);
    expect((await row(project.id)).status).toBe('hidden');
    expect(await lettersTo(owner.user.email)).toHaveLength(1);
    const kept = (await db.select().from(outbox).where(eq(outbox.kind, 'letter'))).filter((r) => (r.payload as { to: string }).to === owner.user.email);
    expect(kept).toMatchObject([{ state: 'pending', attempts: 1, lastError: expect.stringContaining('smtp down') }]);
  });

  it('a decision that fails queues no letter', async () => {
    const owner = await account();
    const project = await createProject(db, owner.user.id, { status: 'hidden', hiddenReason: 'Спам' });
    // Hiding a hidden project is refused inside the transaction.
    expect((await decide(project.id, { status: 'hidden', reason: 'Ещё раз' })).status).toBe(400);
    expect(await lettersTo(owner.user.email)).toEqual([]);
    expect((await db.select().from(outbox)).filter((r) => JSON.stringify(r.payload).includes(owner.user.email))).toEqual([]);
  });
});

describe('PUT /api/admin/projects/{id}', () => {
  it('edits a project in any state, keeps its state, audits the changed fields and tells the owner', async () => {
    const owner = await account();
    const path = `${owner.user.id}/${randomBytes(16).toString('hex')}.pdf`;
    await db.insert(files).values({ ownerId: owner.user.id, path, originalName: 'ТЗ.pdf', mime: 'application/pdf', size: 10 });
    const project = await createProject(db, owner.user.id, { status: 'in_progress', attachments: [`/uploads/${path}`] });
    const res = await call<AdminProject>(app, 'PUT', `/api/admin/projects/${project.id}`, {
      token: adminToken,
      body: input({ title: 'Исправленное модератором название', category: 'development', sub: 'website-development', budget: project.budget, days: project.days, description: project.description, attachments: [`/uploads/${path}`] }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ title: 'Исправленное модератором название', status: 'in_progress', attachments: [`/uploads/${path}`] });
    const [entry] = await auditOf(project.id);
    expect(entry).toMatchObject({ action: 'project.edit', actorId: admin.id });
    expect((entry!.details as { fields: string[] }).fields.sort()).toEqual(['subCategoryId', 'title']);
    expect((await lettersTo(owner.user.email)).map((l) => l.subject)).toEqual([expect.stringContaining('отредактирован')]);
  });

  it('attachments stay the customer’s own files (not the admin’s)', async () => {
    const owner = await account();
    const project = await createProject(db, owner.user.id);
    const path = `${admin.id}/${randomBytes(16).toString('hex')}.pdf`;
    await db.insert(files).values({ ownerId: admin.id, path, originalName: 'x.pdf', mime: 'application/pdf', size: 10 });
    const res = await call(app, 'PUT', `/api/admin/projects/${project.id}`, { token: adminToken, body: input({ attachments: [`/uploads/${path}`] }) });
    expect(res.status).toBe(400);
    expect(res.body.errors?.attachments).toEqual([PROJECT_MESSAGES.notYourFile]);
    expect(await auditOf(project.id)).toEqual([]);
    expect((await call(app, 'PUT', '/api/admin/projects/00000000-0000-4000-8000-000000000000', { token: adminToken, body: input() })).status).toBe(404);
  });
});
