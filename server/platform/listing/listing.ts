import { and, asc, desc, eq, gte, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { badRequest } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import { CATALOG_MESSAGES, type SellerLevel } from '#contract/catalog';

// Shared by the public listings (services, projects, freelancers): keyset cursors, Russian full-text search,
// the SQL forms of the derived seller level and of "online now".

// ---------------------------------------------------------------------------------------------------------
// Keyset cursors. A listing never uses OFFSET: every sort is a total order ending with the row id, and the
// cursor carries the sort values of the last row of a page, so the next page is "rows strictly after it".
// ---------------------------------------------------------------------------------------------------------

export type CursorValue = string | number | null;

/**
 * The SQL type of a sort key, which is also what its cursor position must hold, checked on decoding so that a
 * value the column cannot hold is a 400 rather than a failed cast (a 500): 'int4' and 'int8' integers within
 * the column's range (int8 within JavaScript's safe integers, which JSON carries exactly), 'real' a finite
 * float4 (no overflow, no underflow to zero), 'numeric' a finite number, 'uuid', 'timestamptz' (ISO 8601 in UTC
 * with up to microseconds, as `timestampKey` writes it), 'text' (up to 100 characters PostgreSQL can store);
 * a trailing '?' also allows null.
 */
export type CursorKind = 'int4' | 'int8' | 'real' | 'numeric' | 'uuid' | 'timestamptz' | 'text';
export type CursorSpec = CursorKind | `${CursorKind}?`;

/** Longest cursor accepted (the query schemas cap it at 200 characters too). */
const MAX_CURSOR_LENGTH = 200;
const MAX_STRING_VALUE = 100;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** The ranges of PostgreSQL's integer and float4 types. */
export const INT4 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;
const FLOAT4_MAX = 3.4028234663852886e38;
const FLOAT4_MIN_NORMAL = 1.1754943508222875e-38;

/** A cursor's values as read, unchecked, or undefined when it is not a JSON array; `decodeCursor` checks them. */
function cursorValues(cursor: string): unknown[] | undefined {
  try {
    const parsed: unknown = cursor.length <= MAX_CURSOR_LENGTH ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The first value of a cursor (the listings put the name of their sort there), or undefined when the cursor
 * cannot be read; `decodeCursor` still checks the whole of it.
 */
export function cursorTag(cursor: string): unknown {
  return cursorValues(cursor)?.[0];
}

/**
 * The cursor with its first value (the name of its sort) replaced by `tag`: a read that pages in another read's order
 * under a name of its own (a search's partial matches of one word, ADR 044). The rest is checked where it is used.
 */
export function retagCursor(cursor: string, tag: string): string {
  const values = cursorValues(cursor);
  if (!values?.length) throw badCursor();
  return encodeCursor([tag, ...(values.slice(1) as CursorValue[])]);
}

/** The sort values of a row as an opaque page link: base64url of a JSON array. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** The 400 of a cursor that cannot be used (malformed, or made for another sort). */
export const badCursor = () => badRequest(CATALOG_MESSAGES.badCursor, { cursor: [CATALOG_MESSAGES.badCursor] });
const malformed = badCursor;

/** A date PostgreSQL accepts too: JavaScript rolls 2026-02-30 over to March, and year 0 does not exist. */
function isRealTimestamp(value: string): boolean {
  const ms = Date.parse(value);
  return ms >= Date.UTC(1, 0, 1) && new Date(ms).toISOString().slice(0, 19) === value.slice(0, 19);
}

/** No lone UTF-16 surrogate (UTF-8 cannot carry one: the round trip turns it into U+FFFD). */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8') === text;

const inRange = (value: unknown, min: number, max: number) => Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** Whether `value` may stand at a cursor position of this kind. */
export function fits(value: unknown, spec: CursorSpec): boolean {
  const nullable = spec.endsWith('?');
  if (value === null) return nullable;
  switch (spec.replace('?', '') as CursorKind) {
    case 'int4':
      return inRange(value, INT4.min, INT4.max);
    case 'int8':
      return inRange(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case 'real': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      const size = Math.abs(value);
      return size === 0 || (size >= FLOAT4_MIN_NORMAL && size <= FLOAT4_MAX);
    }
    case 'numeric':
      return typeof value === 'number' && Number.isFinite(value);
    case 'uuid':
      return typeof value === 'string' && isUuid(value);
    case 'timestamptz':
      return typeof value === 'string' && TIMESTAMP_RE.test(value) && isRealTimestamp(value);
    case 'text':
      return typeof value === 'string' && value.length <= MAX_STRING_VALUE && wellFormed(value) && !CONTROL_RE.test(value);
  }
}

/**
 * Reads a cursor made by `encodeCursor`: an array of exactly one value per kind, each fitting its kind
 * (see CursorKind). Anything else is a 400 with CATALOG_MESSAGES.badCursor: a cursor comes from the URL, so it
 * is user input.
 */
export function decodeCursor(cursor: string, kinds: readonly CursorSpec[]): CursorValue[] {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  let parsed: unknown;
  try {
    const json = Buffer.from(cursor, 'base64url').toString('utf8');
    // Node's decoder skips what it cannot read: a cursor must be exactly what encodeCursor wrote.
    if (Buffer.from(json, 'utf8').toString('base64url') !== cursor) throw malformed();
    parsed = JSON.parse(json);
  } catch {
    throw malformed();
  }
  if (!Array.isArray(parsed) || parsed.length !== kinds.length) throw malformed();
  for (const [i, value] of parsed.entries()) if (!fits(value, kinds[i]!)) throw malformed();
  return parsed as CursorValue[];
}

/** One key of a sort order. The expression must never be null (coalesce it) unless its kind says so. */
export interface SortKey {
  expr: SQLWrapper;
  dir: 'asc' | 'desc';
  /** The SQL type of the key: the cursor value is checked against it and cast to it. */
  kind: CursorSpec;
  /**
   * A descending key of a column that is never null, read by walking an ascending index backwards: ordered NULLS
   * FIRST, the order such a walk gives (the same rows in the same order, as nothing is null).
   */
  backwards?: true;
}

/**
 * The position a cursor of a sort names: the cursor must start with the sort's name (a cursor made for another
 * sort is refused) and hold one value per key, each fitting the key's kind.
 */
export function cursorPosition(cursor: string, sort: string, keys: readonly SortKey[]): CursorValue[] {
  const [tag, ...values] = decodeCursor(cursor, ['text', ...keys.map((k) => k.kind)]);
  if (tag !== sort) throw badCursor();
  return values;
}

/**
 * ORDER BY of a sort. Descending keys are NULLS LAST, as the listing indexes are declared (PostgreSQL's own
 * default for DESC is NULLS FIRST, which such an index cannot serve), except those read `backwards`.
 */
export const orderBy = (keys: readonly SortKey[]): SQL[] =>
  keys.map((k) => (k.dir === 'asc' ? asc(k.expr) : k.backwards ? desc(k.expr) : sql`${desc(k.expr)} nulls last`));

/** A cursor value as a parameter of the key's type (text goes as it is). */
export const cursorParam = (key: Pick<SortKey, 'kind'>, value: CursorValue | Placeholder): SQL => {
  const type = key.kind.replace('?', '');
  return type === 'text' ? sql`${value}` : sql`cast(${value} as ${sql.raw(type)})`;
};
const param = cursorParam;

/**
 * "Strictly after the row with these sort values". One direction throughout is a row comparison
 * (`(a, b) < (x, y)`), which PostgreSQL answers from a matching index; mixed directions expand to
 * `a > x or (a = x and b < y) …`. The values may be placeholders, for a statement built once (ADR 070).
 *
 * `planOnce` (a named statement's placeholders, one direction): the values are read by a subselect, `(a, b) <
 * (select x, y)`, an InitPlan whose values no plan can see. A custom plan sees a cursor near the top of the list let
 * nearly every row through, so it looks cheaper than the generic plan, which guesses a third: PostgreSQL then plans
 * a later page at every run. Priced alike, the generic plan is kept from the sixth run (the same index walk).
 */
export function keysetAfter(keys: readonly SortKey[], values: readonly (CursorValue | Placeholder)[], { planOnce = false } = {}): SQL {
  if (keys.length !== values.length || keys.length === 0) throw new Error('keysetAfter: one value per key');
  const uniform = keys.every((k) => k.dir === keys[0]!.dir);
  if (uniform) {
    const columns = sql.join(keys.map((k) => sql`${k.expr}`), sql`, `);
    const joined = sql.join(keys.map((k, i) => param(k, values[i]!)), sql`, `);
    const params = planOnce ? sql`select ${joined}` : joined;
    return keys[0]!.dir === 'asc' ? sql`(${columns}) > (${params})` : sql`(${columns}) < (${params})`;
  }
  const branches: SQL[] = keys.map((key, i) => {
    const equalBefore = keys.slice(0, i).map((k, j) => eq(k.expr as never, param(k, values[j]!)));
    const beyond = key.dir === 'asc' ? sql`${key.expr} > ${param(key, values[i]!)}` : sql`${key.expr} < ${param(key, values[i]!)}`;
    return and(...equalBefore, beyond)!;
  });
  return or(...branches)!;
}

/**
 * A timestamp as a cursor value, computed in SQL: ISO 8601 in UTC with microseconds, so that no precision
 * is lost on the way through JavaScript (a Date keeps milliseconds only, which would skip or repeat rows).
 */
export const timestampKey = (column: SQLWrapper) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One page of a keyset listing: fetch `limit + 1` rows, keep `limit`, and make the next cursor from the last
 * kept row (null when there is nothing after it).
 */
export function page<T>(rows: T[], limit: number, cursorOf: (row: T) => CursorValue[]): { rows: T[]; next: string | null } {
  if (rows.length <= limit) return { rows, next: null };
  const kept = rows.slice(0, limit);
  return { rows: kept, next: encodeCursor(cursorOf(kept[kept.length - 1]!)) };
}

// ---------------------------------------------------------------------------------------------------------
// Russian full-text search. The documents are generated `search` tsvector columns (schema/catalog.ts).
// ---------------------------------------------------------------------------------------------------------

/**
 * The text of a search worth running, or null. websearch_to_tsquery never fails on user input (quotes,
 * operators, SQL), but a text without a single letter or digit makes an empty query that matches nothing,
 * so it is treated as no search at all.
 */
export function searchText(q: string | undefined | null): string | null {
  // PostgreSQL text cannot hold NUL, and no control character means anything in a search.
  const text = q ? withoutControls(q).trim() : '';
  return text && /[\p{L}\p{N}]/u.test(text) ? text : null;
}

/** The text with control characters (NUL above all, which PostgreSQL text refuses) turned into spaces. */
// eslint-disable-next-line no-control-regex
export const withoutControls = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

/**
 * A search's query: `to_tsquery('russian', t)` of a text made by tsQueryText (search.ts) from what was typed —
 * words stemmed, synonyms as alternatives, the last word a prefix. Only letters and digits reach its lexemes,
 * so to_tsquery never fails on user input.
 */
export const searchQuery = (tsQuery: string): SQL => sql`to_tsquery('russian', ${tsQuery})`;

/** The document matches the query (a tsQueryText text). */
export const matches = (document: SQLWrapper, tsQuery: string): SQL => sql`${document} @@ ${searchQuery(tsQuery)}`;

/**
 * Relevance as an integer (0 … 999 999), for ordering and for cursors: ts_rank (the weights: title over tags and
 * category over description) normalised by rank/(rank+1) (flag 32), scaled. Not ts_rank_cd: its cover density
 * cost 4 ms more for 913 matches at 1 M services, for the same relevance suite score (ADR 028). An integer
 * compares exactly after a trip through JSON; a float4 rank might not.
 */
export const searchRank = (document: SQLWrapper, tsQuery: string): SQL<number> =>
  sql<number>`(ts_rank(${document}, ${searchQuery(tsQuery)}, 32) * 1000000)::int`;

// ---------------------------------------------------------------------------------------------------------
// Seller level and presence in SQL.
// ---------------------------------------------------------------------------------------------------------

/** PRODUCT.md thresholds, the same as sellerLevel() in people.ts: rating is the mean × 100. */
export const LEVEL_THRESHOLDS = {
  pro: { orders: 50, rating: 470 },
  advanced: { orders: 10, rating: 450 },
} as const;

/** Профессионал needs no dispute lost in this many days (PRODUCT.md; users.lost_dispute_at, ADR 034). */
export const LOST_DISPUTE_DAYS = 90;

/**
 * Sellers of this derived level, given their completed-orders, rating and lost-dispute columns, as sellerLevel()
 * (people) derives it.
 */
export function levelCondition(level: SellerLevel, columns: { completedOrders: SQLWrapper; rating: SQLWrapper; lostDisputeAt: SQLWrapper }): SQL {
  const reaches = (t: { orders: number; rating: number }) =>
    and(gte(columns.completedOrders as never, t.orders), gte(columns.rating as never, t.rating))!;
  const noLoss = sql`(${columns.lostDisputeAt} is null or ${columns.lostDisputeAt} < now() - make_interval(days => ${LOST_DISPUTE_DAYS}))`;
  const pro = sql`(${reaches(LEVEL_THRESHOLDS.pro)} and ${noLoss})`;
  const advanced = reaches(LEVEL_THRESHOLDS.advanced);
  if (level === 'pro') return pro;
  if (level === 'advanced') return sql`(${advanced} and not ${pro})`;
  return sql`not ${advanced}`;
}

/**
 * "Online now" for filtering in SQL. The socket registry (realtime.onlineAmong) answers only about given
 * users, so a listing filters by recent activity instead: users.last_seen_at within ONLINE_WINDOW_MS, which the
 * real-time layer keeps fresh while a socket is connected. Cards still show the live socket state.
 */
export const ONLINE_WINDOW_MS = 5 * 60 * 1000;

export const onlineCondition = (lastSeenAt: SQLWrapper): SQL =>
  sql`${lastSeenAt} > now() - make_interval(secs => ${ONLINE_WINDOW_MS / 1000})`;

/** Escapes % _ and \ for a LIKE pattern. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
