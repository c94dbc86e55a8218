import { and, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { appeals, type AppealRow } from '../../db/schema/appeals.ts';
import { projects, services } from '../../db/schema/catalog.ts';
import { orders } from '../../db/schema/money.ts';
import { users, type UserRow } from '../../db/schema/users.ts';
import { badRequest, HttpError, notFound } from '../../lib/http.ts';
import { displayName } from '../../lib/text.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { filesByPaths, ownedFile, presentFiles } from '../../platform/files.ts';
import { cappedTotal, cursorPosition, escapeLike, keysetAfter, orderBy, page, timestampKey, type CursorValue, type SortKey } from '../../platform/listing/listing.ts';
import { servicePolicy } from '../services/index.ts';
import { projectPolicy } from '../projects/index.ts';
import { personPolicy } from '../people/index.ts';
import { appealPolicy } from './policy.ts';
import { disputeVisibleTo, type DisputeTitles } from './disputes.ts';
import { MESSAGES } from '#contract/messages';
import {
  APPEAL_MESSAGES,
  APPEAL_SUBJECT_LABELS,
  appealHasObject,
  type adminAppealsQuerySchema,
  type answerAppealSchema,
  type Appeal,
  type AppealObjectType,
  type AppealSubject,
  type AppealTarget,
  type createAppealSchema,
  type myAppealsQuerySchema,
} from '#contract/appeals';

export interface AppealServiceDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  letters: Letters;
  /** The disputes module's titles, for objections to a dispute decision. */
  disputes: DisputeTitles;
}

/** Where the author reads their appeals (and the answer). */
export const MY_APPEALS_PATH = '/profile/disputes?tab=appeals';

const DAY_MS = 86_400_000;

const author = alias(users, 'appeal_author');
const admin = alias(users, 'appeal_admin');
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
type Page<T> = { result: T[]; total: number; next: string | null };

/** The object an appeal names, resolved and checked: what is stored with the appeal. */
interface ResolvedObject {
  type: AppealObjectType;
  id: string;
  title: string;
  path: string;
  adminPath: string;
}

const party = (u: Person) => ({ _id: u.id, name: u.name, surname: u.surname, user_name: u.userName, avatar: u.avatar });
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const objectMissing = (subject: Exclude<AppealSubject, 'question'>) => notFound(APPEAL_MESSAGES.objectNotFound[subject]);
const aboutYourself = () => badRequest(APPEAL_MESSAGES.notAboutYourself, { object: [APPEAL_MESSAGES.notAboutYourself] });

/**
 * Appeals to the administration (issue 14, ADR 035): a member writes one about an object they may see (or a general
 * question), within the daily limits; an admin takes it and answers it, which closes it and tells the author by a
 * notification and a letter in the same transaction.
 */
export class AppealService {
  constructor(private readonly deps: AppealServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  // -------------------------------------------------------------------------------------------------------
  // The object
  // -------------------------------------------------------------------------------------------------------

  /**
   * The object of `subject` named by `id`, when it exists and `user` may see it: a service, project or profile the
   * public (or they) may see, not their own; an order they are a party of; a dispute of theirs; for a moderation
   * objection one of their own services or projects. 404 otherwise, 400 for a complaint about oneself.
   */
  private async resolve(user: UserRow, subject: AppealSubject, id: string | null): Promise<ResolvedObject | null> {
    if (!appealHasObject(subject)) {
      if (id !== null) throw badRequest(APPEAL_MESSAGES.objectNotExpected, { object: [APPEAL_MESSAGES.objectNotExpected] });
      return null;
    }
    if (id === null) throw badRequest(APPEAL_MESSAGES.objectRequired, { object: [APPEAL_MESSAGES.objectRequired] });
    const s = subject as Exclude<AppealSubject, 'question'>;
    switch (s) {
      case 'service':
        return this.service(user, id, false);
      case 'project':
        return this.project(user, id, false);
      case 'moderation':
        // One's own service or project: the moderator's decision about it is what is objected to.
        return (await this.service(user, id, true).catch(() => null)) ?? (await this.project(user, id, true).catch(() => null)) ?? Promise.reject(objectMissing('moderation'));
      case 'user': {
        const [person] = await this.db
          .select({ id: users.id, name: users.name, surname: users.surname, userName: users.userName, blockedAt: users.blockedAt })
          .from(users)
          .where(eq(users.id, id))
          .limit(1);
        if (!person || !personPolicy.can(user, 'view', person)) throw objectMissing('user');
        if (person.id === user.id) throw aboutYourself();
        const path = `/user/${person.id}`;
        return { type: 'user', id: person.id, title: displayName(person), path, adminPath: `/admin/users/${person.id}` };
      }
      case 'order': {
        const [order] = await this.db
          .select({ id: orders.id, number: orders.number, title: orders.title, customerId: orders.customerId, sellerId: orders.sellerId })
          .from(orders)
          .where(eq(orders.id, id))
          .limit(1);
        // Only its parties: an order is nobody else's business, an admin's included (admins do not write appeals).
        if (!order || (order.customerId !== user.id && order.sellerId !== user.id)) throw objectMissing('order');
        return { type: 'order', id: order.id, title: `Заказ №${order.number} «${order.title}»`, path: '/profile/orders', adminPath: `/admin/orders?q=${order.number}` };
      }
      case 'dispute': {
        const dispute = await disputeVisibleTo(this.deps.disputes, user, id);
        if (!dispute) throw objectMissing('dispute');
        return { type: 'dispute', id, ...dispute };
      }
    }
  }

  /** A service the person may see (`own`: one of theirs, for a moderation objection; otherwise not theirs). */
  private async service(user: UserRow, id: string, own: boolean): Promise<ResolvedObject> {
    const [row] = await this.db
      .select({ id: services.id, title: services.title, status: services.status, sellerId: services.sellerId, blockedAt: users.blockedAt })
      .from(services)
      .innerJoin(users, eq(users.id, services.sellerId))
      .where(eq(services.id, id))
      .limit(1);
    const subject = row ? { service: { status: row.status }, seller: { id: row.sellerId, blockedAt: row.blockedAt } } : null;
    if (!row || !subject || !servicePolicy.can(user, 'view', subject) || (own && row.sellerId !== user.id)) throw objectMissing('service');
    if (!own && row.sellerId === user.id) throw aboutYourself();
    // The page redirects any category slug to the right one.
    const path = own ? `/profile/items/${row.id}/edit` : `/services/all/${row.id}`;
    return { type: 'service', id: row.id, title: row.title, path, adminPath: `/admin/services/${row.id}/edit` };
  }

  private async project(user: UserRow, id: string, own: boolean): Promise<ResolvedObject> {
    const [row] = await this.db
      .select({ id: projects.id, title: projects.title, status: projects.status, customerId: projects.customerId, blockedAt: users.blockedAt })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.customerId))
      .where(eq(projects.id, id))
      .limit(1);
    const subject = row ? { project: { status: row.status, customerId: row.customerId }, customer: { blockedAt: row.blockedAt } } : null;
    if (!row || !subject || !projectPolicy.can(user, 'view', subject) || (own && row.customerId !== user.id)) throw objectMissing('project');
    if (!own && row.customerId === user.id) throw aboutYourself();
    return { type: 'project', id: row.id, title: row.title, path: `/projects/all/${row.id}`, adminPath: `/admin/projects/${row.id}/edit` };
  }

  /** GET /api/appeals/target: what a prefilled form names («Жалоба на услугу „…“»), checked as a create would. */
  async target(user: UserRow, query: { subject: AppealSubject; object?: string | undefined }): Promise<AppealTarget> {
    const object = await this.resolve(user, query.subject, query.object ?? null);
    return { subject: query.subject, object: object ? { type: object.type, _id: object.id, title: object.title, link: object.path } : null };
  }

  // -------------------------------------------------------------------------------------------------------
  // Reads
  // -------------------------------------------------------------------------------------------------------

  private records() {
    return this.db
      .select({ appeal: appeals, author: authorColumns, admin: adminColumns, createdKey: timestampKey(appeals.createdAt) })
      .from(appeals)
      .innerJoin(author, eq(author.id, appeals.authorId))
      .leftJoin(admin, eq(admin.id, appeals.adminId))
      .$dynamic();
  }

  private async present(records: AppealRecord[], forAdmin: boolean): Promise<Appeal[]> {
    const files = await filesByPaths(this.db, records.flatMap((r) => r.appeal.files));
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

  private async listPage(where: SQL | undefined, query: { cursor?: string | undefined; limit: number }, forAdmin: boolean): Promise<Page<Appeal>> {
    const position = query.cursor ? keysetAfter(SORT, cursorPosition(query.cursor, 'appeals', SORT)) : undefined;
    const [rows, total] = await Promise.all([
      this.records()
        .where(and(where, position))
        .orderBy(...orderBy(SORT))
        .limit(query.limit + 1),
      cappedTotal(
        this.db,
        this.db
          .select({ one: sql`1` })
          .from(appeals)
          .innerJoin(author, eq(author.id, appeals.authorId))
          .where(where)
          .$dynamic(),
      ),
    ]);
    const { rows: kept, next } = page(rows, query.limit, (r): CursorValue[] => ['appeals', r.createdKey, r.appeal.id]);
    return { result: await this.present(kept, forAdmin), total, next };
  }

  private async one(id: string, viewer: UserRow, forAdmin: boolean): Promise<Appeal> {
    const [record] = await this.records().where(eq(appeals.id, id)).limit(1);
    appealPolicy.authorize(viewer, 'view', record?.appeal);
    const [appeal] = await this.present([record!], forAdmin);
    return appeal!;
  }

  /** GET /api/appeals/my: the person's appeals, newest first. */
  mine(user: UserRow, query: z.output<typeof myAppealsQuerySchema>): Promise<Page<Appeal>> {
    return this.listPage(eq(appeals.authorId, user.id), query, false);
  }

  /** GET /api/appeals/{id}: one of the person's appeals (anyone else's is 404, as an unknown one). */
  async get(user: UserRow, id: string): Promise<Appeal> {
    const [row] = await this.db.select({ authorId: appeals.authorId, status: appeals.status }).from(appeals).where(eq(appeals.id, id)).limit(1);
    // Admins read appeals in the admin area: here it is the author's own view.
    if (!row || row.authorId !== user.id) throw notFound(APPEAL_MESSAGES.notFound);
    return this.one(id, user, false);
  }

  /** GET /api/admin/appeals: every appeal by state, subject, number or words, newest first. */
  adminList(query: z.output<typeof adminAppealsQuerySchema>): Promise<Page<Appeal>> {
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
    return this.listPage(where.length ? and(...where) : undefined, query, true);
  }

  /** GET /api/admin/appeals/{id}. */
  adminGet(adminUser: UserRow, id: string): Promise<Appeal> {
    return this.one(id, adminUser, true);
  }

  // -------------------------------------------------------------------------------------------------------
  // Commands
  // -------------------------------------------------------------------------------------------------------

  /**
   * POST /api/appeals: the object is checked (resolve), the files must be the author's own uploads, and the
   * author and the address may not have written appeals.perDay / appeals.perAddressPerDay in the last 24 hours
   * (counted in the table under a lock of each, so parallel requests cannot all pass).
   */
  async create(user: UserRow, ip: string, input: z.output<typeof createAppealSchema>): Promise<Appeal> {
    const object = await this.resolve(user, input.subject, input.object);
    const owned = await Promise.all(input.files.map((path) => ownedFile(this.db, user.id, path)));
    if (owned.some((f) => !f)) throw badRequest(MESSAGES.validation, { files: [APPEAL_MESSAGES.notYourFile] });
    const id = await this.deps.platform.withTx(userActor(user), async (ctx) => {
      const settings = await this.deps.settings.all(ctx.tx);
      const since = new Date(ctx.clock.now().getTime() - DAY_MS);
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`appeals:user:${user.id}`}))`);
      await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`appeals:ip:${ip}`}))`);
      const [counts] = await ctx.tx
        .select({
          mine: sql<number>`count(*) filter (where ${appeals.authorId} = ${user.id})::int`,
          address: sql<number>`count(*) filter (where ${appeals.ip} = ${ip})::int`,
        })
        .from(appeals)
        .where(and(gte(appeals.createdAt, since), or(eq(appeals.authorId, user.id), eq(appeals.ip, ip))));
      if (Number(counts?.mine ?? 0) >= settings['appeals.perDay'] || Number(counts?.address ?? 0) >= settings['appeals.perAddressPerDay']) {
        throw new HttpError(429, APPEAL_MESSAGES.tooMany);
      }
      const [created] = await ctx.tx
        .insert(appeals)
        .values({
          authorId: user.id,
          subject: input.subject,
          objectType: object?.type ?? null,
          objectId: object?.id ?? null,
          objectTitle: object?.title ?? null,
          objectPath: object?.path ?? null,
          objectAdminPath: object?.adminPath ?? null,
          text: input.text,
          files: owned.map((f) => `/uploads/${f!.path}`),
          ip,
          createdAt: ctx.clock.now(),
        })
        .returning({ id: appeals.id });
      return created!.id;
    });
    return this.one(id, user, false);
  }

  /** POST /api/admin/appeals/{id}/take: a new appeal goes in_progress, with the admin who took it (audited). */
  async take(adminUser: UserRow, id: string): Promise<Appeal> {
    await this.deps.platform.withTx(userActor(adminUser), async (ctx) => {
      const [row] = await ctx.tx.select().from(appeals).where(eq(appeals.id, id)).for('update');
      const appeal = appealPolicy.authorize(adminUser, 'take', row);
      if (appeal.status === 'closed') throw new HttpError(409, APPEAL_MESSAGES.alreadyClosed);
      if (appeal.status !== 'new') throw new HttpError(409, APPEAL_MESSAGES.alreadyTaken);
      await ctx.tx.update(appeals).set({ status: 'in_progress', adminId: adminUser.id, takenAt: ctx.clock.now() }).where(eq(appeals.id, id));
      await audit(ctx.tx, { actorId: adminUser.id, action: 'appeal.take', targetType: 'appeal', targetId: id, details: { number: appeal.number } });
    });
    return this.one(id, adminUser, true);
  }

  /**
   * POST /api/admin/appeals/{id}/answer: an admin answers a new or taken appeal, which closes it; the author gets
   * the notification and the letter (`appeal.answered`) from the same transaction, once: a closed appeal is 409.
   */
  async answer(adminUser: UserRow, id: string, input: z.output<typeof answerAppealSchema>): Promise<Appeal> {
    await this.deps.platform.withTx(userActor(adminUser), async (ctx) => {
      const [row] = await ctx.tx.select().from(appeals).where(eq(appeals.id, id)).for('update');
      const appeal = appealPolicy.authorize(adminUser, 'answer', row);
      if (appeal.status === 'closed') throw new HttpError(409, APPEAL_MESSAGES.alreadyClosed);
      const now = ctx.clock.now();
      await ctx.tx
        .update(appeals)
        .set({ status: 'closed', answer: input.answer, closedAt: now, adminId: appeal.adminId ?? adminUser.id, takenAt: appeal.takenAt ?? now })
        .where(eq(appeals.id, id));
      await audit(ctx.tx, {
        actorId: adminUser.id,
        action: 'appeal.answer',
        targetType: 'appeal',
        targetId: id,
        details: { number: appeal.number, author: appeal.authorId, answer: input.answer },
      });
      const [addressee] = await ctx.tx
        .select({ id: users.id, email: users.email, name: users.name, preferences: users.preferences })
        .from(users)
        .where(eq(users.id, appeal.authorId));
      if (addressee) {
        this.deps.letters.notify(ctx.outbox, addressee, 'appeal.answered', {
          number: appeal.number,
          subject: appeal.objectTitle ? `${APPEAL_SUBJECT_LABELS[appeal.subject]}: ${appeal.objectTitle}` : APPEAL_SUBJECT_LABELS[appeal.subject],
          answer: input.answer,
          path: MY_APPEALS_PATH,
        });
      }
    });
    return this.one(id, adminUser, true);
  }
}
