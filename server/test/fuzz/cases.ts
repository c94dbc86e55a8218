import fc from 'fast-check';
import type { Operation, Param } from './operations.ts';
import { concrete, pathText, positions, schemaArb, setAt, typeOf, validValue, type Hints, type Json, type JsonSchema } from './schema.ts';
import { hostileMultipart } from './multipart.ts';

// The hostile requests of one operation, grouped in input classes. Everything is deterministic: the fixed
// lists cover every position of every schema, and fast-check draws the rest from a fixed seed.

export const INPUT_CLASSES = [
  'baseline',
  'int-range',
  'cursor',
  'surrogate-nul',
  'wrong-type',
  'missing-field',
  'extra-field',
  'long-string',
  'empty-body',
  'content-type',
  'malformed-json',
  'deep-json',
  'oversized',
  'multipart',
  'path-param',
  'schema-valid',
  'generated',
] as const;
export type InputClass = (typeof INPUT_CLASSES)[number];

export interface Case {
  cls: InputClass;
  /** Where the hostile value sits (body.packages[0].price, query.cursor[2], path.id, …). */
  where: string;
  /** Raw (already percent-encoded) path segments; a parameter left out gets a real id when sent. */
  params: Record<string, string>;
  /** Raw query string without "?". */
  query: string;
  /** Raw body and its content type (null: no content-type header); undefined: no body. */
  body?: { payload: string | Buffer; contentType: string | null };
  /** The hostile part, short, for the report. */
  show: string;
  /** The number of a fast-check draw (draws take turns between the actors). */
  draw?: number;
  /** A generated bad request the contract refuses (it must never get a 2xx); undefined when it cannot tell. */
  refused?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------------------

const hexByte = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** encodeURIComponent that does not throw on lone surrogates: they go out as their WTF-8 bytes (%ED%A0%80). */
export function pct(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)].map(hexByte).join('');
    } else out += encodeURIComponent(s[i]!);
  }
  return out;
}

export const queryString = (pairs: [string, string][]) => pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');

/** Control characters and surrogates written as \uXXXX, so that a report shows what a terminal would hide. */
export function escapeControls(text: string): string {
  let out = '';
  for (const unit of text.split('')) {
    const c = unit.charCodeAt(0);
    out += c < 0x20 || (c >= 0xd800 && c <= 0xdfff) ? `\\u${c.toString(16).padStart(4, '0')}` : unit;
  }
  return out;
}

/** Printable form of a value for the report: escapes what a terminal would hide, cuts what is long. */
export function shown(value: unknown, max = 160): string {
  const text = escapeControls(JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** JSON text with placeholders swapped for raw JSON (numbers JSON.stringify cannot write, deep nesting). */
const RAW = '\u0001raw\u0001';
function jsonWithRaw(value: Json, raw: string): string {
  return JSON.stringify(value).replace(JSON.stringify(RAW), raw);
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------------------

/** Out-of-range and odd numbers as raw JSON text. */
const JSON_INTS = ['2147483648', '-2147483649', '9007199254740993', '1e308', '-1e308', '1e400', '1.5', '-1', '0', '-0', '100000000000000000000000'];
/** The same in a query string or a path. */
const TEXT_INTS = ['2147483648', '-2147483649', '9007199254740993', '99999999999999999999', '1e400', '1.5', '-1', '0x10', 'NaN', 'Infinity', ' 1'];
/** Lone surrogates and NUL, put inside an otherwise valid string. */
const BAD_CHARS = ['\ud800', '\udfff', '\u0000'];
const DEEP = 10_000;
const deepArray = () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
const deepObject = () => `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
const LONG = 'я'.repeat(100_000);

/** Values of another JSON type than the schema's. */
function wrongTypes(schema: JsonSchema): Json[] {
  switch (typeOf(schema)) {
    case 'string':
      return [12345, true, {}, ['x']];
    case 'integer':
    case 'number':
      return ['12', true, [1], {}];
    case 'boolean':
      return ['true', 1, null];
    case 'array':
      return [{}, 'x', [[[]]]];
    case 'object':
      return ['x', [], 0];
    default:
      return [{}, 1];
  }
}

/** A valid string of the schema with one character replaced by `bad` (so length checks still pass). */
function withBadChar(valid: Json, bad: string): string {
  const text = typeof valid === 'string' && valid.length > 0 ? valid : 'x';
  const at = Math.floor(text.length / 2);
  return text.slice(0, at) + bad + text.slice(at + 1);
}

/** Path parameter values: the class they belong to and the raw segment. */
const PATH_VALUES: [InputClass, string][] = [
  ['path-param', '00000000-0000-4000-8000-000000000000'],
  ['path-param', '00000000-0000-0000-0000-000000000000'],
  ['path-param', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ['path-param', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF'],
  ['path-param', 'not-a-uuid'],
  ['path-param', 'constructor'],
  ['path-param', '__proto__'],
  ['path-param', '..%2F..%2Fetc%2Fpasswd'],
  ['path-param', '%'],
  ['path-param', '%E0%A4%A'],
  ['path-param', 'a'.repeat(201)],
  ['path-param', `${'я'.repeat(60)}`],
  ['path-param', '%20'],
  ['surrogate-nul', '%ED%A0%80'],
  ['surrogate-nul', '%ED%BF%BF'],
  ['surrogate-nul', 'a%00b'],
  ['int-range', '2147483648'],
  ['int-range', '-1'],
  ['int-range', '99999999999999999999'],
  ['int-range', '1e400'],
];

/** Fields a client must never set: ids, owners, roles, states, prototype keys. */
const EXTRA_FIELDS = (peerId: string): Record<string, Json> => ({
  _id: '00000000-0000-4000-8000-000000000000',
  id: '00000000-0000-4000-8000-000000000000',
  role: 'admin',
  roles: ['admin'],
  isAdmin: true,
  status: 'active',
  sellerId: peerId,
  customerId: peerId,
  ownerId: peerId,
  userId: peerId,
  emailConfirmedAt: '2000-01-01T00:00:00Z',
  tokenVersion: -1,
  rating: 500,
  views: 2147483647,
});

// ---------------------------------------------------------------------------------------------------------
// Cases of one operation
// ---------------------------------------------------------------------------------------------------------

export interface CaseContext {
  hints: Hints;
  peerId: string;
  /** Real cursors of the listing, per sort (fetched from the app), for the cursor class. */
  cursors: { name: string; pairs: [string, string][]; cursor: string }[];
  /** Draws of fast-check per operation (schema-valid requests, random cursors). */
  runs: number;
  seed: number;
  /** The full lists of hostile values per position (long run) instead of a rotating few. */
  exhaustive: boolean;
}

const JSON_TYPE = 'application/json';

export function casesOf(op: Operation, ctx: CaseContext): Case[] {
  const cases: Case[] = [];
  const { hints } = ctx;
  const baseQuery: [string, string][] = op.query.filter((p) => p.required).map((p) => [p.name, String(validValue(p.schema, p.name, hints))]);
  const qs = (pairs: [string, string][]) => queryString(pairs);
  const baseQs = qs(baseQuery);
  const body = op.body;
  const baseBody = body ? validValue(body, '', hints) : undefined;
  const json = (value: Json): Case['body'] => ({ payload: JSON.stringify(value), contentType: JSON_TYPE });
  const baseJson = baseBody === undefined ? undefined : json(baseBody);
  const add = (c: Omit<Case, 'params' | 'query' | 'body'> & Partial<Pick<Case, 'params' | 'query' | 'body'>>) =>
    cases.push({ params: {}, query: baseQs, body: baseJson, ...c });
  // A few values per position in the default run, all of them in the long one; rotating, so that every
  // value still comes up somewhere.
  let turn = 0;
  const some = <T>(values: T[], n: number): T[] => {
    if (ctx.exhaustive || values.length <= n) return values;
    turn++;
    return Array.from({ length: n }, (_, i) => values[(turn * n + i) % values.length]!);
  };

  if (!op.multipart) add({ cls: 'baseline', where: '(valid request)', show: baseBody === undefined ? baseQs || '-' : shown(baseBody) });

  // --- path parameters
  for (const p of op.pathParams) {
    for (const [cls, raw] of PATH_VALUES) add({ cls, where: `path.${p.name}`, params: { [p.name]: raw }, show: shown(raw, 60) });
  }

  // --- query parameters
  const withQuery = (name: string, value: string) => [...baseQuery.filter(([k]) => k !== name), [name, value]] as [string, string][];
  for (const p of op.query) {
    const where = `query.${p.name}`;
    const t = typeOf(p.schema);
    if (t === 'integer' || t === 'number') {
      for (const v of some(TEXT_INTS, 4)) add({ cls: 'int-range', where, query: qs(withQuery(p.name, v)), show: v });
    }
    const valid = String(validValue(p.schema, p.name, hints));
    for (const bad of BAD_CHARS) add({ cls: 'surrogate-nul', where, query: qs(withQuery(p.name, withBadChar(valid, bad))), show: shown(withBadChar(valid, bad), 60) });
    add({ cls: 'surrogate-nul', where: `${where} (broken escape)`, query: `${baseQs}&${p.name}=%E0%A4%A`, show: '%E0%A4%A' });
    add({ cls: 'wrong-type', where: `${where} (given twice)`, query: qs([...withQuery(p.name, valid), [p.name, valid]]), show: `${p.name}=…&${p.name}=…` });
    add({ cls: 'wrong-type', where: `${where} (bracket form)`, query: `${baseQs}&${pct(p.name)}[a]=1`, show: `${p.name}[a]=1` });
    add({ cls: 'long-string', where, query: qs(withQuery(p.name, 'я'.repeat(10_000))), show: '"я" × 10 000' });
    if (p.required) add({ cls: 'missing-field', where, query: qs(baseQuery.filter(([k]) => k !== p.name)), show: `no ${p.name}` });
  }
  add({ cls: 'surrogate-nul', where: 'query key', query: `${baseQs}&%ED%A0%80=1&a%00=1`, show: '%ED%A0%80=1&a%00=1' });

  // --- listing cursors: real ones with each position replaced, then made-up ones
  if (op.query.some((p) => p.name === 'cursor')) cases.push(...cursorCases(op, ctx, baseQuery));

  // --- bodies
  if (op.multipart) {
    for (const m of hostileMultipart()) {
      add({ cls: m.where.includes('baseline') ? 'baseline' : 'multipart', where: `multipart: ${m.where}`, body: { payload: m.payload, contentType: m.contentType || null }, show: m.where });
    }
  } else if (op.method !== 'GET' && op.documented) {
    cases.push(...bodyCases(op, ctx, body, baseBody, baseQs, some));
  } else if (op.method === 'GET') {
    add({ cls: 'content-type', where: 'JSON body on a GET', body: { payload: '{"a":1}', contentType: JSON_TYPE }, show: '{"a":1}' });
  }

  // --- schema-valid but odd, drawn by fast-check
  if (ctx.runs > 0 && op.documented) {
    const queryArb = fc.record(
      Object.fromEntries(op.query.map((p) => [p.name, schemaArb(p.schema, p.name, hints)])),
      { requiredKeys: op.query.filter((p) => p.required).map((p) => p.name) },
    ) as fc.Arbitrary<Record<string, Json>>;
    const bodyArb = body ? schemaArb(body, '', hints) : fc.constant(undefined);
    const seed = ctx.seed ^ hash(`${op.method} ${op.path}`);
    for (const [draw, [query, value]] of fc.sample(fc.tuple(queryArb, bodyArb), { seed, numRuns: ctx.runs }).entries()) {
      const pairs: [string, string][] = Object.entries(query).flatMap(([k, v]) =>
        v === null ? [] : Array.isArray(v) ? v.map((x) => [k, String(x)] as [string, string]) : [[k, String(v)] as [string, string]],
      );
      add({
        cls: 'schema-valid',
        where: '(whole request)',
        query: qs(pairs),
        body: value === undefined ? (op.multipart ? undefined : baseJson) : json(value),
        show: shown({ query, body: value }, 200),
        draw,
      });
    }
  }
  return cases;
}

function bodyCases(
  op: Operation,
  ctx: CaseContext,
  body: JsonSchema | undefined,
  baseBody: Json | undefined,
  baseQs: string,
  some: <T>(values: T[], n: number) => T[],
): Case[] {
  const { hints } = ctx;
  const cases: Case[] = [];
  const root: JsonSchema = body ?? { type: 'object', properties: {} };
  const base: Json = baseBody ?? {};
  const add = (cls: InputClass, where: string, payload: string | Buffer, show: string, contentType: string | null = JSON_TYPE) =>
    cases.push({ cls, where, params: {}, query: baseQs, body: { payload, contentType }, show });
  const at = (path: (string | number)[], leaf: Json | undefined) => setAt(base, path, leaf, root, hints);
  const raw = (path: (string | number)[], text: string) => (path.length ? jsonWithRaw(at(path, RAW), text) : text);

  for (const pos of body ? positions(root) : []) {
    const where = `body.${pathText(pos.path)}`;
    const t = typeOf(pos.schema);
    const valid = validValue(pos.schema, pos.name, hints);
    if (t === 'integer' || t === 'number') {
      for (const v of some(JSON_INTS, 4)) add('int-range', where, raw(pos.path, v), v);
    }
    if (t === 'string') {
      for (const bad of BAD_CHARS) add('surrogate-nul', where, JSON.stringify(at(pos.path, withBadChar(valid, bad))), shown(withBadChar(valid, bad), 60));
      add('long-string', where, JSON.stringify(at(pos.path, LONG)), '"я" × 100 000');
    }
    if (t === 'object') {
      const obj = { ...(concrete(pos.schema).properties ? (valid as Record<string, Json>) : {}), '\ud800': 1, 'a\u0000b': 1 };
      add('surrogate-nul', `${where} (keys)`, JSON.stringify(at(pos.path, obj)), '{"\\ud800":1,"a\\u0000b":1}');
    }
    if (t === 'array') {
      const item = concrete(pos.schema).items;
      const one = item ? validValue(item, pos.name, hints) : 'x';
      add('long-string', `${where} (10 000 items)`, JSON.stringify(at(pos.path, Array.from({ length: 10_000 }, () => one))), '10 000 items');
    }
    for (const v of some(wrongTypes(pos.schema), 2)) add('wrong-type', where, JSON.stringify(at(pos.path, v)), shown(v, 40));
    if (pos.required && pos.path.length && typeof pos.path.at(-1) === 'string') add('missing-field', where, JSON.stringify(at(pos.path, undefined)), `no ${pos.name}`);
    if (pos.path.length === 1 || t === 'object' || t === 'array') add('deep-json', where, raw(pos.path, deepArray()), `[ × ${DEEP}`);
  }

  // The body as a whole.
  if (body) for (const v of [[], 'x', 1, null, true] as Json[]) add('wrong-type', 'body', JSON.stringify(v), shown(v));
  add('surrogate-nul', 'body (keys)', JSON.stringify({ ...(base as object), '\ud800': 'x', 'a\u0000b': 'x' }), '{"\\ud800":…,"a\\u0000b":…}');
  add('extra-field', 'body', JSON.stringify({ ...(base as object), ...EXTRA_FIELDS(ctx.peerId) }), 'ids, owner, role, status, counters');
  add('malformed-json', 'body (__proto__)', JSON.stringify(base).replace(/^\{/, '{"__proto__":{"isAdmin":true},').replace(',}', '}'), '{"__proto__":{…}}');
  add('malformed-json', 'body (constructor.prototype)', JSON.stringify({ ...(base as object), constructor: { prototype: { isAdmin: true } } }), '{"constructor":{"prototype":…}}');
  add('malformed-json', 'body (cut)', JSON.stringify(base).slice(0, -1), 'JSON without its last character');
  add('malformed-json', 'body (trailing garbage)', `${JSON.stringify(base)}}}`, 'JSON followed by "}}"');
  add('malformed-json', 'body (BOM)', `\ufeff${JSON.stringify(base)}`, 'JSON after a BOM');
  add('malformed-json', 'body (NaN literal)', '{"a":NaN}', '{"a":NaN}');
  add('malformed-json', 'body (invalid UTF-8)', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('"}')]), 'bytes ED A0 80 FF in a string');
  add('empty-body', 'body', '', 'empty with a JSON type');
  cases.push({ cls: 'empty-body', where: 'body', params: {}, query: baseQs, body: undefined, show: 'no body, no type' });
  add('empty-body', 'body', '{}', '{}');
  add('empty-body', 'body', 'null', 'null');
  add('content-type', 'body', JSON.stringify(base), 'text/plain', 'text/plain');
  add('content-type', 'body', new URLSearchParams(Object.entries(base as object).map(([k, v]) => [k, String(v)])).toString(), 'form-urlencoded', 'application/x-www-form-urlencoded');
  add('content-type', 'body', JSON.stringify(base), 'application/xml', 'application/xml');
  add('content-type', 'body', JSON.stringify(base), 'no content type', null);
  add('content-type', 'body', Buffer.from(JSON.stringify(base), 'utf16le'), 'UTF-16 JSON', 'application/json; charset=utf-16le');
  add('content-type', 'body', JSON.stringify(base), 'type with garbage parameters', 'application/json;;; charset="\u00ff"; boundary');
  add('content-type', 'body', JSON.stringify(base), 'multipart type without a boundary', 'multipart/form-data');
  add('deep-json', 'body', deepArray(), `[ × ${DEEP}`);
  add('deep-json', 'body', deepObject(), `{"a": × ${DEEP}`);
  add('oversized', 'body', JSON.stringify({ ...(base as object), padding: 'x'.repeat(1024 * 1024 + 16) }), 'JSON over 1 MB');
  add('oversized', 'body', `[${'1,'.repeat(600_000)}1]`, 'array of 600 001 numbers (1.2 MB)');
  return cases;
}

function cursorCases(op: Operation, ctx: CaseContext, baseQuery: [string, string][]): Case[] {
  const cases: Case[] = [];
  const encode = (values: unknown) => Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
  const add = (cls: InputClass, where: string, pairs: [string, string][], values: unknown, cursor = encode(values)) =>
    cases.push({
      cls,
      where,
      params: {},
      query: queryString([...baseQuery, ...pairs, ['cursor', cursor]]),
      show: `${pairs.map(([k, v]) => `${k}=${v} `).join('')}cursor=${shown(values, 120)}`,
    });
  const HOSTILE: [InputClass, unknown][] = [
    ['int-range', 2147483648],
    ['int-range', -2147483649],
    ['int-range', 9007199254740991],
    ['int-range', 1e300],
    ['int-range', -1e300],
    ['int-range', 1.5],
    ['int-range', -1],
    ['cursor', 'x'],
    ['cursor', '2147483648'],
    ['cursor', '9999-99-99T99:99:99Z'],
    ['cursor', '0001-01-01T00:00:00Z'],
    ['cursor', '294277-01-01T00:00:00Z'],
    ['cursor', '00000000-0000-0000-0000-000000000000'],
    ['surrogate-nul', '\ud800'],
    ['surrogate-nul', 'a\u0000b'],
    ['cursor', [1, [2, [3]]]],
    ['cursor', { a: 1 }],
    ['cursor', null],
    ['cursor', true],
    ['cursor', 'я'.repeat(30)],
  ];
  for (const { name, pairs, cursor } of ctx.cursors) {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    for (let i = 0; i < values.length; i++) {
      for (const [cls, v] of HOSTILE) add(cls, `query.cursor[${i}] (${name})`, pairs, values.map((x, j) => (j === i ? v : x)));
    }
    add('cursor', `query.cursor (${name}, one value more)`, pairs, [...values, values.at(-1)]);
    add('cursor', `query.cursor (${name}, one value less)`, pairs, values.slice(0, -1));
    for (const other of ctx.cursors) if (other.name !== name) add('cursor', `query.cursor (${name} cursor, ${other.name} order)`, other.pairs, values);
  }
  // Made-up cursors of every length (all a listing gets when it has no second page), not base64url ones,
  // and random ones from fast-check.
  const tagOf = (cursor: string) => (cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[])[0] : 'new');
  const tag = tagOf(ctx.cursors[0]?.cursor ?? '');
  for (const v of [[], [tag], [tag, 2147483648], [tag, 2147483648, '00000000-0000-4000-8000-000000000000'], [tag, 1e300, 1e300, 1e300], [[[[]]]], {}, 'x', 1]) {
    add('cursor', 'query.cursor (made up)', [], v);
  }
  for (const raw of ['', '====', 'a', '%ED%A0%80', 'AAAA'.repeat(51), '!!!!']) {
    cases.push({ cls: 'cursor', where: 'query.cursor (not base64url)', params: {}, query: `${queryString(baseQuery)}&cursor=${raw}`, show: `cursor=${raw.slice(0, 40)}` });
  }
  if (ctx.runs > 0) {
    const value = fc.oneof(
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.double(),
      fc.string({ maxLength: 30 }),
      fc.uuid(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    const listings = ctx.cursors.length ? ctx.cursors : [{ name: 'new', pairs: [] as [string, string][], cursor: '' }];
    const arb = fc.tuple(fc.constantFrom(...listings), fc.array(value, { minLength: 0, maxLength: 5 }));
    for (const [listing, rest] of fc.sample(arb, { seed: ctx.seed ^ hash(`cursor ${op.path}`), numRuns: ctx.runs })) {
      add('cursor', 'query.cursor (fast-check)', listing.pairs, [tagOf(listing.cursor), ...rest]);
    }
  }
  return cases;
}

/** A small stable hash of a string (fast-check seeds per operation). */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export type { Param };
