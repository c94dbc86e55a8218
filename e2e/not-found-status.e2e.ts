import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from '../web/routes.ts';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { systemActor } from '../server/platform/actor.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { createUserAndToken, DESKTOP_USER_AGENT, startTestServer, type TestServer } from './fixtures.ts';

// Issue 14, ADR 038: every page whose object does not exist answers HTTP 404 with SPEC's screen, not a 200 that
// shows the screen after loading; an object the policy hides from this visitor is the same 404. The table below
// has one entry per parameterised route of web/routes.ts, walked from the route config itself: a new route with a
// parameter fails this test until it has its entry.

type Who = 'guest' | 'seller' | 'customer' | 'stranger' | 'admin';
interface Visit {
  path: string;
  as: Who;
}
interface Entry {
  /** Pages with an object that exists, and that this visitor may see: 200. */
  found: Visit[];
  /** Pages naming no object (an unknown id, a malformed one), or one this visitor may not know exists: 404. */
  missing: Visit[];
}

/** Every route's full path pattern (layouts' paths joined), from the same config React Router builds. */
function patterns(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((r) => {
    const full = r.path ? [parent, r.path].filter(Boolean).join('/') : parent;
    return [...(r.path ? [full] : []), ...patterns(r.children ?? [], full)];
  });
}

let server: TestServer;
const tokens = {} as Record<Exclude<Who, 'guest'>, string>;
let table: Record<string, Entry>;

beforeAll(async () => {
  server = await startTestServer();
  const { db } = server.server.database;
  const { services: app } = server.server.app;
  const seller = await createUserAndToken(server.server, { role: 'seller' });
  const customer = await createUserAndToken(server.server);
  const stranger = await createUserAndToken(server.server);
  const admin = await createUserAndToken(server.server, { role: 'admin' });
  Object.assign(tokens, { seller: seller.token, customer: customer.token, stranger: stranger.token, admin: admin.token });

  const service = await createService(db, seller.user.id, { category: 'design' });
  const paused = await createService(db, seller.user.id, { category: 'design', status: 'paused' });
  const project = await createProject(db, customer.user.id, { category: 'development' });
  const archived = await createProject(db, customer.user.id, { category: 'development', status: 'archived' });
  const { order } = await app.platform.withTx(systemActor('e2e'), (ctx) =>
    app.orders.open(ctx, { customerId: customer.user.id, sellerId: seller.user.id, serviceId: service.id, title: 'Логотип', price: 150_000, days: 5, revisions: 1 }),
  );
  const { payment_id: paymentId } = await app.payments.pay(customer.user, { order_id: order.id, method: 'card' });
  const post = await app.blog.create(admin.user, { title: 'Как работает безопасная сделка', description: 'Деньги ждут, пока исполнитель сдаст работу: коротко о шагах.', body: '## Шаги', cover: null });
  await app.blog.setStatus(admin.user, post._id, 'published');
  const draft = await app.blog.create(admin.user, { title: 'Черновик статьи', description: 'Черновик, который видят только администраторы.', body: 'Текст', cover: null });

  const none = randomUUID();
  table = {
    'services/:slug': { found: [{ path: '/services/design', as: 'guest' }], missing: [{ path: '/services/no-such-category', as: 'guest' }] },
    'services/:slug/:serviceId': {
      found: [
        { path: `/services/design/${service.id}`, as: 'guest' },
        { path: `/services/design/${paused.id}`, as: 'seller' },
      ],
      missing: [
        { path: `/services/design/${none}`, as: 'guest' },
        { path: '/services/design/not-an-id', as: 'guest' },
        // A paused service is its seller's and admins' only.
        { path: `/services/design/${paused.id}`, as: 'stranger' },
      ],
    },
    'projects/:slug': { found: [{ path: '/projects/development', as: 'guest' }], missing: [{ path: '/projects/no-such-category', as: 'guest' }] },
    'projects/:slug/:projectId': {
      found: [
        { path: `/projects/development/${project.id}`, as: 'guest' },
        { path: `/projects/development/${archived.id}`, as: 'customer' },
      ],
      missing: [
        { path: `/projects/development/${none}`, as: 'guest' },
        { path: `/projects/development/${archived.id}`, as: 'stranger' },
      ],
    },
    'freelancers/:slug': { found: [{ path: '/freelancers/all', as: 'guest' }], missing: [{ path: '/freelancers/no-such-category', as: 'guest' }] },
    'user/:id': {
      found: [{ path: `/user/${seller.user.id}`, as: 'guest' }],
      missing: [
        { path: `/user/${none}`, as: 'guest' },
        { path: '/user/x', as: 'guest' },
      ],
    },
    'blog/:id': {
      found: [
        { path: `/blog/${post._id}`, as: 'guest' },
        // An admin previews a draft.
        { path: `/blog/${draft._id}`, as: 'admin' },
      ],
      missing: [
        { path: `/blog/${none}`, as: 'guest' },
        { path: '/blog/x', as: 'guest' },
        { path: `/blog/${draft._id}`, as: 'guest' },
        { path: `/blog/${draft._id}`, as: 'stranger' },
      ],
    },
    'payments/:orderId': {
      found: [{ path: `/payments/${order.id}`, as: 'customer' }],
      missing: [
        { path: `/payments/${none}`, as: 'customer' },
        { path: '/payments/x', as: 'customer' },
        // The order's seller and strangers are told it does not exist (payments policy).
        { path: `/payments/${order.id}`, as: 'stranger' },
        { path: `/payments/${order.id}`, as: 'seller' },
      ],
    },
    'sandbox-pay/:paymentId': {
      found: [{ path: `/sandbox-pay/${paymentId}`, as: 'customer' }],
      missing: [
        { path: `/sandbox-pay/${none}`, as: 'customer' },
        { path: '/sandbox-pay/x', as: 'guest' },
      ],
    },
    'profile/items/:id/edit': {
      found: [
        { path: `/profile/items/${service.id}/edit`, as: 'seller' },
        { path: `/profile/items/${project.id}/edit`, as: 'customer' },
      ],
      missing: [
        { path: `/profile/items/${none}/edit`, as: 'seller' },
        { path: '/profile/items/x/edit', as: 'seller' },
        // Someone else's service or project is not theirs to edit: the same 404.
        { path: `/profile/items/${service.id}/edit`, as: 'stranger' },
        { path: `/profile/items/${project.id}/edit`, as: 'seller' },
      ],
    },
    'admin/users/:id': {
      found: [{ path: `/admin/users/${seller.user.id}`, as: 'admin' }],
      missing: [
        { path: `/admin/users/${none}`, as: 'admin' },
        { path: '/admin/users/x', as: 'admin' },
        // The admin area does not exist for anybody else.
        { path: `/admin/users/${seller.user.id}`, as: 'stranger' },
      ],
    },
    'admin/services/:id/edit': {
      found: [{ path: `/admin/services/${paused.id}/edit`, as: 'admin' }],
      missing: [
        { path: `/admin/services/${none}/edit`, as: 'admin' },
        { path: '/admin/services/x/edit', as: 'admin' },
      ],
    },
    'admin/projects/:id/edit': {
      found: [{ path: `/admin/projects/${archived.id}/edit`, as: 'admin' }],
      missing: [
        { path: `/admin/projects/${none}/edit`, as: 'admin' },
        { path: '/admin/projects/x/edit', as: 'admin' },
      ],
    },
    'admin/blog/:id/edit': {
      found: [{ path: `/admin/blog/${draft._id}/edit`, as: 'admin' }],
      missing: [
        { path: `/admin/blog/${none}/edit`, as: 'admin' },
        { path: '/admin/blog/x/edit', as: 'admin' },
      ],
    },
  };
}, 60_000);

afterAll(async () => server?.close());

async function load({ path, as }: Visit) {
  const headers: Record<string, string> = { 'user-agent': DESKTOP_USER_AGENT, accept: 'text/html' };
  if (as !== 'guest') headers.cookie = `${AUTH_TOKEN_KEY}=${encodeURIComponent(tokens[as])}`;
  // Redirects are not followed: a wrong category slug's 301 is not the page.
  const res = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
  return { status: res.status, body: await res.text() };
}

describe('HTTP status of pages with a parameter (ADR 038)', () => {
  it('has an entry for every parameterised route of web/routes.ts', () => {
    const parameterised = patterns(routes).filter((p) => p.includes(':'));
    expect(parameterised.length).toBeGreaterThan(10);
    expect(Object.keys(table).sort()).toEqual(parameterised.sort());
  });

  it('answers 200 for an object that exists and the visitor may see', async () => {
    for (const [pattern, entry] of Object.entries(table)) {
      for (const visit of entry.found) {
        const { status, body } = await load(visit);
        expect(status, `${pattern}: ${visit.path} as ${visit.as}`).toBe(200);
        expect(body, visit.path).not.toContain('Упс! Данной страницы не существует.');
      }
    }
  });

  it("answers 404 with SPEC's screen for a missing object or one the visitor may not know exists", async () => {
    for (const [pattern, entry] of Object.entries(table)) {
      expect(entry.missing.length, pattern).toBeGreaterThan(0);
      for (const visit of entry.missing) {
        const { status, body } = await load(visit);
        expect(status, `${pattern}: ${visit.path} as ${visit.as}`).toBe(404);
        expect(body, visit.path).toContain('Упс! Данной страницы не существует.');
      }
    }
  });

  it('still sends a guest to sign in first on signed-in pages (the guard wins over the lookup)', async () => {
    for (const path of [`/profile/items/${randomUUID()}/edit`, `/admin/users/${randomUUID()}`, `/payments/${randomUUID()}`]) {
      const { status } = await load({ path, as: 'guest' });
      expect(status, path).toBe(302);
    }
  });
});
