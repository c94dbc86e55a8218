import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { projects } from '../projects/schema.ts';
import { services } from './schema.ts';
import type { Project, Service, ServiceCard } from '#contract/catalog';
import { call } from '../../test/api.ts';

// L5: a page view counts once a day per visitor (a signed-in user, else an address, IPv6 by its /64), so
// reloading a page cannot move a service up the "popular" order.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const viewService = (id: string, remoteAddress: string, token?: string) =>
  call<Service>(app, 'GET', `/api/services/${id}`, { remoteAddress, token: token ?? null });
const viewProject = (id: string, remoteAddress: string, token?: string) =>
  call<Project>(app, 'GET', `/api/projects/${id}`, { remoteAddress, token: token ?? null });
const stored = async (id: string) => (await database.db.select().from(services).where(eq(services.id, id)))[0]!;

describe('service views', () => {
  it('300 GETs from one address count one view and do not lift a service up "popular"', async () => {
    const seller = await createUser(database.db, { role: 'seller' });
    const tag = `метка${randomBytes(4).toString('hex')}`;
    const leader = await createService(database.db, seller.id, { tags: [tag], popularity: 5 });
    const pushed = await createService(database.db, seller.id, { tags: [tag], popularity: 0 });

    for (let i = 0; i < 300; i++) expect((await viewService(pushed.id, '203.0.113.7')).status).toBe(200);
    await app.services.serviceCatalog.flushViews();
    expect(await stored(pushed.id)).toMatchObject({ views: 1, popularity: 1 });

    const popular = await call<ServiceCard[]>(app, 'GET', '/api/services', { query: { tag, sort: 'popular' } });
    expect(popular.body.result.map((s) => s._id)).toEqual([leader.id, pushed.id]);
  });

  it('two addresses count two views; a signed-in user counts once from any address', async () => {
    const seller = await createUser(database.db, { role: 'seller' });
    const s = await createService(database.db, seller.id);
    await viewService(s.id, '198.51.100.1');
    await viewService(s.id, '198.51.100.2');
    await viewService(s.id, '198.51.100.2');
    const viewer = await createUser(database.db);
    const token = await app.services.tokens.sign(viewer);
    for (const address of ['192.0.2.10', '192.0.2.11', '192.0.2.12']) await viewService(s.id, address, token);
    await app.services.serviceCatalog.flushViews();
    expect((await stored(s.id)).views).toBe(3);
  });

  it('the addresses of one IPv6 /64 are one visitor; another /64 is another', async () => {
    const seller = await createUser(database.db, { role: 'seller' });
    const s = await createService(database.db, seller.id);
    for (let i = 1; i <= 20; i++) await viewService(s.id, `2001:db8:1:2::${i.toString(16)}`);
    await viewService(s.id, '2001:db8:1:3::1');
    await app.services.serviceCatalog.flushViews();
    expect((await stored(s.id)).views).toBe(2);
  });

  it("the owner's views never count, and the page still shows the count not yet written", async () => {
    const seller = await createUser(database.db, { role: 'seller' });
    const token = await app.services.tokens.sign(seller);
    const s = await createService(database.db, seller.id, { views: 10 });
    expect((await viewService(s.id, '198.51.100.50')).body.result.views).toBe(11);
    expect((await viewService(s.id, '198.51.100.50')).body.result.views).toBe(11);
    expect((await viewService(s.id, '198.51.100.51', token)).body.result.views).toBe(11);
  });
});

describe('the indexes a counted view writes to', () => {
  // A view rewrites its service's row, and each GIN index queues the row's words in a pending list that every scan
  // of the index reads whole: bounded at 256 kB instead of 4 MB (ADR 028, session 53 amendment).
  it('keep the pending lists of the search and tag indexes at 256 kB', async () => {
    const { rows } = (await database.db.execute(
      sql`select relname, reloptions from pg_class where relname in ('services_search_idx', 'services_tags_idx') order by relname`,
    )) as unknown as { rows: { relname: string; reloptions: string[] | null }[] };
    expect(rows).toEqual([
      { relname: 'services_search_idx', reloptions: ['gin_pending_list_limit=256'] },
      { relname: 'services_tags_idx', reloptions: ['gin_pending_list_limit=256'] },
    ]);
  });
});

describe('project views', () => {
  it('count once a day per visitor', async () => {
    const customer = await createUser(database.db);
    const project = await createProject(database.db, customer.id);
    for (let i = 0; i < 50; i++) await viewProject(project.id, '203.0.113.8');
    expect((await viewProject(project.id, '203.0.113.9')).body.result.views).toBe(2);
    const [row] = await database.db.select({ views: projects.views }).from(projects).where(eq(projects.id, project.id));
    expect(row?.views).toBe(2);
  });
});
