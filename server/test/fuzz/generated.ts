import fc from 'fast-check';
import type { z } from 'zod';
import { normaliseStrings } from '../../lib/text.ts';
import { multipartBody, PNG, type Part } from '../multipart.ts';
import { hash, pct, queryString, shown, type Case } from './cases.ts';
import type { Operation } from './operations.ts';
import { concrete, positions, setAt, typeOf, validValue, pathText, type Hints, type Json, type JsonPath, type JsonSchema } from './schema.ts';

// Bad requests drawn by fast-check, `count` per endpoint from a fixed seed: the endpoint's valid request with one
// to three parts made bad. Where the endpoint has schemas (the contract's, else the OpenAPI document's) the bad
// values are aimed at them: another JSON type, numbers out of range or not integers, strings too long or too
// short, outside the enum or the pattern, Unicode junk (controls, NUL, lone surrogates, bidi marks, combining
// marks), arrays with too many items, required fields left out, unknown fields added, path parameters that are
// no id. Endpoints without schemas get generic junk: random query pairs, random JSON bodies, random path tails,
// random multipart bodies.
//
// Each case says whether the contract refuses it (`refused`): the same parse the server runs (strings normalised
// first, server/lib/text.ts), on the request as the server will read it. A refused request must never get a 2xx.

export interface GeneratedContext {
  hints: Hints;
  /** The real value of a path parameter (the id the valid request names). */
  realParam(name: string): string;
  count: number;
  seed: number;
}

/** A request as parts the server will read, before it is written out. */
interface Draft {
  params: Record<string, string>;
  /** Raw path segments that are not a decodable string (a broken escape): the contract cannot judge them. */
  rawParams: Record<string, string>;
  query: [string, string][];
  body: Json | undefined;
  /** What was made bad, for the report. */
  notes: string[];
}

type Mutation = (draft: Draft) => void;

/** The body to set a field in: a whole-body mutation before may have left something that is no object. */
const objectBody = (d: Draft): Json => (d.body !== null && typeof d.body === 'object' ? d.body : {});

// ---------------------------------------------------------------------------------------------------------
// Junk
// ---------------------------------------------------------------------------------------------------------

/** Characters that trip naive code: controls, NUL, bidi and zero-width marks, combining marks, quotes, escapes. */
const NASTY = ['\u0000', '\u0001', '\u001f', '\u007f', '\u202e', '\u200b', '\ufeff', '\u0301', '\u2028', '\ud800', '\udfff', '\ud83d', '😀', '👨‍👩‍👧', "'", '"', '\\', '%', '_', '<', '>', '&', '=', '+', '#', '?', '/', '\n', '\r', '\t', ' ', 'я', 'Ё', '𝔘', '١'];

/** Unicode junk, lone surrogates included (they travel in JSON). */
const junkText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.array(fc.constantFrom(...NASTY), { minLength: 1, maxLength }).map((cs) => cs.join('')),
    fc.constantFrom('', ' ', '\u0000', 'null', 'undefined', 'true', '[]', '{}', "' OR 1=1 --", '<script>alert(1)</script>', '${7*7}', '../../etc/passwd'),
  );

/** The same, well-formed: what a URL can carry and a server decode back exactly. */
const wellFormed = (s: string) => (s as string & { toWellFormed(): string }).toWellFormed();
const urlText = (maxLength = 40) => junkText(maxLength).map(wellFormed);

/** Numbers a schema's range or an int4 column does not hold, and values that are no integer. */
const ODD_NUMBERS = [2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 1e-300, 0.5, -0.5, -1, 0, -0, 1e21];

function badNumber(s: JsonSchema): fc.Arbitrary<Json> {
  const c = concrete(s);
  const arbs: fc.Arbitrary<Json>[] = [fc.constantFrom(...ODD_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true })];
  if (typeof c.minimum === 'number') arbs.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => c.minimum! - d));
  if (typeof c.maximum === 'number') arbs.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => c.maximum! + d));
  if (typeOf(c) === 'integer') arbs.push(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((v) => !Number.isInteger(v)));
  return fc.oneof(...arbs);
}

function badString(s: JsonSchema): fc.Arbitrary<Json> {
  const c = concrete(s);
  const arbs: fc.Arbitrary<Json>[] = [junkText()];
  const max = c.maxLength ?? 1000;
  arbs.push(fc.integer({ min: 1, max: 2000 }).map((extra) => 'я'.repeat(max + extra)));
  if (c.minLength && c.minLength > 0) arbs.push(fc.string({ maxLength: c.minLength - 1 }));
  if (c.enum?.length) arbs.push(fc.string({ maxLength: 20 }).filter((v) => !c.enum!.includes(v)));
  if (c.format === 'uuid') arbs.push(fc.uuid().map((u) => u.slice(0, -1)), fc.uuid().map((u) => `${u}0`), fc.uuid().map((u) => u.replace(/-/g, '')));
  return fc.oneof(...arbs);
}

/** Values of another JSON type than the schema's. */
function otherType(s: JsonSchema): fc.Arbitrary<Json> {
  const t = typeOf(s);
  const all: [string, fc.Arbitrary<Json>][] = [
    ['string', junkText(10)],
    ['number', fc.integer()],
    ['boolean', fc.boolean()],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) as fc.Arbitrary<Json>],
    ['object', fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) as fc.Arbitrary<Json>],
    ['null', fc.constant(null)],
  ];
  const same = t === 'integer' ? 'number' : t;
  return fc.oneof(...all.filter(([k]) => k !== same && !(k === 'null' && concrete(s).nullable)).map(([, a]) => a));
}

/** A value the schema should refuse, leaning on what it says (range, length, enum, pattern, items). */
function badValue(s: JsonSchema, name: string, hints: Hints): fc.Arbitrary<Json> {
  const c = concrete(s);
  const arbs: fc.Arbitrary<Json>[] = [otherType(c)];
  switch (typeOf(c)) {
    case 'integer':
    case 'number':
      arbs.push(badNumber(c), badNumber(c));
      break;
    case 'string':
      arbs.push(badString(c), badString(c));
      break;
    case 'array': {
      const item = c.items ? validValue(c.items, name, hints) : 'x';
      arbs.push(fc.integer({ min: 1, max: 20 }).map((extra) => Array.from({ length: (c.maxItems ?? 1000) + extra }, () => item)));
      if (c.items) arbs.push(fc.array(badValue(c.items, name, hints), { minLength: 1, maxLength: 3 }));
      break;
    }
    case 'object':
      arbs.push(fc.dictionary(junkText(12), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }) as fc.Arbitrary<Json>);
      break;
  }
  arbs.push(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>);
  return fc.oneof(...arbs);
}

/** Query values as text: numbers out of range or malformed, long text, enum misses, junk. */
function badQueryText(s: JsonSchema | undefined): fc.Arbitrary<string> {
  const c = s ? concrete(s) : {};
  return fc.oneof(
    fc.constantFrom('2147483648', '-2147483649', '9007199254740993', '99999999999999999999', '1e400', '1.5', '-1', '-0', '0x10', '0b1', 'NaN', 'Infinity', ' 1', '1 ', ''),
    fc.integer().map(String),
    fc.double().map(String),
    fc.integer({ min: 1, max: 1500 }).map((extra) => 'я'.repeat((c.maxLength ?? 500) + extra)),
    fc.string({ maxLength: 20 }).filter((v) => !c.enum?.includes(v)),
    urlText(),
  );
}

/** Field names a client must never set, and odd ones. */
const EXTRA_KEYS = ['id', '_id', 'role', 'roles', 'isAdmin', 'admin', 'status', 'sellerId', 'customerId', 'ownerId', 'userId', 'emailConfirmedAt', 'tokenVersion', 'rating', 'views', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''];
const extraKey = fc.oneof(fc.constantFrom(...EXTRA_KEYS), junkText(12).filter((k) => k !== '__proto__'));

/** Path parameter values: ids of nothing, ids in other spellings, no ids at all, long, junk. */
const badParam = fc.oneof(
  fc.uuid().map((u) => ({ value: u })),
  fc.uuid().map((u) => ({ value: u.toUpperCase() })),
  fc.uuid().map((u) => ({ value: u.slice(0, 35) })),
  fc.uuid().map((u) => ({ value: `${u}x` })),
  fc.integer().map((i) => ({ value: String(i) })),
  fc.integer({ min: 101, max: 400 }).map((length) => ({ value: 'a'.repeat(length) })),
  urlText(60).map((value) => ({ value })),
  fc.constantFrom('%', '%E0%A4%A', '%ED%A0%80', '%00', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%C0%AF').map((raw) => ({ raw })),
).filter((v) => ('raw' in v ? true : v.value.length > 0 && v.value !== '.' && v.value !== '..'));

// ---------------------------------------------------------------------------------------------------------
// Mutations of a valid request
// ---------------------------------------------------------------------------------------------------------

function mutationsOf(op: Operation, hints: Hints, body: JsonSchema | undefined): fc.Arbitrary<Mutation>[] {
  const out: { weight: number; arbitrary: fc.Arbitrary<Mutation> }[] = [];

  if (op.pathParams.length && !op.path.endsWith('{*}')) {
    const names = op.pathParams.map((p) => p.name);
    out.push({
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...names), badParam).map(([name, v]): Mutation => (d) => {
        if ('raw' in v) d.rawParams[name] = v.raw!;
        else d.params[name] = v.value!;
        d.notes.push(`path.${name}=${shown('raw' in v ? v.raw : v.value, 50)}`);
      }),
    });
  }

  // Query: a known parameter made bad, given twice, or left out; an unknown one added.
  const known = op.query;
  if (known.length) {
    out.push({
      weight: 2,
      arbitrary: fc
        .constantFrom(...known)
        .chain((p) => fc.tuple(fc.constant(p), fc.array(badQueryText(p.schema), { minLength: 1, maxLength: 2 }), fc.nat({ max: 9 })))
        .map(([p, values, roll]): Mutation => (d) => {
          d.query = d.query.filter(([k]) => k !== p.name);
          if (roll === 0 && p.required) {
            d.notes.push(`query.${p.name} missing`);
            return;
          }
          for (const v of values) d.query.push([p.name, v]);
          d.notes.push(`query.${p.name}=${shown(values.length > 1 ? values : values[0], 50)}`);
        }),
    });
  }
  out.push({
    weight: known.length ? 1 : 2,
    arbitrary: fc.tuple(urlText(12), badQueryText(undefined)).map(([k, v]): Mutation => (d) => {
      d.query.push([k, v]);
      d.notes.push(`query+${shown(k, 20)}=${shown(v, 30)}`);
    }),
  });

  if (op.method !== 'GET' && !op.multipart) {
    const root: JsonSchema = body ?? { type: 'object', properties: {} };
    const spots = body ? positions(root) : [];
    if (spots.length) {
      // A field made bad.
      out.push({
        weight: 6,
        arbitrary: fc.constantFrom(...spots).chain((pos) =>
          badValue(pos.schema, pos.name, hints).map((value): Mutation => (d) => {
            d.body = setAt(objectBody(d), pos.path, value, root, hints);
            d.notes.push(`body.${pathText(pos.path)}=${shown(value, 50)}`);
          }),
        ),
      });
      // A field left out.
      const removable = spots.filter((p) => typeof p.path.at(-1) === 'string');
      if (removable.length) {
        out.push({
          weight: 2,
          arbitrary: fc.constantFrom(...removable).map((pos): Mutation => (d) => {
            d.body = setAt(objectBody(d), pos.path, undefined, root, hints);
            d.notes.push(`body.${pathText(pos.path)} missing`);
          }),
        });
      }
    }
    // An unknown field added, at the root or in an object inside.
    const objects: JsonPath[] = [[], ...spots.filter((p) => typeOf(p.schema) === 'object').map((p) => p.path)];
    out.push({
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...objects), extraKey, fc.jsonValue({ maxDepth: 2 })).map(([at, key, value]): Mutation => (d) => {
        const base = d.body !== null && typeof d.body === 'object' && !Array.isArray(d.body) ? d.body : {};
        const target = at.length ? (setAt(base, [...at, key], value as Json, root, hints) as Record<string, Json>) : { ...base };
        if (!at.length) Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
        d.body = target;
        d.notes.push(`body.${pathText([...at, key])}+=${shown(value, 40)}`);
      }),
    });
    // The whole body something else.
    out.push({
      weight: 1,
      arbitrary: fc.oneof(otherType(root), fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>).map((value): Mutation => (d) => {
        d.body = value;
        d.notes.push(`body=${shown(value, 50)}`);
      }),
    });
  }
  return out.length ? [fc.oneof(...out)] : [];
}

// ---------------------------------------------------------------------------------------------------------
// Endpoints without a JSON body of their own: a file by path, an upload
// ---------------------------------------------------------------------------------------------------------

/** Random tails of a wildcard path (/uploads/{*}): segments of junk, traversal, escapes, real-looking names. */
const wildcardTail = fc
  .array(
    fc.oneof(
      urlText(30).filter((s) => s.length > 0 && s !== '.' && s !== '..').map((s) => pct(s)),
      fc.constantFrom('%2e%2e', '%2F', '%00', '%', '%ED%A0%80', '..%2F', 'a%2Fb', '~', '$', '*'),
      fc.uuid(),
      fc.tuple(fc.uuid(), fc.stringMatching(/^[0-9a-f]{32}$/), fc.constantFrom('png', 'jpg', 'PNG', 'exe', '', 'png.html')).map(([u, h, e]) => `${u}/${h}${e ? `.${e}` : ''}`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((segments) => segments.join('/'));

const BOUNDARY = '----podryadfuzz0PqLmN';
const partArb: fc.Arbitrary<Part> = fc.record({
  name: fc.oneof(fc.constant('file'), fc.constant('file'), junkText(10).map(wellFormed)),
  filename: fc.option(fc.oneof(fc.constant('a.png'), urlText(40), fc.integer({ min: 256, max: 5000 }).map((n) => `${'я'.repeat(n)}.png`)), { nil: undefined }),
  type: fc.option(fc.constantFrom('image/png', 'text/plain', 'application/octet-stream', 'text/html', 'application/x-msdownload', 'image/svg+xml', ''), { nil: undefined }),
  data: fc.oneof(
    fc.constant(PNG),
    fc.nat({ max: PNG.length - 1 }).map((n) => PNG.subarray(0, n)),
    fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
    fc.constant(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')),
    fc.constant(Buffer.from('<!doctype html><script>alert(1)</script>')),
    urlText(200),
  ),
});
const multipartArb = fc
  .record({
    parts: fc.array(partArb, { minLength: 0, maxLength: 4 }),
    header: fc.constantFrom('ok', 'ok', 'ok', 'no boundary', 'other boundary', 'json', 'none'),
    cut: fc.option(fc.nat({ max: 4000 }), { nil: undefined, freq: 3 }),
  })
  .map(({ parts, header, cut }) => {
    const { payload } = multipartBody(parts, { boundary: BOUNDARY, close: cut === undefined });
    const body = cut === undefined ? payload : payload.subarray(0, Math.min(cut, payload.length));
    const contentType = {
      ok: `multipart/form-data; boundary=${BOUNDARY}`,
      'no boundary': 'multipart/form-data',
      'other boundary': 'multipart/form-data; boundary=nope',
      json: 'application/json',
      none: null,
    }[header];
    const note = `${parts.length} part(s) [${parts.map((p) => `${shown(p.name, 12)}:${p.filename === undefined ? '-' : shown(p.filename, 16)}:${p.type ?? '-'}:${p.data.length}B`).join(' ')}] ${header}${cut === undefined ? '' : ` cut at ${cut}`}`;
    return { payload: body, contentType, note };
  });

// ---------------------------------------------------------------------------------------------------------

/** Whether the contract refuses the request: false when it accepts it, undefined when it cannot say. */
function refusedByContract(op: Operation, d: Draft, json: string | undefined): boolean | undefined {
  const c = op.contract;
  if (!c || Object.keys(d.rawParams).length) return undefined;
  const parse = (schema: z.ZodType | undefined, value: unknown) => !schema || schema.safeParse(normaliseStrings(structuredClone(value))).success;
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of d.query) {
    // Own keys only: a hostile key such as `toString` must not find Object.prototype's function.
    const had = Object.hasOwn(query, k) ? query[k] : undefined;
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const ok = parse(c.params, d.params) && parse(c.query, query) && (op.method === 'GET' || parse(c.body, json === undefined ? undefined : JSON.parse(json)));
  return !ok;
}

/** `ctx.count` bad requests of the operation, drawn from a seed of its own. */
export function generatedCases(op: Operation, ctx: GeneratedContext): Case[] {
  const { hints } = ctx;
  const seed = ctx.seed ^ hash(`bad ${op.method} ${op.path}`);
  const cases: Case[] = [];
  const baseParams = Object.fromEntries(op.pathParams.filter((p) => p.name !== '*').map((p) => [p.name, ctx.realParam(p.name)]));
  const baseQuery: [string, string][] = op.query.filter((p) => p.required).map((p) => [p.name, String(validValue(p.schema, p.name, hints))]);
  const body = op.body;
  const baseBody = body ? validValue(body, '', hints) : undefined;

  if (op.path.endsWith('{*}')) {
    for (const tail of fc.sample(wildcardTail, { seed, numRuns: ctx.count })) {
      cases.push({ cls: 'generated', where: 'path tail', params: { '*': tail }, query: '', show: shown(tail, 120) });
    }
    return cases;
  }
  if (op.multipart) {
    const arb = fc.tuple(multipartArb, fc.option(fc.tuple(urlText(12), badQueryText(undefined)), { freq: 4 }));
    for (const [m, extra] of fc.sample(arb, { seed, numRuns: ctx.count })) {
      const query = extra ? queryString([extra]) : '';
      cases.push({ cls: 'generated', where: 'multipart', params: {}, query, body: { payload: m.payload, contentType: m.contentType }, show: m.note });
    }
    return cases;
  }

  const mutations = mutationsOf(op, hints, body);
  if (!mutations.length) return cases;
  const arb = fc.array(mutations[0]!, { minLength: 1, maxLength: 3 });
  for (const list of fc.sample(arb, { seed, numRuns: ctx.count })) {
    const d: Draft = { params: { ...baseParams }, rawParams: {}, query: [...baseQuery], body: structuredClone(baseBody), notes: [] };
    for (const mutate of list) mutate(d);
    const params = Object.fromEntries([...Object.entries(d.params).map(([k, v]) => [k, pct(v)]), ...Object.entries(d.rawParams)]);
    const json = d.body === undefined ? undefined : JSON.stringify(d.body);
    cases.push({
      cls: 'generated',
      where: d.notes.join('; '),
      params,
      query: queryString(d.query),
      body: json === undefined ? undefined : { payload: json, contentType: 'application/json' },
      show: shown({ params: d.params, raw: d.rawParams, query: d.query, body: d.body }, 200),
      refused: refusedByContract(op, d, json),
    });
  }
  return cases;
}
