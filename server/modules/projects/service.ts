import { and, eq, gte, ilike, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { pagesChanged } from '../../platform/page-cache.ts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { favorites, projects, type ProjectStatus } from '../../db/schema/catalog.ts';
import { categories, subCategories } from '../../db/schema/lookups.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import { isUuid } from '../../lib/text.ts';
import type { Letters, ProjectDecision } from '../../platform/letters/index.ts';
import type { OutboxWriter } from '../../platform/outbox.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import type { Realtime } from '../../realtime/socket.ts';
import { audit, auditTrail } from '../../platform/audit.ts';
import { filesByPaths, ownedFile, presentFiles } from '../../platform/files.ts';
import { presentAdminProject, presentProject, projectColumns, type ProjectRecord } from './presenter.ts';
import { SeenToday } from '../../platform/listing/visitors.ts';
import { searchTsQuery, type SynonymGroups } from '../../platform/listing/search.ts';
import {
  cappedTotal,
  listingTotal,
  cursorParam,
  cursorPosition,
  escapeLike,
  keysetAfter,
  matches,
  orderBy,
  page,
  timestampKey,
  type CursorValue,
  type SortKey,
} from '../../platform/listing/listing.ts';
import type { AuditEntry } from '#contract/admin';
import {
  MODERATION_MESSAGES,
  type AdminProject,
  type adminProjectsQuerySchema,
  type projectDecisionSchema,
} from '#contract/moderation';
export type { AdminProject } from '#contract/moderation';
import { MESSAGES } from '#contract/messages';
import { isPublicProject, listedProject, projectPolicy, publicProject } from './policy.ts';
import {
  CATALOG_MESSAGES,
  type myProjectsQuerySchema,
  type Project,
  type projectInputSchema,
  type projectsQuerySchema,
} from '#contract/catalog';

// Customers' projects: publishing (at once, moderated afterwards), the public listing and page, the owner's
// list and edits, the admin area's moderation, and the archive job.

/** PRODUCT.md: an active project with no accepted bid goes to the archive after this many days. */
export const PROJECT_ARCHIVE_DAYS = 30;

/** States in which anyone may open a project's page; the public listing shows `active` only. */
/** An owner may delete a project unless an order came out of it (in_progress, closed). */
const DELETABLE_STATUSES = ['active', 'archived', 'hidden'] as const satisfies readonly ProjectStatus[];

// Candidates for contract/catalog.ts once the web client shows them.
export const PROJECT_MESSAGES = {
  notYourFile: 'Файл должен быть загружен вами',
  hideReason: MODERATION_MESSAGES.hideReason,
} as const;

type ProjectInputData = z.output<typeof projectInputSchema>;

export interface Page<T> {
  result: T[];
  total: number;
  next: string | null;
}

/** Who is connected right now (the real-time layer). */
export type Presence = Pick<Realtime, 'onlineAmong'>;

const cannotChange = () => badRequest(CATALOG_MESSAGES.cannotChange);

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
type ProjectSort = keyof typeof PROJECT_SORT_KEYS;

/** The cursor values of a row in a sort; the sort's name goes first, so a cursor made for another is refused. */
function cursorOf(sort: ProjectSort, r: ProjectRecord): CursorValue[] {
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
function after(sort: ProjectSort, cursor: string | undefined): SQL[] | null {
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

/**
 * Archives active projects published more than `days` ago (none of them has an accepted bid: accepting one
 * moves a project to in_progress). A scheduled job; returns the ids it archived.
 */
export async function archiveStaleProjects(db: Db, days = PROJECT_ARCHIVE_DAYS): Promise<string[]> {
  const rows = await db
    .update(projects)
    .set({ status: 'archived', updatedAt: sql`now()` })
    .where(and(eq(projects.status, 'active'), lt(projects.createdAt, sql`now() - make_interval(days => ${days})`)))
    .returning({ id: projects.id });
  return rows.map((r) => r.id);
}

export interface ProjectServiceDeps {
  db: Db;
  presence: Presence;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
  log: Logger;
  /** Who was counted today (shared by instances in production); memory of this instance when absent. */
  seen?: SeenToday;
  /** The operator's synonym groups of the search (setting search.synonyms, ADR 028); none when absent. */
  synonyms?: () => Promise<SynonymGroups>;
}

export class ProjectService {
  private readonly db: Db;
  private readonly seen: SeenToday;

  constructor(private readonly deps: ProjectServiceDeps) {
    this.db = deps.db;
    this.seen = deps.seen ?? new SeenToday(null, deps.log);
  }

  // -------------------------------------------------------------------------------------------------------
  // Reading
  // -------------------------------------------------------------------------------------------------------

  /** Projects with their category, sub-category and customer. */
  private records(db: Db = this.db) {
    return db
      .select({
        project: projectColumns,
        category: { slug: categories.slug, title: categories.title },
        sub: subCategories.slug,
        customer: users,
        createdKey: timestampKey(projects.createdAt),
      })
      .from(projects)
      .innerJoin(categories, eq(categories.id, projects.categoryId))
      .leftJoin(subCategories, eq(subCategories.id, projects.subCategoryId))
      .innerJoin(users, eq(users.id, projects.customerId))
      .$dynamic();
  }

  private async record(id: string, db: Db = this.db): Promise<ProjectRecord | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.records(db).where(eq(projects.id, id)).limit(1);
    return row ?? null;
  }

  /** Presents records with their customers' live online state. */
  async present(records: ProjectRecord[]): Promise<Project[]> {
    const online = await this.deps.presence.onlineAmong(records.map((r) => r.customer.id));
    return records.map((r) => presentProject(r, online.has(r.customer.id)));
  }

  private async presentAdmin(records: ProjectRecord[]): Promise<AdminProject[]> {
    const online = await this.deps.presence.onlineAmong(records.map((r) => r.customer.id));
    return records.map((r) => presentAdminProject(r, online.has(r.customer.id)));
  }

  /** The id of a category by slug, and of a sub-category (of that category when given) by slug; null: none. */
  private async categoryFilter(category?: string, sub?: string): Promise<SQL[] | null> {
    const where: SQL[] = [];
    let categoryId: string | undefined;
    if (category) {
      const [row] = await this.db.select({ id: categories.id }).from(categories).where(eq(categories.slug, category));
      if (!row) return null;
      categoryId = row.id;
      where.push(eq(projects.categoryId, row.id));
    }
    if (sub) {
      const [row] = await this.db
        .select({ id: subCategories.id, categoryId: subCategories.categoryId })
        .from(subCategories)
        .where(eq(subCategories.slug, sub));
      if (!row || (categoryId && row.categoryId !== categoryId)) return null;
      where.push(eq(projects.subCategoryId, row.id));
    }
    return where;
  }

  /** GET /api/projects: active projects of customers in good standing, filtered, sorted, one keyset page. */
  async list(query: z.output<typeof projectsQuerySchema>): Promise<Page<Project> & { total_exact: boolean }> {
    const sort = query.sort;
    // Read first: a broken cursor is a 400 whatever the filters.
    const position = after(sort, query.cursor);
    const byCategory = await this.categoryFilter(query.category, query.sub);
    if (!byCategory) return { result: [], total: 0, total_exact: true, next: null };

    const where: SQL[] = [listedProject(), ...byCategory];
    // The same words, synonyms and prefix as the services' search (ADR 028).
    const q = await searchTsQuery(query.q, (await this.deps.synonyms?.()) ?? []);
    if (q) where.push(matches(projects.search, q));
    if (query.budget_min !== undefined) where.push(gte(projects.budget, query.budget_min));
    if (query.budget_max !== undefined) where.push(lte(projects.budget, query.budget_max));
    const filter = and(...where)!;

    const read = async () => {
      const rows: ProjectRecord[] = [];
      for (const segment of position ?? [undefined]) {
        const wanted = query.limit + 1 - rows.length;
        if (wanted <= 0) break;
        rows.push(...(await this.records().where(and(filter, segment)).orderBy(...orderBy(PROJECT_SORT_KEYS[sort])).limit(wanted)));
      }
      return rows;
    };
    const [rows, counted] = await Promise.all([
      read(),
      listingTotal(this.db, this.db.select({ one: sql`1` }).from(projects).where(filter).$dynamic(), query.cursor),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf(sort, r));
    return { result: await this.present(kept), total: counted.total, total_exact: counted.exact, next };
  }

  /**
   * GET /api/projects/{id}: the page as projectPolicy lets the viewer see it; a view of a public project by
   * someone other than the owner counts, once a day per visitor (see visitorOf).
   */
  async get(id: string, viewer: UserRow | null, visitor: string): Promise<Project> {
    const record = projectPolicy.authorize(viewer, 'view', await this.record(id));
    const owner = viewer?.id === record.project.customerId;
    if (!owner && isPublicProject(record) && (await this.seen.first(`view:project:${record.project.id}:${visitor}`))) {
      const [counted] = await this.db
        .update(projects)
        .set({ views: sql`${projects.views} + 1` })
        .where(eq(projects.id, record.project.id))
        .returning({ views: projects.views });
      if (counted) record.project.views = counted.views;
    }
    const [presented] = await this.present([record]);
    const attachments = record.project.attachments;
    return { ...presented!, attachment_files: presentFiles(attachments, await filesByPaths(this.db, attachments)) };
  }

  /** Those of these projects that are public, presented, in the order of `ids` (no view is counted). */
  async publicByIds(ids: string[]): Promise<Project[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows = await this.records().where(
      and(inArray(projects.id, valid), publicProject()),
    );
    const byId = new Map((await this.present(rows)).map((p) => [p._id, p]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** GET /api/projects/my: the customer's own projects in every state (or one), newest first. */
  async mine(user: UserRow, query: z.output<typeof myProjectsQuerySchema>): Promise<Page<Project>> {
    const position = after('new', query.cursor)?.[0];
    const where: SQL[] = [eq(projects.customerId, user.id)];
    if (query.status) where.push(eq(projects.status, query.status));
    const filter = and(...where)!;
    const [rows, total] = await Promise.all([
      this.records()
        .where(and(filter, position))
        .orderBy(...orderBy(PROJECT_SORT_KEYS.new))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(projects).where(filter).$dynamic()),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf('new', r));
    return { result: await this.present(kept), total, next };
  }

  // -------------------------------------------------------------------------------------------------------
  // The customer's writes
  // -------------------------------------------------------------------------------------------------------

  /** Category and sub-category ids of a form, and its attachments checked to be `ownerId`'s uploads. */
  private async resolveInput(ownerId: string, input: ProjectInputData) {
    const errors: Record<string, string[]> = {};
    const [category] = await this.db.select({ id: categories.id }).from(categories).where(eq(categories.slug, input.category));
    if (!category) errors.category = [CATALOG_MESSAGES.unknownCategory];
    let subCategoryId: string | null = null;
    if (input.sub) {
      const [sub] = await this.db
        .select({ id: subCategories.id, categoryId: subCategories.categoryId })
        .from(subCategories)
        .where(eq(subCategories.slug, input.sub));
      if (!sub || (category && sub.categoryId !== category.id)) errors.sub = [CATALOG_MESSAGES.unknownSub];
      else subCategoryId = sub.id;
    }
    const attachments = [...new Set(input.attachments)];
    const owned = await Promise.all(attachments.map((path) => ownedFile(this.db, ownerId, path)));
    if (owned.some((file) => !file)) errors.attachments = [PROJECT_MESSAGES.notYourFile];
    if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
    return {
      title: input.title,
      description: input.description,
      categoryId: category!.id,
      subCategoryId,
      budget: input.budget ?? null,
      days: input.days ?? null,
      attachments,
    };
  }

  /** POST /api/projects: published at once (moderated afterwards). The caller has a confirmed email. */
  async create(user: UserRow, input: ProjectInputData): Promise<Project> {
    projectPolicy.authorize(user, 'create', { customer: user });
    const values = await this.resolveInput(user.id, input);
    const [row] = await this.db.insert(projects).values({ ...values, customerId: user.id }).returning({ id: projects.id });
    return this.presentOne(row!.id);
  }

  private async presentOne(id: string): Promise<Project> {
    const record = await this.record(id);
    if (!record) throw notFound(CATALOG_MESSAGES.projectNotFound);
    const [presented] = await this.present([record]);
    return presented!;
  }

  /** The project for a change by its owner (projectPolicy's `change`). */
  private async own(user: UserRow, id: string): Promise<ProjectRecord> {
    return projectPolicy.authorize(user, 'change', await this.record(id));
  }

  /** PUT /api/projects/{id}: the owner edits a project while it is active (nobody has been chosen yet). */
  async update(user: UserRow, id: string, input: ProjectInputData): Promise<Project> {
    const record = await this.own(user, id);
    if (record.project.status !== 'active') throw cannotChange();
    const values = await this.resolveInput(user.id, input);
    const updated = await this.db
      .update(projects)
      .set({ ...values, updatedAt: sql`now()` })
      // The state is checked again in the UPDATE itself: a bid accepted meanwhile wins.
      .where(and(eq(projects.id, record.project.id), eq(projects.status, 'active')))
      .returning({ id: projects.id });
    if (updated.length === 0) throw cannotChange();
    return this.presentOne(record.project.id);
  }

  /** DELETE /api/projects/{id}: the owner removes a project that no order came out of; favourites of it go too. */
  async remove(user: UserRow, id: string): Promise<void> {
    const record = await this.own(user, id);
    await this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(projects)
        .where(and(eq(projects.id, record.project.id), inArray(projects.status, [...DELETABLE_STATUSES])))
        .returning({ id: projects.id });
      if (deleted.length === 0) throw cannotChange();
      await tx.delete(favorites).where(and(eq(favorites.type, 'project'), eq(favorites.itemId, record.project.id)));
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Admin area
  // -------------------------------------------------------------------------------------------------------

  /** GET /api/admin/projects: every project, newest first; q finds by id, customer id, words, title, customer. */
  async adminList(query: z.output<typeof adminProjectsQuerySchema>): Promise<Page<AdminProject>> {
    const position = after('new', query.cursor)?.[0];
    const where: SQL[] = [];
    if (query.status) where.push(eq(projects.status, query.status));
    const q = query.q?.trim();
    if (q && isUuid(q)) {
      where.push(or(eq(projects.id, q.toLowerCase()), eq(projects.customerId, q.toLowerCase()))!);
    } else if (q) {
      const like = `%${escapeLike(q)}%`;
      const words = await searchTsQuery(q);
      where.push(or(ilike(projects.title, like), ilike(users.email, like), ilike(users.userName, like), ...(words ? [matches(projects.search, words)] : []))!);
    }
    const filter = where.length ? and(...where) : undefined;
    const [rows, total] = await Promise.all([
      this.records()
        .where(and(filter, position))
        .orderBy(...orderBy(PROJECT_SORT_KEYS.new))
        .limit(query.limit + 1),
      cappedTotal(this.db, this.db.select({ one: sql`1` }).from(projects).innerJoin(users, eq(users.id, projects.customerId)).where(filter).$dynamic()),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r) => cursorOf('new', r));
    return { result: await this.presentAdmin(kept), total, next };
  }

  /** GET /api/admin/projects/{id}: the project and its moderation history. */
  async adminGet(id: string): Promise<{ project: AdminProject; audit: AuditEntry[] }> {
    const record = await this.record(id);
    if (!record) throw notFound(CATALOG_MESSAGES.projectNotFound);
    const [project] = await this.presentAdmin([record]);
    return { project: project!, audit: await auditTrail(this.db, 'project', record.project.id) };
  }

  /**
   * PATCH /api/admin/projects/{id}: hide a project (any state but hidden; a reason is required) or restore a
   * hidden one (back to active). Recorded in the audit log in the same transaction; the owner gets a letter.
   */
  async decide(admin: UserRow, id: string, decision: z.output<typeof projectDecisionSchema>): Promise<AdminProject> {
    if (!isUuid(id)) throw notFound(CATALOG_MESSAGES.projectNotFound);
    const hide = decision.status === 'hidden';
    const record = await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx.select(projectColumns).from(projects).where(eq(projects.id, id)).for('update');
      if (!row) throw notFound(CATALOG_MESSAGES.projectNotFound);
      if (hide ? row.status === 'hidden' : row.status !== 'hidden') throw cannotChange();
      await tx
        .update(projects)
        .set(hide ? { status: 'hidden', hiddenReason: decision.reason!, updatedAt: sql`now()` } : { status: 'active', hiddenReason: null, updatedAt: sql`now()` })
        .where(eq(projects.id, id));
      await audit(tx, {
        actorId: admin.id,
        action: hide ? 'project.hide' : 'project.restore',
        targetType: 'project',
        targetId: id,
        details: { from: row.status, ...(decision.reason ? { reason: decision.reason } : {}) },
      });
      const record = (await this.record(id, tx))!;
      this.notify(outbox, record, hide ? 'hide' : 'restore', decision.reason ?? null);
      // Guests' kept pages show it at once, on every instance.
      pagesChanged(outbox);
      return record;
    });
    const [project] = await this.presentAdmin([record]);
    return project!;
  }

  /** PUT /api/admin/projects/{id}: an admin edits a project in any state (attachments stay the customer's files). */
  async adminUpdate(admin: UserRow, id: string, input: ProjectInputData): Promise<AdminProject> {
    const before = await this.record(id);
    if (!before) throw notFound(CATALOG_MESSAGES.projectNotFound);
    const values = await this.resolveInput(before.project.customerId, input);
    const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
      (key) => JSON.stringify(values[key]) !== JSON.stringify(before.project[key]),
    );
    const record = await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      const updated = await tx
        .update(projects)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(projects.id, before.project.id))
        .returning({ id: projects.id });
      if (updated.length === 0) throw notFound(CATALOG_MESSAGES.projectNotFound);
      await audit(tx, { actorId: admin.id, action: 'project.edit', targetType: 'project', targetId: before.project.id, details: { fields: changed } });
      const record = (await this.record(before.project.id, tx))!;
      if (changed.length) this.notify(outbox, record, 'edit', null);
      // Guests' kept pages show it at once, on every instance.
      pagesChanged(outbox);
      return record;
    });
    const [project] = await this.presentAdmin([record]);
    return project!;
  }

  /** The customer's letter about a decision, queued in the decision's transaction (unless they switched it off). */
  private notify(outbox: OutboxWriter, record: ProjectRecord, decision: ProjectDecision, reason: string | null) {
    const path = `/projects/${record.category.slug}/${record.project.id}`;
    this.deps.letters.notify(outbox, record.customer, 'project.decision', { title: record.project.title, decision, reason, path });
  }

}
