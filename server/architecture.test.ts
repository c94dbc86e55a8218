import { describe, expect, test } from 'vitest';
import { endpoints } from '#contract/endpoints';
import { ROUTES, type RouteName } from '#contract/routes';
import {
  foldersOf,
  foreignTables,
  importsIntoModules,
  kindsWithoutTransport,
  readSources,
  requestUrlsInWeb,
  serverImportsInWeb,
  routesOutsideTable,
  shortestCycle,
  tablesIn,
  tangles,
  transactionsOutsidePlatform,
  undeclaredAccess,
  unhandledJobs,
  unitGraph,
  unlistedModules,
  type OwnerOf,
  type Source,
} from './architecture-checks.ts';

// The shape of docs/decisions/047 and the "How to add a module" checklist of docs/ARCHITECTURE.md, checked on
// the real tree. Each detector is first shown to catch a planted violation in a fixture. Where today's tree
// breaks a rule, the known cases are listed here: a list that may only shrink (a new case fails, and so does a
// fixed one still listed, so that it cannot come back unseen).

const server = readSources('server');
const web = readSources('web');

const src = (path: string, text: string): Source => ({ path, text });

/** Known tangles of modules that reach each other, by their members; a tangle that shrinks stays allowed. */
const KNOWN_TANGLES: Record<'server/modules' | 'web/features', string[][]> = {
  'server/modules': [],
  'web/features': [],
};

/**
 * The platform's parts that still read a module's table: the person (users) every request, policy and letter names,
 * the files a use keeps, the notices they write, the co-members presence tells. They become ports of those modules.
 */
const KNOWN_LOWER_IMPORTS = [
  'server/lib/auth.ts → server/modules/users/schema.ts',
  'server/platform/actor.ts → server/modules/users/schema.ts',
  'server/platform/audit.ts → server/modules/users/schema.ts',
  'server/platform/endpoints.ts → server/modules/users/schema.ts',
  'server/platform/files.ts → server/modules/files/schema.ts',
  'server/platform/letters/notify.ts → server/modules/users/schema.ts',
  'server/platform/notices.ts → server/modules/notifications/schema.ts',
  'server/platform/policy.ts → server/modules/users/schema.ts',
  'server/platform/schema.ts → server/modules/users/schema.ts',
  'server/platform/settings.ts → server/modules/users/schema.ts',
  'server/realtime/presence.ts → server/modules/chat/schema.ts',
  'server/realtime/presence.ts → server/modules/users/schema.ts',
];

describe('module cycles', () => {
  test('the detector reports a planted cycle as its path', () => {
    const graph = unitGraph('server/modules', [
      src('server/modules/a/index.ts', "export { b } from '../b/index.ts';"),
      src('server/modules/b/index.ts', "import type { C } from '../c/index.ts';\nexport const b = 1;"),
      src('server/modules/c/index.ts', "export type C = import('../a/index.ts');\nconst a = import('../a/index.ts');"),
      src('server/modules/d/index.ts', "import { a } from '../a/index.ts';"),
    ]);
    expect(tangles(graph)).toEqual([['a', 'b', 'c']]);
    expect(shortestCycle(graph, 'a')).toBe('a → b → c → a');
    expect(
      tangles(unitGraph('web/features', [src('web/features/x/a.tsx', "import { y } from '../y/index.ts';")])),
    ).toEqual([]);
  });

  test('a table taken from a shared schema file is a dependency on its owner; a foreign key is not', () => {
    const tables = [{ file: 'server/db/schema/money.ts', name: 'orders', sqlName: 'orders', owner: 'orders' }];
    const graph = unitGraph(
      'server/modules',
      [
        src('server/modules/orders/service.ts', "import { bidOf } from '../bids/index.ts';"),
        src('server/modules/bids/service.ts', "import { orders } from '../../db/schema/money.ts';"),
        src('server/modules/users/schema.ts', "import { files } from '../files/schema.ts';"),
        src('server/modules/files/service.ts', "import type { UserRow } from '../users/index.ts';"),
      ],
      tables,
    );
    expect(tangles(graph)).toEqual([['bids', 'orders']]);
  });

  for (const root of ['server/modules', 'web/features'] as const) {
    test(`${root}: no cycle between modules, but the known ones`, () => {
      const graph =
        root === 'server/modules' ? unitGraph(root, server, tablesIn(server, ownerOf)) : unitGraph(root, web);
      const found = tangles(graph);
      const known = KNOWN_TANGLES[root];
      const within = (group: string[], of: string[]) => group.every((m) => of.includes(m));
      const report = (group: string[]) => `${group.join(', ')}: ${shortestCycle(graph, group[0]!)}`;
      console.info(`${root}: ${found.length} module tangle(s) known\n  ${found.map(report).join('\n  ')}`);
      const fresh = found.filter((group) => !known.some((k) => within(group, k)));
      expect(fresh.map(report), 'new module cycles').toEqual([]);
      const gone = known.filter((k) => !found.some((group) => group.some((m) => k.includes(m))));
      expect(gone, `no longer tangled: remove from KNOWN_TANGLES['${root}']`).toEqual([]);
    });
  }

  test('the detector finds a module folder missing from the list of modules, and a misnamed manifest', () => {
    const fixture = [
      src(
        'server/modules/index.ts',
        "import { aModule } from './a/index.ts';\nimport { bModule } from './b/index.ts';\n" +
          'export const MODULES: readonly ServerModule[] = [\n  aModule,\n];',
      ),
      src('server/modules/a/module.ts', "export const aModule = defineModule({\n  name: 'a',\n});"),
      src('server/modules/b/module.ts', "export const bModule = defineModule({ name: 'bee' });"),
    ];
    expect(unlistedModules(fixture, ['a', 'b', 'c'])).toEqual([
      'b: not in MODULES (server/modules/index.ts)',
      'c: not in MODULES (server/modules/index.ts)',
      "b: no defineModule({ name: 'b', … }) in its module.ts",
      "c: no defineModule({ name: 'c', … }) in its module.ts",
    ]);
  });

  test('every server module is in the list app.ts mounts, its manifest named as its folder', () => {
    expect(unlistedModules(server, foldersOf('server/modules'))).toEqual([]);
  });

  test('the detector finds a module imported by the platform, a feature by the shared web parts', () => {
    const fixture = [
      src('server/platform/actor.ts', "import type { UserRow } from '../modules/users/schema.ts';"),
      src('server/realtime/socket.ts', "import { chatOf } from '../modules/chat/index.ts';"),
      src('server/app.ts', "import { MODULES } from './modules/index.ts';"),
      src('web/components/ui/modal.tsx', "import { useShell } from '../../lib/shell.ts';"),
      src('web/lib/session.ts', "\nimport { loginPath } from '../features/auth/index.ts';"),
      src('web/routes/home.tsx', "import { HomeHero } from '../features/home/index.ts';"),
    ];
    expect(importsIntoModules(fixture)).toEqual([
      'server/platform/actor.ts:1 → server/modules/users/schema.ts',
      'server/realtime/socket.ts:1 → server/modules/chat/index.ts',
      'web/lib/session.ts:2 → web/features/auth/index.ts',
    ]);
  });

  test('the platform, server/lib and realtime import no module; web/lib and web/components no feature', () => {
    const found = [...new Set(importsIntoModules([...server, ...web]).map((edge) => edge.replace(/:\d+ → /, ' → ')))].sort();
    console.info(`lower layers: ${found.length} known import(s) of a module's table\n  ${found.join('\n  ')}`);
    expect(found.filter((edge) => !KNOWN_LOWER_IMPORTS.includes(edge)), 'new imports into a module').toEqual([]);
    expect(KNOWN_LOWER_IMPORTS.filter((edge) => !found.includes(edge)), 'gone: remove from KNOWN_LOWER_IMPORTS').toEqual([]);
  });

  test('the web app imports nothing of the server: a page rendered in a thread reads through its load context', () => {
    const fixture = [
      src('web/routes/a.tsx', "import { db } from '../../server/db/client.ts';\nimport { MESSAGES } from '#contract/messages';"),
      src('web/lib/b.ts', "import { x } from './c.ts';"),
    ];
    expect(serverImportsInWeb(fixture)).toEqual(['web/routes/a.tsx:1 → server/db/client.ts']);
    expect(serverImportsInWeb(web)).toEqual([]);
  });

  test("a loader reads its page's address from `url`, never from the request (ADR 086)", () => {
    const fixture = [
      src('web/routes/a.tsx', 'export function loader({ request }) {\n  return new URL(request.url).search;\n}'),
      src('web/routes/b.tsx', 'export function loader({ url }) {\n  return url.search;\n}'),
      src('web/entry.server.tsx', '<ServerRouter url={request.url} />'),
    ];
    expect(requestUrlsInWeb(fixture)).toEqual(['web/routes/a.tsx:2']);
    expect(requestUrlsInWeb(web)).toEqual([]);
  });

  test('every module and feature folder has its face, index.ts', () => {
    const files = new Set([...server, ...web].map((s) => s.path));
    const faceless = [
      ...foldersOf('server/modules').map((m) => `server/modules/${m}/index.ts`),
      ...foldersOf('web/features').map((f) => `web/features/${f}/index.ts`),
    ].filter((face) => !files.has(face));
    expect(faceless).toEqual([]);
  });
});

/** Every table is in its module's schema.ts or the platform's (ADR 047): no shared schema file is left to map. */
const ownerOf: OwnerOf = () => undefined;

describe('foreign tables', () => {
  test('the detector finds a table taken from another module, today and in the target shape', () => {
    const fixture = [
      src(
        'server/db/schema/money.ts',
        "export const orders = pgTable(\n  'orders',\n  {});\nexport const bids = pgTable('bids', {});",
      ),
      src('server/modules/bids/service.ts', "import { bids, orders, type OrderRow } from '../../db/schema/money.ts';"),
      src('server/modules/users/schema.ts', "export const users = pgTable('users', {});"),
      src('server/modules/users/index.ts', "export { users } from './schema.ts';"),
      src(
        'server/modules/chat/schema.ts',
        "import { users } from '../users/schema.ts';\nexport const chats = pgTable('chats', {});",
      ),
      src(
        'server/modules/chat/service.ts',
        "import { chats } from './schema.ts';\nimport { users } from '../users/index.ts';",
      ),
      src('server/modules/orders/queries.ts', "import {\n  users,\n  type UserRow,\n} from '../users/schema.ts';"),
      src(
        'server/modules/dashboard/queries.ts',
        'const rows = sql<{ n: number }>`select count(*) from bids b\n join "chats" c on c.id = b.chat_id`;',
      ),
      src('server/platform/schema.ts', "export const settings = pgTable('settings', {});"),
      src('server/modules/rates/service.ts', "import { settings } from '../../platform/schema.ts';"),
    ];
    const owners: OwnerOf = (file, table) =>
      file === 'server/db/schema/money.ts' ? { orders: 'orders', bids: 'bids' }[table] : undefined;
    expect(foreignTables(fixture, owners)).toEqual([
      'bids → orders (orders)',
      'chat → users (users)',
      'dashboard → "bids" (bids)',
      'dashboard → "chats" (chat)',
      'orders → users (users)',
      'rates → settings (platform)',
    ]);
  });

  test('every table of server/db/schema has an owner', () => {
    const unowned = tablesIn(server, ownerOf)
      .filter((t) => !t.owner)
      .map((t) => `${t.file}: ${t.name}`);
    expect(unowned, 'add them to SCHEMA_OWNERS').toEqual([]);
  });

  test('no module takes another module’s tables: it joins their read models and calls their ports (ADR 049)', () => {
    expect(foreignTables(server, ownerOf), 'module → table (owner)').toEqual([]);
  });
});

describe('transactions', () => {
  test('the detector finds a transaction opened outside the platform', () => {
    const fixture = [
      src('server/platform/tx.ts', 'await deps.db.transaction(async (tx) => {});'),
      src('server/db/seed/reference.ts', 'await db.transaction(async (tx) => {});'),
      src('server/modules/orders/commands/open.ts', 'const x = 1;\nreturn this.db.transaction(async (tx) => {});'),
    ];
    expect(transactionsOutsidePlatform(fixture)).toEqual(['server/modules/orders/commands/open.ts:2']);
  });

  test('transactions are opened by the platform (withTx), none by a module', () => {
    expect(transactionsOutsidePlatform(server), 'use platform.withTx').toEqual([]);
  });
});

describe('outbox jobs', () => {
  test('the detector finds a job written with no handler', () => {
    const fixture = [
      src(
        'server/modules/a/jobs.ts',
        "export const A_JOB = 'a.run';\nexport const B_JOB = 'b.run';\nexport const C_JOB = 'c.run';",
      ),
      src(
        'server/modules/a/run.ts',
        'ctx.outbox.job(A_JOB, {});\noutbox.job(\n  B_JOB,\n  {},\n);\n' +
          "ctx.outbox.job(C_JOB);\nctx.outbox.job('d.run');",
      ),
      src(
        'server/modules/a/index.ts',
        'dispatcher.handle<{ id: string }>(A_JOB, () => {});\nconst jobs = { [C_JOB]: () => {} };',
      ),
      src(
        'server/server.ts',
        "dispatcher.every('d.run', 1000, () => {});\n" +
          'await dispatcher.trigger(E_JOB);\nawait dispatcher.trigger(F_JOB);',
      ),
      src(
        'server/modules/e/module.ts',
        "const E_JOB = 'e.refresh';\n" +
          'export const eModule = defineModule({ recurring: [{ job: E_JOB, everyMs: 1, run }] });',
      ),
    ];
    expect(unhandledJobs(fixture)).toEqual(['B_JOB (server/modules/a/run.ts:2)', 'F_JOB (server/server.ts:3)']);
  });

  test('every job written to the outbox has a handler', () => {
    expect(unhandledJobs(server)).toEqual([]);
  });

  test('the detector finds an outbox kind the dispatcher cannot deliver', () => {
    const fixture = [
      src('server/db/schema/outbox.ts', "export const OUTBOX_KINDS = ['socket', 'letter', 'job', 'push'] as const;"),
      src(
        'server/platform/dispatcher.ts',
        "export class Dispatcher {\n  switch (row.kind) { case 'socket': case 'letter': case 'job': }",
      ),
    ];
    expect(kindsWithoutTransport(fixture)).toEqual(['push']);
  });

  test('every outbox kind has its transport in the dispatcher', () => {
    expect(kindsWithoutTransport(server)).toEqual([]);
  });
});

/** API paths served around the endpoint table, each public by design. */
const ROUTES_OUTSIDE_TABLE = [
  '/api/* (server/app.ts)', // the JSON 404 of an unknown API path
  '/api/docs/json (server/modules/docs/routes.ts)', // the OpenAPI document (public, ADR 015)
  '/api/docs (server/modules/docs/routes.ts)', // its viewer
];

describe('endpoint guards', () => {
  test('the detector finds an unguarded endpoint, an admin endpoint open to others, a route around the table', () => {
    const fixture = [
      { name: 'a.list', route: 'GET /api/a', access: 'public' },
      { name: 'a.create', route: 'POST /api/a', access: undefined },
      { name: 'admin.a.list', route: 'GET /api/admin/a', access: 'user' },
      { name: 'admin.root', route: 'GET /api/admin', access: 'confirmed' },
      { name: 'adminish', route: 'GET /api/administrators', access: 'public' },
      { name: 'a.remove', route: 'DELETE /api/a/:id', access: 'owner' },
    ];
    expect(undeclaredAccess(fixture)).toEqual([
      'a.create (POST /api/a): no access declared',
      "admin.a.list (GET /api/admin/a): in the admin area with access 'user'",
      "admin.root (GET /api/admin): in the admin area with access 'confirmed'",
      'a.remove (DELETE /api/a/:id): no access declared',
    ]);
    const direct = src(
      'server/modules/x/routes.ts',
      "app.get('/sitemap.xml', h);\napp.post('/api/x', h);\napp.route({ method: 'GET', url: '/api/y' });",
    );
    expect(routesOutsideTable([direct])).toEqual([
      '/api/x (server/modules/x/routes.ts:2)',
      '/api/y (server/modules/x/routes.ts:3)',
    ]);
  });

  test('every endpoint declares its guard, and every /api/admin endpoint is for admins', () => {
    const declared = (Object.keys(ROUTES) as RouteName[]).map((name) => ({
      name,
      route: ROUTES[name],
      access: (endpoints as Record<string, { access?: unknown } | undefined>)[name]?.access,
    }));
    expect(declared.length).toBeGreaterThan(100);
    expect(undeclaredAccess(declared)).toEqual([]);
  });

  test('no API route is registered around the endpoint table, but the public ones listed', () => {
    const found = routesOutsideTable(server).map((route) => route.replace(/:\d+\)$/, ')'));
    expect(found.sort()).toEqual([...ROUTES_OUTSIDE_TABLE].sort());
  });
});
