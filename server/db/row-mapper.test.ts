import * as drizzle from 'drizzle-orm';
import { eq, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, QueryBuilder, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsMapper, type OrderedField } from './row-mapper.ts';

// The mapper of a statement built once must give exactly the objects drizzle's own mapResultRow gives, for every kind
// of field (columns with and without a decoder, SQL with one, aliased SQL, nested objects) and for left joins whose
// missing side drizzle turns into null.
//   npx vitest run server/db/row-mapper.test.ts            CI: fixed seed, ROW_MAPPER_RUNS (default 300)

// drizzle's own mapping and field ordering: exported at run time, internal to its types.
const { mapResultRow, orderSelectedFields } = drizzle as unknown as {
  mapResultRow(fields: OrderedField[], row: unknown[], joins: Record<string, boolean> | undefined): Record<string, unknown>;
  orderSelectedFields(fields: Record<string, unknown>): OrderedField[];
};

const SEED = Number(process.env.ROW_MAPPER_SEED ?? 20261127);
const RUNS = Number(process.env.ROW_MAPPER_RUNS ?? 300);

const owners = pgTable('owners', {
  id: uuid('id').primaryKey(),
  name: text('name'),
  seenAt: timestamp('seen_at', { withTimezone: true }),
});
const items = pgTable('items', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id'),
  price: integer('price').notNull(),
  tags: jsonb('tags').$type<string[]>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
const notes = pgTable('notes', { itemId: uuid('item_id'), body: text('body') });

/** A select's fields in drizzle's order and its joins' map, as its `_prepare` hands them to the prepared query. */
function shapeOf(select: unknown): { fields: OrderedField[]; joins: Record<string, boolean> } {
  const built = select as { config: { fields: Record<string, unknown> }; joinsNotNullableMap: Record<string, boolean> };
  return { fields: orderSelectedFields(built.config.fields), joins: built.joinsNotNullableMap };
}

const qb = new QueryBuilder();
const shapes = {
  'columns, SQL with a decoder, aliased SQL': shapeOf(
    qb
      .select({
        id: items.id,
        price: items.price,
        createdAt: items.createdAt,
        key: sql<string>`to_char(${items.createdAt}, 'YYYY')`.as('key'),
        n: sql<number>`count(*)`.mapWith(Number),
        tags: items.tags,
      })
      .from(items),
  ),
  'a nested object of an inner join': shapeOf(
    qb
      .select({ id: items.id, owner: { id: owners.id, name: owners.name, seenAt: owners.seenAt } })
      .from(items)
      .innerJoin(owners, eq(owners.id, items.ownerId)),
  ),
  'left joins, whole tables and a mixed object': shapeOf(
    qb
      .select({ item: items, owner: owners, note: { body: notes.body }, mixed: { a: owners.name, b: notes.body } })
      .from(items)
      .leftJoin(owners, eq(owners.id, items.ownerId))
      .leftJoin(notes, eq(notes.itemId, items.id)),
  ),
};

/** A driver's value for a field: a column's raw form (timestamps as text, as node-postgres gives them), or null. */
const cell = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
);

describe('rowsMapper', () => {
  for (const [name, { fields, joins }] of Object.entries(shapes)) {
    it(`maps rows as drizzle's mapResultRow does: ${name} (seed ${SEED}, ${RUNS} runs)`, () => {
      const mapped = rowsMapper(fields, joins);
      fc.assert(
        fc.property(fc.array(fc.array(cell, { minLength: fields.length, maxLength: fields.length }), { maxLength: 4 }), (rows) => {
          expect(mapped(rows)).toEqual(rows.map((row) => mapResultRow(fields, row, joins)));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }

  it("nulls a left join's missing side and keeps a present one, decoded", () => {
    const { fields, joins } = shapes['left joins, whole tables and a mixed object'];
    const row = (owner: unknown[], note: unknown[]) => ['i1', 'o1', 100, ['a'], '2026-11-27T00:00:00.000Z', ...owner, ...note, owner[1] ?? null, note[0] ?? null];
    const [missing, present] = rowsMapper(fields, joins)([row([null, null, null], [null]), row(['o1', 'Анна', '2026-11-26T10:00:00.000Z'], ['заметка'])]);
    expect(missing).toMatchObject({ owner: null, note: null, mixed: { a: null, b: null } });
    expect(present).toMatchObject({ owner: { id: 'o1', name: 'Анна', seenAt: new Date('2026-11-26T10:00:00.000Z') }, note: { body: 'заметка' } });
    expect(present!.item).toMatchObject({ price: 100, createdAt: new Date('2026-11-27T00:00:00.000Z') });
  });
});
