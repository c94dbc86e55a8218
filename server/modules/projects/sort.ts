import { and, isNull, sql, type SQL } from 'drizzle-orm';
import { projects } from './schema.ts';
import { cursorParam, cursorPosition, keysetAfter, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import type { ProjectRecord } from './presenter.ts';

/** The orders of the lists: each a total order ending with the id, so a cursor is a position in it. */
export const PROJECT_SORT_KEYS = {
  new: [
    { expr: projects.createdAt, dir: 'desc', kind: 'timestamptz' },
    { expr: projects.id, dir: 'desc', kind: 'uuid' },
  ],
  bids: [
    { expr: projects.bidsCount, dir: 'desc', kind: 'int4' },
    { expr: projects.id, dir: 'desc', kind: 'uuid' },
  ],
  // "By agreement" (NULL budget) last, as orderBy writes desc keys and as the index (budget desc nulls last, id
  // desc) holds them; the only nullable key, so its cursor position is handled apart in after().
  budget_desc: [
    { expr: projects.budget, dir: 'desc', kind: 'int4?' },
    { expr: projects.id, dir: 'desc', kind: 'uuid' },
  ],
} as const satisfies Record<string, readonly SortKey[]>;
export type ProjectSort = keyof typeof PROJECT_SORT_KEYS;

/** The cursor values of a row in a sort; the sort's name goes first, so a cursor made for another is refused. */
export function cursorOf(sort: ProjectSort, r: ProjectRecord): CursorValue[] {
  const values: Record<ProjectSort, CursorValue[]> = {
    new: [r.createdKey, r.project.id],
    bids: [r.project.bidsCount, r.project.id],
    budget_desc: [r.project.budget, r.project.id],
  };
  return [sort, ...values[sort]];
}

/**
 * "Strictly after" the position of a cursor in a sort (400 when malformed), as segments of the order to read
 * one after another: one segment for most sorts, none without a cursor. After a budget, budget_desc reads two —
 * the smaller budgets, then the NULLs ("by agreement") — because `row < cursor OR budget IS NULL` is no index
 * range and would make PostgreSQL walk the index from its start (an OFFSET in disguise); each segment alone is
 * one range of the index (budget desc nulls last, id desc).
 */
export function after(sort: ProjectSort, cursor: string | undefined): SQL[] | null {
  if (!cursor) return null;
  const keys = PROJECT_SORT_KEYS[sort];
  const values = cursorPosition(cursor, sort, keys);
  if (sort !== 'budget_desc') return [keysetAfter(keys, values)];
  const [budget, id] = values as [number | null, string];
  const [budgetKey, idKey] = keys;
  const idBefore = sql`${projects.id} < ${cursorParam(idKey, id)}`;
  if (budget === null) return [and(isNull(projects.budget), idBefore)!];
  return [sql`(${projects.budget}, ${projects.id}) < (${cursorParam(budgetKey, budget)}, ${cursorParam(idKey, id)})`, isNull(projects.budget)];
}
