import { count, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';

// The totals of the listings, beside their keyset pages (listing.ts). Counting a huge filtered set is the one part of
// a listing whose cost grows with the table, so a public listing counts only small sets and takes the planner's
// estimate for big ones (docs/decisions/006).

/** Admin lists: counted exactly up to this; a total of TOTAL_CAP + 1 means "more than TOTAL_CAP". */
export const TOTAL_CAP = 10_000;

/**
 * Public listings: a set the planner expects to be at most this large is counted exactly (up to this + 1);
 * a larger one gets the planner's estimate, rounded, with `exact: false` (the UI: "около 72 000").
 */
export const EXACT_TOTAL_LIMIT = 1_000;

/**
 * Rows to estimate or count: a select, or one built only when a count or an estimate must run, named by `key` (its
 * shape and values, unique to it among every listing's keys): most requests find their total kept, and building a
 * select's SQL only to look it up cost as much as running a statement built once (ADR 070).
 */
export type Countable = PgSelect | KeyedRows;
export interface KeyedRows {
  key: string;
  rows: () => PgSelect;
}
const isKeyed = (rows: Countable): rows is KeyedRows => typeof (rows as Partial<KeyedRows>).key === 'string';
const builtRows = (rows: Countable): PgSelect => (isKeyed(rows) ? rows.rows() : rows);

export interface ListingTotal {
  total: number;
  exact: boolean;
  /** The planner's estimate of the set, when it was asked (the first page of a listing). */
  estimate?: number;
}

/**
 * The planner's estimate of the number of rows of `rows`: EXPLAIN plans the select (with its parameters, so
 * the estimate sees the real values) and runs nothing. Sub-millisecond, whatever the size of the table. The
 * estimate only changes when the table is analyzed, so it is kept for a minute per select.
 */
export async function estimateRows(db: Db, rows: Countable): Promise<number> {
  const key = selectKey(rows);
  const estimates = cacheOf(estimatesByDb, db);
  const kept = estimates.get(key);
  if (kept && Date.now() - kept.at < REUSE_MS) return kept.value;
  const result = (await db.execute(sql`explain (format json) ${builtRows(rows).getSQL()}`)) as unknown as {
    rows: { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] | string }[];
  };
  const plan = result.rows[0]?.['QUERY PLAN'];
  const parsed = typeof plan === 'string' ? (JSON.parse(plan) as { Plan: { 'Plan Rows': number } }[]) : plan;
  const value = Math.round(parsed?.[0]?.Plan['Plan Rows'] ?? 0);
  remember(estimates, key, value);
  return value;
}

/** An estimate as people say it: two significant digits (72 458 → 72 000, 1 234 → 1 200). */
export function roughly(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/** `select count(*) as n from (<rows> limit cap + 1)`, not yet run: a list's count can be a statement (ADR 070). */
export const countUpToQuery = (db: Db, rows: PgSelect, cap = TOTAL_CAP) => db.select({ n: count() }).from(rows.limit(cap + 1).as('capped'));

async function countUpTo(db: Db, rows: PgSelect, cap: number): Promise<number> {
  const [row] = await countUpToQuery(db, rows, cap);
  return row?.n ?? 0;
}

/**
 * The total of a public listing whose filter `rows` selects (made dynamic, with a cheap selection, e.g.
 * `db.select({ one: sql`1` }).from(services).innerJoin(…).where(condition).$dynamic()`): exact when the
 * planner expects at most EXACT_TOTAL_LIMIT rows and a count confirms it, else the estimate, rounded. Work is
 * bounded either way: one plan, and a count of at most EXACT_TOTAL_LIMIT + 1 rows. Pass `estimate` when the
 * caller already asked the planner, `counted` when it has counted the rows (then that is the total, exact).
 */
export async function listingTotal(db: Db, rows: Countable, cursor?: string, estimate?: number, counted?: number): Promise<ListingTotal> {
  return reusedTotal(db, rows, cursor, async () => {
    if (counted !== undefined) return { total: counted, exact: true, estimate: counted };
    const expected = estimate ?? (await estimateRows(db, rows));
    if (expected > EXACT_TOTAL_LIMIT) return { total: roughly(expected), exact: false, estimate: expected };
    const n = await countUpTo(db, builtRows(rows), EXACT_TOTAL_LIMIT);
    if (n > EXACT_TOTAL_LIMIT) return { total: roughly(Math.max(n, expected)), exact: false, estimate: expected };
    return { total: n, exact: true, estimate: expected };
  });
}

/**
 * The number of rows of `rows`, counted up to TOTAL_CAP + 1 (admin lists, where an exact figure matters more
 * than a millisecond).
 */
export async function cappedTotal(db: Db, rows: PgSelect, cursor?: string): Promise<number> {
  const { total } = await reusedTotal(db, rows, cursor, async () => ({ total: await countUpTo(db, rows, TOTAL_CAP), exact: true }));
  return total;
}

/**
 * Pages after the first reuse the total their first page computed (for a minute): the client already has it,
 * and a listing paged through should not change its total under the reader. An approximate total is reused
 * by first pages too: it is an estimate anyway, and a count that overflowed once would overflow again.
 */
async function reusedTotal(db: Db, rows: Countable, cursor: string | undefined, compute: () => Promise<ListingTotal>): Promise<ListingTotal> {
  const key = selectKey(rows);
  const totals = cacheOf(totalsByDb, db);
  const kept = totals.get(key);
  if (kept && (cursor || !kept.value.exact) && Date.now() - kept.at < REUSE_MS) return kept.value;
  const value = await compute();
  remember(totals, key, value);
  return value;
}

// Per-database caches of totals and estimates, keyed by the select's SQL and parameters.
type Kept<T> = Map<string, { at: number; value: T }>;
const REUSE_MS = 60_000;
const REUSE_MAX = 10_000;
const totalsByDb = new WeakMap<Db, Kept<ListingTotal>>();
const estimatesByDb = new WeakMap<Db, Kept<number>>();

function cacheOf<T>(caches: WeakMap<Db, Kept<T>>, db: Db): Kept<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

function remember<T>(cache: Kept<T>, key: string, value: T) {
  if (cache.size >= REUSE_MAX) cache.clear();
  cache.set(key, { at: Date.now(), value });
}

/** The cache key of a select: its SQL and parameters, built once per select (building is not free), or its given key. */
const keys = new WeakMap<PgSelect, string>();
function selectKey(rows: Countable): string {
  if (isKeyed(rows)) return rows.key;
  let key = keys.get(rows);
  if (key === undefined) {
    const { sql: text, params } = rows.toSQL();
    keys.set(rows, (key = `${text}|${JSON.stringify(params)}`));
  }
  return key;
}
