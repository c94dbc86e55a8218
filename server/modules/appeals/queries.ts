import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { appeals, type AppealRow } from './schema.ts';
import { people, type UserRow } from '../users/index.ts';
import { filesByPaths, presentFiles } from '../../platform/files.ts';
import { cursorPosition, escapeLike, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { cappedTotal } from '../../platform/listing/totals.ts';
import type { adminAppealsQuerySchema, Appeal, myAppealsQuerySchema } from '#contract/appeals';
import type { AppealServiceDeps, Page } from './deps.ts';
import { appealPolicy } from './policy.ts';

// Appeals as their authors and the admins read them: one, the author's list and the admin area's queue.

const author = people('appeal_author');
const admin = people('appeal_admin');
const authorColumns = { id: author.id, name: author.name, surname: author.surname, userName: author.userName, avatar: author.avatar };
const adminColumns = { id: admin.id, name: admin.name, surname: admin.surname, userName: admin.userName, avatar: admin.avatar };

const SORT: readonly SortKey[] = [
  { expr: appeals.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: appeals.id, dir: 'desc', kind: 'uuid' },
];

type Person = { id: string; name: string; surname: string; userName: string; avatar: string | null };
interface AppealRecord {
  appeal: AppealRow;
  author: Person;
  admin: Person | null;
  createdKey: string;
}

const party = (u: Person) => ({ _id: u.id, name: u.name, surname: u.surname, user_name: u.userName, avatar: u.avatar });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Appeals with their authors and the admins who took them. */
function appealRecords(db: Db) {
  return db
    .select({ appeal: appeals, author: authorColumns, admin: adminColumns, createdKey: timestampKey(appeals.createdAt) })
    .from(appeals)
    .innerJoin(author, eq(author.id, appeals.authorId))
    .leftJoin(admin, eq(admin.id, appeals.adminId))
    .$dynamic();
}

/** The documents of the API; `forAdmin`: the object's link is the admin area's. */
async function presentAppeals(db: Db, records: AppealRecord[], forAdmin: boolean): Promise<Appeal[]> {
  const files = await filesByPaths(db, records.flatMap((r) => r.appeal.files));
  return records.map(({ appeal: a, author: who, admin: by }) => ({
    _id: a.id,
    number: a.number,
    subject: a.subject,
    object:
      a.objectType && a.objectId
        ? { type: a.objectType, _id: a.objectId, title: a.objectTitle ?? '', link: (forAdmin ? a.objectAdminPath : a.objectPath) ?? null }
        : null,
    text: a.text,
    files: presentFiles(a.files, files),
    status: a.status,
    author: party(who),
    admin: by && by.id ? party(by) : null,
    answer: a.answer,
    created_at: a.createdAt.toISOString(),
    taken_at: iso(a.takenAt),
    closed_at: iso(a.closedAt),
  }));
}

/** One keyset page of appeals matching `where`, newest first. */
async function listAppeals(deps: AppealServiceDeps, where: SQL | undefined, query: { cursor?: string | undefined; limit: number }, forAdmin: boolean): Promise<Page<Appeal>> {
  const position = query.cursor ? keysetAfter(SORT, cursorPosition(query.cursor, 'appeals', SORT)) : undefined;
  const [rows, total] = await Promise.all([
    appealRecords(deps.db)
      .where(and(where, position))
      .orderBy(...orderBy(SORT))
      .limit(query.limit + 1),
    cappedTotal(
      deps.db,
      deps.db
        .select({ one: sql`1` })
        .from(appeals)
        .innerJoin(author, eq(author.id, appeals.authorId))
        .where(where)
        .$dynamic(),
    ),
  ]);
  const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['appeals', r.createdKey, r.appeal.id]);
  return { result: await presentAppeals(deps.db, kept, forAdmin), total, next };
}

/** One appeal as `viewer` may see it (appealPolicy's view: its author and admins). */
export async function viewAppeal(deps: AppealServiceDeps, id: string, viewer: UserRow, forAdmin: boolean): Promise<Appeal> {
  const [record] = await appealRecords(deps.db).where(eq(appeals.id, id)).limit(1);
  appealPolicy.authorize(viewer, 'view', record?.appeal);
  const [appeal] = await presentAppeals(deps.db, [record!], forAdmin);
  return appeal!;
}

/** GET /api/appeals/my: the person's appeals, newest first. */
export function myAppeals(deps: AppealServiceDeps, user: UserRow, query: z.output<typeof myAppealsQuerySchema>): Promise<Page<Appeal>> {
  return listAppeals(deps, eq(appeals.authorId, user.id), query, false);
}

/** GET /api/appeals/{id}: one of the person's appeals (anyone else's is 404, as an unknown one). */
export async function getAppeal(deps: AppealServiceDeps, user: UserRow, id: string): Promise<Appeal> {
  const [row] = await deps.db.select({ authorId: appeals.authorId, status: appeals.status }).from(appeals).where(eq(appeals.id, id)).limit(1);
  appealPolicy.authorize(user, 'viewOwn', row);
  return viewAppeal(deps, id, user, false);
}

/** GET /api/admin/appeals: every appeal by state, subject, number or words, newest first. */
export function adminListAppeals(deps: AppealServiceDeps, query: z.output<typeof adminAppealsQuerySchema>): Promise<Page<Appeal>> {
  const where: SQL[] = [];
  if (query.status) where.push(eq(appeals.status, query.status));
  if (query.subject) where.push(eq(appeals.subject, query.subject));
  const q = query.q?.replace(/^№\s*/, '');
  if (q) {
    const like = `%${escapeLike(q)}%`;
    const words = or(
      ilike(appeals.text, like),
      ilike(appeals.objectTitle, like),
      ilike(author.email, like),
      ilike(author.userName, like),
      ilike(sql`${author.name} || ' ' || ${author.surname}`, like),
    )!;
    where.push(/^\d{1,15}$/.test(q) ? or(eq(appeals.number, Number(q)), words)! : words);
  }
  return listAppeals(deps, where.length ? and(...where) : undefined, query, true);
}
