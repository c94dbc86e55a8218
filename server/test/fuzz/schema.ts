import fc from 'fast-check';

// JSON schemas as the OpenAPI document shows them (zod → JSON schema through fastify-type-provider-zod):
// valid values to start from, the positions inside them, and fast-check arbitraries of schema-valid values.

export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonPath = (string | number)[];

/** Known good values by field name, so that a base request gets past validation into the handler. */
export type Hints = Record<string, () => Json>;

/** The first concrete alternative of a schema (anyOf/oneOf/allOf flattened the simple way). */
export function concrete(schema: JsonSchema): JsonSchema {
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) {
    const nonNull = alt.find((s) => s.type !== 'null') ?? alt[0]!;
    return { ...concrete(nonNull), nullable: schema.nullable || alt.some((s) => s.type === 'null') };
  }
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map(concrete)) as JsonSchema;
  return schema;
}

export function typeOf(schema: JsonSchema): string {
  const s = concrete(schema);
  if (s.enum?.length) return typeof s.enum[0] === 'number' ? 'number' : typeof s.enum[0] === 'boolean' ? 'boolean' : 'string';
  if (s.const !== undefined) return typeof s.const;
  const t = Array.isArray(s.type) ? (s.type.find((x) => x !== 'null') ?? 'string') : s.type;
  if (t) return t;
  if (s.properties || s.additionalProperties) return 'object';
  if (s.items) return 'array';
  return 'string';
}

const bounds = (s: JsonSchema) => {
  let min = s.minimum ?? -1_000_000;
  let max = s.maximum ?? 1_000_000;
  if (typeof s.exclusiveMinimum === 'number') min = s.exclusiveMinimum + 1;
  if (typeof s.exclusiveMaximum === 'number') max = s.exclusiveMaximum - 1;
  return { min, max };
};

/** A string matching the schema's pattern and length, drawn deterministically from `seed`. */
function patternString(s: JsonSchema, seed: number): string {
  const re = new RegExp(s.pattern!);
  const arb = fc.stringMatching(re).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
  return fc.sample(arb, { seed, numRuns: 1 })[0]!;
}

const RUSSIAN = 'Проверочный текст для поля, достаточно длинный, чтобы пройти проверку длины. ';

/** A valid, ordinary value of `schema` (every optional property included, one item per array). */
export function validValue(schema: JsonSchema, name: string, hints: Hints, seed = 1): Json {
  const s = concrete(schema);
  const hint = hints[name] && typeOf(s) !== 'object' ? hints[name]() : undefined;
  // A hint that the schema's enum does not allow is for another field of the same name.
  if (hint !== undefined && (!s.enum || s.enum.includes(hint))) return hint;
  if (s.const !== undefined) return s.const as Json;
  if (s.enum?.length) return s.enum[0] as Json;
  switch (typeOf(s)) {
    case 'integer':
    case 'number': {
      const { min, max } = bounds(s);
      return Math.max(min, Math.min(max, Math.max(1, min)));
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = s.items ? validValue(s.items, name, hints, seed) : 'x';
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => item).slice(0, s.maxItems ?? 1);
    }
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) out[key] = validValue(sub, key, hints, seed);
      return out;
    }
    default: {
      if (s.format === 'uuid') return fc.sample(fc.uuid({ version: 4 }), { seed, numRuns: 1 })[0]!;
      if (s.pattern) return patternString(s, seed);
      const min = s.minLength ?? 0;
      const max = s.maxLength ?? 200;
      let text = RUSSIAN;
      while (text.length < min) text += RUSSIAN;
      return text.slice(0, Math.max(min, Math.min(max, 24))).trimEnd().padEnd(min, 'я');
    }
  }
}

export interface Position {
  path: JsonPath;
  schema: JsonSchema;
  /** The field name the position belongs to (for hints and reports). */
  name: string;
  required: boolean;
}

/** Every position a schema describes: objects' properties, arrays' first item, free-form maps' key "k". */
export function positions(schema: JsonSchema, base: JsonPath = [], name = '', required = true): Position[] {
  const s = concrete(schema);
  const here: Position = { path: base, schema: s, name, required };
  const out: Position[] = base.length ? [here] : [];
  const t = typeOf(s);
  if (t === 'object') {
    for (const [key, sub] of Object.entries(s.properties ?? {})) out.push(...positions(sub, [...base, key], key, (s.required ?? []).includes(key)));
    if (typeof s.additionalProperties === 'object') out.push(...positions(s.additionalProperties, [...base, 'k'], 'k', false));
  } else if (t === 'array' && s.items) {
    out.push(...positions(s.items, [...base, 0], name, true));
  }
  return out;
}

const clone = <T extends Json | undefined>(v: T): T => (v === undefined ? v : (structuredClone(v) as T));

/**
 * `value` with `path` set to `leaf` (containers created on the way from the schema's valid values), or with it
 * removed when `leaf` is undefined.
 */
export function setAt(value: Json, path: JsonPath, leaf: Json | undefined, schema: JsonSchema, hints: Hints): Json {
  if (path.length === 0) return clone(leaf as Json);
  const root = clone(value);
  let node = root as Record<string | number, Json>;
  let sub = concrete(schema);
  for (const [i, key] of path.entries()) {
    const childSchema = concrete(
      typeof key === 'number' ? (sub.items ?? {}) : (sub.properties?.[key] ?? (typeof sub.additionalProperties === 'object' ? sub.additionalProperties : {})),
    );
    if (i === path.length - 1) {
      if (leaf === undefined) {
        if (Array.isArray(node)) node.splice(key as number, 1);
        else delete node[key];
      } else node[key] = clone(leaf);
      break;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      // A hint may say "none" (null) for a container the path goes into: the schema's own valid value then.
      const made = validValue(childSchema, String(key), hints);
      node[key] = made !== null && typeof made === 'object' ? made : validValue(childSchema, String(key), {});
    }
    node = node[key] as Record<string | number, Json>;
    sub = childSchema;
  }
  return root;
}

export const pathText = (path: JsonPath) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(root)';

// ---------------------------------------------------------------------------------------------------------
// Schema-valid but odd: boundaries, unusual Unicode, optional parts left out, nulls where allowed.
// ---------------------------------------------------------------------------------------------------------

/** Characters that are valid text but trip naive code: combining marks, RTL, zero-width, emoji, quotes, SQL, HTML. */
const ODD_CHARS = ['\u0301', '\u202e', '\u200b', '\ufeff', '😀', '👨‍👩‍👧', "'", '"', '\\', '%', '_', '<', '>', '&', '\n', '\t', ' ', 'я', 'Ё', '𝔘', '\u00a0', '\u2028', '１', '٣'];

function oddString(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 300, 4000);
  const char = fc.oneof(fc.constantFrom(...ODD_CHARS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), fc.constantFrom('a', '1', ' '));
  const joined = (lo: number, hi: number) => fc.array(char, { minLength: lo, maxLength: hi }).map((cs) => cs.join(''));
  const inRange = (v: string) => v.length >= min && v.length <= max;
  return fc.oneof(
    joined(min, Math.min(max, min + 40)).filter(inRange),
    fc.constant('ж'.repeat(max)),
    fc.constant('ж'.repeat(min)),
    fc.constant(' '.repeat(Math.max(min, 1)).slice(0, max)),
  ).filter(inRange);
}

/** An arbitrary of values that the schema accepts, leaning to its edges. */
export function schemaArb(schema: JsonSchema, name: string, hints: Hints): fc.Arbitrary<Json> {
  const s = concrete(schema);
  const withNull = (arb: fc.Arbitrary<Json>) => (s.nullable ? fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }) : arb);
  const hinted = (arb: fc.Arbitrary<Json>) => (hints[name] ? fc.oneof(fc.constant(null).map(() => hints[name]!()), arb) : arb);
  if (s.const !== undefined) return fc.constant(s.const as Json);
  if (s.enum?.length) return withNull(fc.constantFrom(...(s.enum as Json[])));
  switch (typeOf(s)) {
    case 'integer': {
      const { min, max } = bounds(s);
      const lo = Math.max(min, Number.MIN_SAFE_INTEGER);
      const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
      return withNull(hinted(fc.oneof(fc.constantFrom(lo, hi, Math.min(hi, lo + 1), Math.max(lo, hi - 1)), fc.integer({ min: Math.max(lo, -(2 ** 31)), max: Math.min(hi, 2 ** 31 - 1) }))));
    }
    case 'number': {
      const { min, max } = bounds(s);
      return withNull(fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true })));
    }
    case 'boolean':
      return withNull(fc.boolean());
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = s.items ? schemaArb(s.items, name, hints) : fc.string();
      const maxLength = Math.min(s.maxItems ?? 5, 12);
      return withNull(hinted(fc.array(item, { minLength: s.minItems ?? 0, maxLength })));
    }
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const [key, sub] of props) model[key] = schemaArb(sub, key, hints);
      let arb: fc.Arbitrary<Json> = fc.record(model, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) }) as fc.Arbitrary<Json>;
      if (typeof s.additionalProperties === 'object') {
        const extra = fc.dictionary(oddString({ minLength: 1, maxLength: 40 }), schemaArb(s.additionalProperties, 'k', hints), { maxKeys: 5 });
        arb = fc.tuple(arb, extra).map(([a, b]) => ({ ...b, ...(a as Record<string, Json>) }));
      }
      return withNull(arb);
    }
    default: {
      if (s.format === 'uuid') return withNull(hinted(fc.uuid()));
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        return withNull(hinted(fc.stringMatching(re).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity))));
      }
      return withNull(hinted(oddString(s)));
    }
  }
}
