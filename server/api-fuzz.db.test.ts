/**
 * API fuzz suite (issue 9, "Proof"; docs/decisions/012-api-fuzzing.md).
 *
 * Walks every endpoint of ROUTES (contract/routes.ts), with the schemas of the contract's table
 * (contract/endpoints.ts) where the endpoint is in it and those of the app's OpenAPI document otherwise; Fastify's
 * route list makes sure nothing escapes (a registered route outside ROUTES must be listed in NOT_IN_ROUTES). To each
 * one it sends, as a guest, a signed-in member who owns data and an admin:
 * - fixed lists of hostile input: out-of-range integers (cursors included), lone surrogates and NUL, wrong types,
 *   missing and extra fields, long strings, empty and malformed bodies, wrong content types, 10 000-deep JSON,
 *   bodies over the 1 MB limit, broken and oversized multipart, hostile path parameters;
 * - schema-valid requests drawn by fast-check (FUZZ_RUNS per operation, taking turns between the actors);
 * - FUZZ_BAD generated bad requests per endpoint (server/test/fuzz/generated.ts): the valid request with one to
 *   three parts made bad, aimed at the schemas, sent as the owner (the admin on the admin API).
 * Asserts: no answer >= 500, no request hanging, no row or stored file changed by a request answered 4xx (reads
 * too), a Russian `message` in every 4xx of an endpoint, and no 2xx for a generated request the contract refuses.
 * The harness is in server/test/fuzz/.
 *
 *   npx vitest run server/api-fuzz.db.test.ts           default: fixed seed, 6 schema-valid draws per operation
 *                                                       and 100 generated bad requests per endpoint (200 took
 *                                                       up to 600 s on a loaded 2-core machine)
 *   FUZZ_RUNS=2000 FUZZ_BAD=5000 npx vitest run server/api-fuzz.db.test.ts
 *                                                       long run: 2000 draws and 5000 bad requests per endpoint,
 *                                                       every hostile value at every position as every actor
 *   FUZZ_SEED=123 …        another seed             FUZZ_ONLY="services." …   only operations matching (name or path)
 *   FUZZ_REPORT=/tmp/fuzz.json …                    failures and statistics as JSON too
 * KNOWN_DEFECTS is checked for staleness only in a run of every operation with the default seed.
 */
import { writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeProbe, createWorld, type World } from './test/fuzz/world.ts';
import { users } from './modules/users/schema.ts';
import { favorites } from './modules/favorites/schema.ts';
import { operationsOf, routeKey, routeOperations, undocumentedOperations, type OpenApiDocument, type Operation } from './test/fuzz/operations.ts';
import type { RouteName } from '#contract/routes';
import { runFuzz, type Failure } from './test/fuzz/run.ts';
import { failureTable, groupFailures } from './test/fuzz/report.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
/** Generated bad requests per endpoint of ROUTES (server/test/fuzz/generated.ts). */
const BAD = Number(process.env.FUZZ_BAD ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 9_2026);
const LONG_RUN = process.env.FUZZ_RUNS !== undefined;
const ONLY = process.env.FUZZ_ONLY;

/** API routes deliberately left out of the OpenAPI document (they are fuzzed by path all the same). */
const HIDDEN_ROUTES = ['GET /api/docs', 'GET /api/docs/json', 'GET /api/*', 'GET /api/payments/sandbox-payouts/widget.js'];

/**
 * Failures of today's code the suite knows about, each a finding with a rule that recognises its failures. The suite
 * passes while every failure is recognised by one of these; an entry that recognises nothing in a run of every
 * operation with the default seed fails the suite, so remove it when its fix lands. Grouped by `endpoint · input
 * class · kind` in the report.
 */
const KNOWN_DEFECTS: KnownDefect[] = [
];

interface KnownDefect {
  id: string;
  note: string;
  matches(f: Failure): boolean;
}

/**
 * Tables an operation may write to although it answers 4xx, by "METHOD path" (say, a record of failed login
 * attempts). Empty: today no refused request writes anything.
 */
const ALLOWED_WRITES_ON_4XX: Record<string, string[]> = {};

/**
 * Routes the app registers outside ROUTES, which are no endpoint of the API: they are fuzzed by path with the fixed
 * lists all the same (no generated requests).
 */
const NOT_IN_ROUTES: Record<string, string> = {
  'GET /api/docs': 'the OpenAPI viewer (server/modules/docs), a page for people',
  'GET /api/docs/json': 'the OpenAPI document itself',
  'GET /api/*': 'the catch-all 404 of unknown API paths',
  'GET /sitemap.xml': 'for search engines (server/modules/seo)',
  'GET /sitemaps/:part': 'for search engines (server/modules/seo)',
  'GET /robots.txt': 'for search engines (server/modules/seo)',
  'GET /api/payments/sandbox-payouts/widget.js': "the sandbox's stand-in for ЮKassa's payout widget, a script (ADR 050)",
};

let world: World;
let ops: Operation[];
/** Names of ROUTES no registered route answers. */
let unregistered: RouteName[];
/** Registered routes outside ROUTES. */
let outside: Operation[];

beforeAll(async () => {
  world = await createWorld();
  const doc = world.app.swagger() as unknown as OpenApiDocument;
  const routed = routeOperations([...operationsOf(doc, world.routes), ...undocumentedOperations(doc, world.routes)]);
  unregistered = routed.missing;
  outside = routed.outside;
  ops = [...routed.ops, ...routed.outside];
  if (ONLY) ops = ops.filter((op) => `${op.name ?? ''} ${op.method} ${op.path}`.includes(ONLY));
}, 120_000);

afterAll(async () => {
  await world?.close();
});

describe('API fuzz', () => {
  it('walks every endpoint of ROUTES, and every other registered route is listed in NOT_IN_ROUTES', () => {
    expect(unregistered, `endpoints of ROUTES that no registered route answers: ${unregistered.join(', ')}`).toEqual([]);
    const unlisted = outside.map((op) => routeKey(op.method, op.path)).filter((key) => !(key in NOT_IN_ROUTES));
    expect(unlisted, `registered routes outside ROUTES (add them to ROUTES, or to NOT_IN_ROUTES with the reason): ${unlisted.join(', ')}`).toEqual([]);
    const stale = Object.keys(NOT_IN_ROUTES).filter((key) => !outside.some((op) => routeKey(op.method, op.path) === key));
    expect(stale, 'NOT_IN_ROUTES entries that are no longer registered outside ROUTES').toEqual([]);
  });

  it('covers every route: each /api route is in the OpenAPI document or explicitly hidden', () => {
    const doc = world.app.swagger() as unknown as OpenApiDocument;
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => routeKey(m, path))));
    const apiRoutes = world.routes.filter((r) => r.url.startsWith('/api'));
    expect(apiRoutes.length).toBeGreaterThan(50);
    const missing = apiRoutes.map((r) => routeKey(r.method, r.url)).filter((key) => !documented.has(key) && !HIDDEN_ROUTES.includes(key));
    expect(missing, 'routes missing from the OpenAPI document (document them, or list them in HIDDEN_ROUTES)').toEqual([]);
    // Every documented operation is a real route, and each one gets fuzzed.
    const registered = new Set(world.routes.map((r) => routeKey(r.method, r.url)));
    expect([...documented].filter((key) => !registered.has(key))).toEqual([]);
    const fuzzed = new Set(ops.map((op) => routeKey(op.method, op.path)));
    if (!ONLY) expect([...registered].filter((key) => !fuzzed.has(key))).toEqual([]);
  });

  it('sees a write: an insert, an update, a stored file; not a rolled-back transaction', async () => {
    const probe = changeProbe(world);
    const { db } = world.database;
    let from = await probe.start();
    expect(await probe.changes(from)).toEqual([]);
    await db.update(users).set({ about: 'изменено' }).where(eq(users.id, world.ids.member));
    // An update: the same number of rows, another checksum.
    expect(await probe.changes(from)).toEqual([expect.stringMatching(/^users (\d+)→\1 rows$/)]);
    from = await probe.start();
    await db.insert(favorites).values({ userId: world.ids.member, type: 'service', itemId: world.ids.peerService });
    const [inserted] = await probe.changes(from);
    const [, was, now] = /^favorites (\d+)→(\d+) rows$/.exec(inserted ?? '') ?? [];
    expect(Number(now) - Number(was), inserted).toBe(1);
    from = await probe.start();
    await db.transaction(async (tx) => {
      await tx.delete(favorites);
      tx.rollback();
    }).catch(() => {});
    expect(await probe.changes(from)).toEqual([]);
    await db.delete(favorites);
    from = await probe.start();
    await writeFile(path.join(world.dataDir, 'uploads', 'stray.bin'), 'x');
    expect(await probe.changes(from)).toEqual([`uploads ${from.files}→${from.files! + 1} files`]);
    await rm(path.join(world.dataDir, 'uploads', 'stray.bin'));
  });

  it('answers hostile input with no 5xx, no hang and no write on a 4xx (beyond KNOWN_DEFECTS)', async () => {
    const { failures, stats } = await runFuzz(world, ops, {
      runs: RUNS,
      bad: BAD,
      seed: SEED,
      exhaustive: LONG_RUN,
      timeoutMs: 10_000,
      allowedWrites: ALLOWED_WRITES_ON_4XX,
    });

    const knownBy = new Map<string, Failure[]>(KNOWN_DEFECTS.map((d) => [d.id, []]));
    const unexpectedFailures: Failure[] = [];
    for (const f of failures) {
      const defect = KNOWN_DEFECTS.find((d) => d.matches(f));
      if (defect) knownBy.get(defect.id)!.push(f);
      else unexpectedFailures.push(f);
    }
    const unexpected = groupFailures(unexpectedFailures);
    const stale = process.env.FUZZ_SEED || ONLY ? [] : KNOWN_DEFECTS.filter((d) => !knownBy.get(d.id)!.length).map((d) => d.id);

    const refused = stats.baselines.filter((b) => b.actor !== 'guest' && b.status >= 400);
    console.info(
      [
        `API fuzz: ${stats.requests} requests over ${ops.length} operations × 3 actors in ${(stats.ms / 1000).toFixed(1)} s ` +
          `(seed ${SEED}, ${RUNS} draws per operation${LONG_RUN ? ', every value at every position' : ''})`,
        `generated bad requests: ${Object.values(stats.generated).reduce((a, b) => a + b, 0)} over ${Object.values(stats.generated).filter((n) => n > 0).length} endpoints ` +
          `(${BAD} each; ${stats.refused} of them refused by the contract's schemas)`,
        `generated answered: ${Object.entries(stats.generatedByStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `slowest operations (ms): ${Object.entries(stats.msByOperation).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `by class (requests, ms): ${Object.entries(stats.byClass).map(([k, v]) => `${k} ${v} ${stats.msByClass[k as keyof typeof stats.msByClass]}`).join(', ')}`,
        `by status: ${Object.entries(stats.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `restoring fixtures ${(stats.restoreMs / 1000).toFixed(1)} s, building cases ${(stats.buildMs / 1000).toFixed(1)} s`,
        `real cursors mutated: ${Object.entries(stats.cursors).map(([op, sorts]) => `${op} (${sorts.join(', ')})`).join('; ')}`,
        `slowest: ${stats.slowest.slice(0, 5).map((s) => `${s.ms} ms ${s.method} ${s.path} ${s.cls} ${s.where}`).join('; ')}`,
        `valid requests refused to a signed-in actor (cases of these reach only the checks before): ` +
          (refused.map((b) => `${b.method} ${b.path} as ${b.actor} ${b.status} ${b.message}`).join('; ') || 'none'),
        `known defects: ${KNOWN_DEFECTS.map((d) => `${d.id} ${knownBy.get(d.id)!.length}× over ${new Set(knownBy.get(d.id)!.map((f) => f.endpoint)).size} endpoints (${d.note}), e.g. ${knownBy.get(d.id)![0]?.repro.slice(0, 120) ?? '-'}`).join('; ') || 'none'}`,
        unexpectedFailures.length ? failureTable(unexpected, {}) : 'no new failures',
      ].join('\n'),
    );
    if (process.env.FUZZ_REPORT) {
      const known = Object.fromEntries([...knownBy].map(([id, list]) => [id, groupFailures(list)]));
      writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ stats, unexpected, known }, null, 2));
    }

    const short = ops.filter((op) => op.name && (stats.generated[op.name] ?? 0) < BAD).map((op) => `${op.name} (${stats.generated[op.name!] ?? 0})`);
    expect(short, `endpoints with fewer than ${BAD} generated bad requests`).toEqual([]);
    expect(unexpected.map((g) => `${g.key} (${g.count}×) e.g. ${g.example.status} ${g.example.repro.slice(0, 200)}`), 'new failures').toEqual([]);
    expect(stale, 'KNOWN_DEFECTS that no longer fail: remove them').toEqual([]);
  }, Math.max(600_000, RUNS * 1_000));
});

