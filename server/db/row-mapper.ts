import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

// drizzle turns each row of a select into its object with `mapResultRow`, which asks, for every cell of every row,
// what kind of field the column is (`is()` walks the prototype chain) and iterates the field's path: at a million
// services a sixth of a saturated listing's CPU (bench/README.md). A statement built once (prepared.ts) knows its
// fields once, so its rows are mapped by this instead: the same objects, each field's decoder and path found once.

/** A selected field as drizzle orders them (`orderSelectedFields`): where it goes in the row's object, and what. */
export interface OrderedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
/** An SQL chunk's decoder (internal to drizzle's types, read by its mapResultRow). */
type Decoded = { decoder: Decoder };

interface Compiled {
  path: string[];
  decoder: Decoder;
  /** A column of a joined table, two levels deep: its table, for nulling a left join's missing side. */
  table: string | null;
}

/**
 * The mapper of rows (arrays, in the fields' order) to objects for `fields`, as drizzle's `mapResultRow` maps them,
 * the nulling of a left join's missing side included (`joinsNotNullableMap`, the select's joins).
 */
export function rowsMapper(fields: readonly OrderedField[], joinsNotNullableMap: Record<string, boolean> | undefined) {
  const compiled: Compiled[] = fields.map(({ path, field }) => ({
    path,
    decoder: is(field, Column)
      ? field
      : is(field, SQL)
        ? (field as unknown as Decoded).decoder
        : is(field, Subquery)
          ? (field._.sql as unknown as Decoded).decoder
          : ((field as SQL.Aliased).sql as unknown as Decoded).decoder,
    table: joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
  }));
  const nulls = compiled.some((c) => c.table !== null);

  const mapRow = (row: unknown[]): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    // Per object of a join: the table whose first column was null, until a column of another table says otherwise.
    const nullify: Record<string, string | false> | null = nulls ? {} : null;
    for (let i = 0; i < compiled.length; i++) {
      const { path, decoder, table } = compiled[i]!;
      const raw = row[i];
      const value = raw === null ? null : decoder.mapFromDriverValue(raw);
      let node = result;
      const last = path.length - 1;
      for (let j = 0; j < last; j++) {
        const key = path[j]!;
        if (!(key in node)) node[key] = {};
        node = node[key] as Record<string, unknown>;
      }
      node[path[last]!] = value;
      if (table !== null) {
        const object = path[0]!;
        const seen = nullify![object];
        if (seen === undefined) nullify![object] = value === null ? table : false;
        else if (typeof seen === 'string' && seen !== table) nullify![object] = false;
      }
    }
    if (nullify) {
      for (const object in nullify) {
        const table = nullify[object];
        if (typeof table === 'string' && !joinsNotNullableMap![table]) result[object] = null;
      }
    }
    return result;
  };
  return (rows: unknown[][]) => rows.map(mapRow);
}
