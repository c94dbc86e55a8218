import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser, type UserOverrides } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { CATALOG_MESSAGES, FREELANCER_SORTS, PROJECT_SORTS, SERVICE_SORTS } from '#contract/catalog';
import { call } from '../../test/api.ts';
import { INT4, encodeCursor, fits, type CursorKind, type CursorSpec, type SortKey } from './listing.ts';
import { FREELANCER_SORT_KEYS } from '../../modules/people/service.ts';
import { PROJECT_SORT_KEYS } from '../../modules/projects/service.ts';
import { adminSortPlan, sortPlan } from '../../modules/services/queries/listing-plan.ts';

// Every number a catalogue request carries has a range: a value out of it is a 400 naming the field (or the
// cursor), never a 500 from PostgreSQL (issue 9, M1 and "every number has a range").

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let admin: string;
let seller: string;
let customer: string;
let serviceId: string;
let projectId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  const token = async (overrides: UserOverrides) => app.services.tokens.sign(await createUser(database.db, overrides));
  admin = await token({ role: 'admin' });
  const sellerUser = await createUser(database.db, { role: 'seller' });
  seller = await app.services.tokens.sign(sellerUser);
  const customerUser = await createUser(database.db, { role: 'customer' });
  customer = await app.services.tokens.sign(customerUser);
  serviceId = (await createService(database.db, sellerUser.id, { title: 'Нарисую логотип для кафе' })).id;
  projectId = (await createProject(database.db, customerUser.id)).id;
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

// --- Cursors ----------------------------------------------------------------------------------------------

/** A cursor from raw JSON texts, so that values JSON.stringify cannot write (1e999, 2^53 + 1) can be sent. */
const rawCursor = (parts: string[]) => Buffer.from(`[${parts.join(',')}]`, 'utf8').toString('base64url');

/** A value every position of its kind accepts. */
const VALID: Record<CursorKind, string> = {
  int4: '1',
  int8: '1',
  real: '1.5',
  numeric: '1.5',
  uuid: '"00000000-0000-4000-8000-000000000000"',
  timestamptz: '"2026-01-01T00:00:00.000000Z"',
  text: '"x"',
};

/** Values no position of the kind may hold: out of range, huge negative, fractional, NaN-like, too precise. */
const INVALID: Record<CursorKind, string[]> = {
  int4: [
    String(INT4.max + 1),
    String(INT4.min - 1),
    String(2 ** 53),
    String(-(2 ** 53)),
    '9007199254740993',
    '-1e30',
    '1.5',
    '2147483646.5',
    '1e-7',
    '1e999',
    '-1e999',
    '"NaN"',
    '"Infinity"',
    '"1"',
    'true',
    '{}',
    '[1]',
  ],
  int8: ['9007199254740992', '-9007199254740993', '1.5', '1e999', '"NaN"', '"1"'],
  real: ['3.5e38', '-3.5e38', '1e-50', '1e999', '"NaN"', '"1.5"'],
  numeric: ['1e999', '-1e999', '"NaN"', '"1.5"', 'true'],
  uuid: ['"not-a-uuid"', '"00000000-0000-4000-8000-00000000000"', '"00000000-0000-4000-8000-000000000000\\u0000"', '1', '2147483648', 'null'],
  timestamptz: [
    '"2026-02-30T00:00:00Z"',
    '"0000-01-01T00:00:00Z"',
    '"2026-01-01T00:00:00.1234567Z"',
    '"2026-01-01"',
    '"2026-01-01T00:00:00+03:00"',
    String(2 ** 31),
    '1e999',
    'null',
  ],
  text: ['"\\u0000"', '"\\ud800"', `"${'x'.repeat(101)}"`, '1', 'null'],
};

const baseKind = (spec: CursorSpec) => spec.replace('?', '') as CursorKind;
/** The invalid values of a position: null is valid where the kind allows it. */
const invalidFor = (spec: CursorSpec) => INVALID[baseKind(spec)].filter((v) => !(v === 'null' && spec.endsWith('?')));

interface Listing {
  name: string;
  url: string;
  /** The cursor's first value: the sort it was made for. */
  tag: string;
  keys: readonly SortKey[];
  query?: Record<string, string>;
  token?: () => string;
}

const listings: Listing[] = [
  ...SERVICE_SORTS.map((sort) => ({ name: `services ${sort}`, url: '/api/services', tag: sort, keys: sortPlan(sort, null).keys, query: { sort } })),
  // A search with the default sort whose cursor says it was ranked.
  { name: 'services relevance', url: '/api/services', tag: 'relevance', keys: sortPlan('relevance', 'логотип').keys, query: { q: 'логотип' } },
  ...PROJECT_SORTS.map((sort) => ({ name: `projects ${sort}`, url: '/api/projects', tag: sort, keys: PROJECT_SORT_KEYS[sort], query: { sort } })),
  { name: 'my projects', url: '/api/projects/my', tag: 'new', keys: PROJECT_SORT_KEYS.new, token: () => customer },
  ...FREELANCER_SORTS.map((sort) => ({ name: `freelancers ${sort}`, url: '/api/freelancers', tag: sort, keys: FREELANCER_SORT_KEYS[sort], query: { sort } })),
  { name: 'admin services queue', url: '/api/admin/services', tag: 'queue', keys: adminSortPlan(true).keys, query: { status: 'moderation' }, token: () => admin },
  { name: 'admin services', url: '/api/admin/services', tag: 'recent', keys: adminSortPlan(false).keys, token: () => admin },
  { name: 'admin projects', url: '/api/admin/projects', tag: 'new', keys: PROJECT_SORT_KEYS.new, token: () => admin },
];

const page = (listing: Listing, cursor: string) =>
  call(app, 'GET', listing.url, { query: { ...listing.query, cursor }, token: listing.token?.() ?? null });

describe('cursor kinds', () => {
  it('int4 is the range of a PostgreSQL integer, exactly', () => {
    expect(fits(INT4.max, 'int4')).toBe(true);
    expect(fits(INT4.min, 'int4')).toBe(true);
    expect(fits(INT4.max + 1, 'int4')).toBe(false);
    expect(fits(INT4.min - 1, 'int4')).toBe(false);
    expect(fits(null, 'int4')).toBe(false);
    expect(fits(null, 'int4?')).toBe(true);
    expect(fits(Number.MAX_SAFE_INTEGER, 'int8')).toBe(true);
    expect(fits(2 ** 53, 'int8')).toBe(false);
    expect(fits(3.4e38, 'real')).toBe(true);
    expect(fits(0, 'real')).toBe(true);
  });

  it('the cursors of every listing below are generated from every sort', () => {
    const named = new Set(listings.map((l) => l.name));
    for (const sort of [...SERVICE_SORTS, 'relevance']) expect(named).toContain(`services ${sort}`);
    for (const sort of PROJECT_SORTS) expect(named).toContain(`projects ${sort}`);
    for (const sort of FREELANCER_SORTS) expect(named).toContain(`freelancers ${sort}`);
  });
});

describe.each(listings)('$name: a cursor position out of its range is a 400 badCursor, never a 500', (listing) => {
  const valid = ['"' + listing.tag + '"', ...listing.keys.map((k) => VALID[baseKind(k.kind)])];

  it('a valid cursor reads a page', async () => {
    const res = await page(listing, rawCursor(valid));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  const integerPositions = listing.keys.flatMap((k, i) => (baseKind(k.kind) === 'int4' ? [i] : []));
  if (integerPositions.length > 0) {
    it('the edges of int4 are read, not refused', async () => {
      for (const i of integerPositions) {
        for (const edge of [INT4.max, INT4.min]) {
          const parts = [...valid];
          parts[i + 1] = String(edge);
          const res = await page(listing, rawCursor(parts));
          expect(res.status, `${edge} at ${i}: ${JSON.stringify(res.body)}`).toBe(200);
        }
      }
    });
  }

  it.each(listing.keys.map((key, i) => ({ i, position: i + 1, kind: key.kind })))('position $position ($kind)', async ({ i, kind }) => {
    for (const bad of invalidFor(kind)) {
      const parts = [...valid];
      parts[i + 1] = bad;
      const res = await page(listing, rawCursor(parts));
      expect(res.status, `${bad}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.errors).toEqual({ cursor: [CATALOG_MESSAGES.badCursor] });
    }
  });

  it('a cursor of another sort, of another length or with a bad tag is refused', async () => {
    for (const cursor of [
      rawCursor(['"другая"', ...valid.slice(1)]),
      rawCursor(valid.slice(0, -1)),
      rawCursor([...valid, '1']),
      rawCursor(['"\\u0000"', ...valid.slice(1)]),
      encodeCursor([]),
    ]) {
      const res = await page(listing, cursor);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ cursor: [CATALOG_MESSAGES.badCursor] });
    }
  });
});

// --- Numbers in queries and bodies --------------------------------------------------------------------------

/** The integers the probe sent: beyond int4 both ways, and beyond what a double holds exactly. */
const HUGE = [2 ** 31, 2 ** 53, -(2 ** 31) - 1];

const serviceBody = () => ({
  title: 'Нарисую логотип для вашей компании',
  description: 'Разработаю уникальный логотип: три варианта на выбор, правки до утверждения и исходники в векторе.',
  category: 'design',
  sub: 'logo-design',
  price: 300_000,
  days: 5,
  revisions: 2,
  packages: [{ kind: 'economy', price: 300_000, days: 5, revisions: 1, description: 'Один вариант логотипа' }],
  extras: [{ title: 'Срочно за сутки', price: 100_000, days: 1 }],
});
const projectBody = () => ({
  title: 'Нужен логотип для сети кофеен',
  description: 'Ищем дизайнера: логотип, фирменные цвета и вывеска для трёх кофеен в центре города.',
  category: 'design',
  budget: 1_000_000,
  days: 10,
});

/** Sets the value at a dotted path of a copy of `body` ('packages.0.price'). */
function withValue(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) at = at[part] as Record<string, unknown>;
  at[parts.at(-1)!] = value;
  return copy;
}

interface Position {
  name: string;
  method: InjectOptions['method'];
  url: () => string;
  token?: () => string;
  /** A query parameter, or a body field as a dotted path. */
  query?: string;
  field?: string;
  body?: () => Record<string, unknown>;
}

const SERVICE_FIELDS = ['price', 'days', 'revisions', 'packages.0.price', 'packages.0.days', 'packages.0.revisions', 'extras.0.price', 'extras.0.days'];
const PROJECT_FIELDS = ['budget', 'days'];

const positions: Position[] = [
  ...['price_min', 'price_max', 'days_max', 'limit'].map((query): Position => ({ name: 'GET /api/services', method: 'GET' as const, url: () => '/api/services', query })),
  ...['budget_min', 'budget_max', 'limit'].map((query): Position => ({ name: 'GET /api/projects', method: 'GET' as const, url: () => '/api/projects', query })),
  { name: 'GET /api/projects/my', method: 'GET', url: () => '/api/projects/my', token: () => customer, query: 'limit' },
  { name: 'GET /api/freelancers', method: 'GET', url: () => '/api/freelancers', query: 'limit' },
  { name: 'GET /api/admin/services', method: 'GET', url: () => '/api/admin/services', token: () => admin, query: 'limit' },
  { name: 'GET /api/admin/projects', method: 'GET', url: () => '/api/admin/projects', token: () => admin, query: 'limit' },
  ...['page', 'limit'].map((query): Position => ({ name: 'GET /api/admin/users', method: 'GET' as const, url: () => '/api/admin/users', token: () => admin, query })),
  ...SERVICE_FIELDS.flatMap((field): Position[] => [
    { name: 'POST /api/services', method: 'POST' as const, url: () => '/api/services', token: () => seller, field, body: serviceBody },
    { name: 'PUT /api/services/{id}', method: 'PUT' as const, url: () => `/api/services/${serviceId}`, token: () => seller, field, body: serviceBody },
    { name: 'PUT /api/admin/services/{id}', method: 'PUT' as const, url: () => `/api/admin/services/${serviceId}`, token: () => admin, field, body: serviceBody },
  ]),
  ...PROJECT_FIELDS.flatMap((field): Position[] => [
    { name: 'POST /api/projects', method: 'POST' as const, url: () => '/api/projects', token: () => customer, field, body: projectBody },
    { name: 'PUT /api/projects/{id}', method: 'PUT' as const, url: () => `/api/projects/${projectId}`, token: () => customer, field, body: projectBody },
    { name: 'PUT /api/admin/projects/{id}', method: 'PUT' as const, url: () => `/api/admin/projects/${projectId}`, token: () => admin, field, body: projectBody },
  ]),
  // Favourites carry no number: one sent where an id goes is refused all the same.
  { name: 'POST /api/favorites/toggle', method: 'POST', url: () => '/api/favorites/toggle', token: () => customer, field: 'id', body: () => ({ id: projectId, type: 'project' }) },
  {
    name: 'POST /api/favorites/sync',
    method: 'POST',
    url: () => '/api/favorites/sync',
    token: () => customer,
    field: 'items.0.id',
    body: () => ({ items: [{ id: projectId, type: 'project' }] }),
  },
];

const send = (p: Position, value: unknown) =>
  call(app, p.method, p.url(), {
    token: p.token?.() ?? null,
    ...(p.query ? { query: { [p.query]: String(value) } } : {}),
    ...(p.field ? { body: withValue(p.body!(), p.field, value) } : {}),
  });

describe('every number has a range: 2^31, 2^53 and -2^31-1 are a 400 naming the field, in Russian', () => {
  it('the unchanged requests pass (so the 400s below are the numbers)', async () => {
    for (const p of positions) {
      if (!p.field) continue;
      const res = await call(app, p.method, p.url(), { token: p.token?.() ?? null, body: p.body!() });
      expect(res.status, `${p.name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it.each(positions.map((p) => ({ ...p, where: p.query ?? p.field })))('$name $where', async (p) => {
    for (const value of HUGE) {
      const res = await send(p, value);
      expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(400);
      const messages = res.body.errors?.[p.where!];
      expect(messages, JSON.stringify(res.body)).toBeDefined();
      for (const message of messages!) expect(message).toMatch(/[а-яё]/i);
    }
  });
});
