import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { orderRefs } from '../orders/index.ts';
import { people, personPolicy, type UserRow } from '../users/index.ts';
import { badRequest, notFound } from '../../lib/http.ts';
import { displayName } from '../../lib/text.ts';
import { servicePolicy, serviceRefs } from '../services/index.ts';
import { projectPolicy, projectRefs } from '../projects/index.ts';
import { mayNameOrder, mayNameOwn } from './policy.ts';
import { disputeVisibleTo, type DisputeTitles } from './disputes.ts';
import { APPEAL_MESSAGES, appealHasObject, type AppealObjectType, type AppealSubject, type AppealTarget } from '#contract/appeals';

// The object an appeal names (a service, project, profile, order or dispute), resolved and checked against what
// its author may see: what a prefilled form shows and what is stored with the appeal.

/** The object an appeal names, resolved and checked: what is stored with the appeal. */
export interface ResolvedObject {
  type: AppealObjectType;
  id: string;
  title: string;
  path: string;
  adminPath: string;
}

interface ObjectDeps {
  db: Db;
  disputes: DisputeTitles;
}

const service = serviceRefs('appealed_service');
const project = projectRefs('appealed_project');
const order = orderRefs('appealed_order');
const owner = people('appealed_owner');
const person = people('appealed_person');

const objectMissing = (subject: Exclude<AppealSubject, 'question'>) => notFound(APPEAL_MESSAGES.objectNotFound[subject]);
const aboutYourself = () => badRequest(APPEAL_MESSAGES.notAboutYourself, { object: [APPEAL_MESSAGES.notAboutYourself] });

/**
 * The object of `subject` named by `id`, when it exists and `user` may see it: a service, project or profile the
 * public (or they) may see, not their own; an order they are a party of; a dispute of theirs; for a moderation
 * objection one of their own services or projects. 404 otherwise, 400 for a complaint about oneself.
 */
export async function resolveAppealObject(deps: ObjectDeps, user: UserRow, subject: AppealSubject, id: string | null): Promise<ResolvedObject | null> {
  if (!appealHasObject(subject)) {
    if (id !== null) throw badRequest(APPEAL_MESSAGES.objectNotExpected, { object: [APPEAL_MESSAGES.objectNotExpected] });
    return null;
  }
  if (id === null) throw badRequest(APPEAL_MESSAGES.objectRequired, { object: [APPEAL_MESSAGES.objectRequired] });
  const s = subject as Exclude<AppealSubject, 'question'>;
  switch (s) {
    case 'service':
      return serviceObject(deps.db, user, id, false);
    case 'project':
      return projectObject(deps.db, user, id, false);
    case 'moderation':
      // One's own service or project: the moderator's decision about it is what is objected to.
      return (
        (await serviceObject(deps.db, user, id, true).catch(() => null)) ??
        (await projectObject(deps.db, user, id, true).catch(() => null)) ??
        Promise.reject(objectMissing('moderation'))
      );
    case 'user':
      return personObject(deps.db, user, id);
    case 'order':
      return orderObject(deps.db, user, id);
    case 'dispute': {
      const dispute = await disputeVisibleTo(deps.disputes, user, id);
      if (!dispute) throw objectMissing('dispute');
      return { type: 'dispute', id, ...dispute };
    }
  }
}

/** What a prefilled form names («Жалоба на услугу „…“»), checked as a create would. */
export async function appealTarget(deps: ObjectDeps, user: UserRow, query: { subject: AppealSubject; object?: string | undefined }): Promise<AppealTarget> {
  const object = await resolveAppealObject(deps, user, query.subject, query.object ?? null);
  return { subject: query.subject, object: object ? { type: object.type, _id: object.id, title: object.title, link: object.path } : null };
}

/** A service the person may see (`own`: one of theirs, for a moderation objection; otherwise not theirs). */
async function serviceObject(db: Db, user: UserRow, id: string, own: boolean): Promise<ResolvedObject> {
  const [row] = await db
    .select({ id: service.id, title: service.title, status: service.status, sellerId: service.sellerId, blockedAt: owner.blockedAt })
    .from(service)
    .innerJoin(owner, eq(owner.id, service.sellerId))
    .where(eq(service.id, id))
    .limit(1);
  const subject = row ? { service: { status: row.status }, seller: { id: row.sellerId, blockedAt: row.blockedAt } } : null;
  if (!row || !subject || !servicePolicy.can(user, 'view', subject) || !mayNameOwn(user, row.sellerId, own)) throw objectMissing('service');
  if (!own && row.sellerId === user.id) throw aboutYourself();
  // The page redirects any category slug to the right one.
  const path = own ? `/profile/items/${row.id}/edit` : `/services/all/${row.id}`;
  return { type: 'service', id: row.id, title: row.title, path, adminPath: `/admin/services/${row.id}/edit` };
}

async function projectObject(db: Db, user: UserRow, id: string, own: boolean): Promise<ResolvedObject> {
  const [row] = await db
    .select({ id: project.id, title: project.title, status: project.status, customerId: project.customerId, blockedAt: owner.blockedAt })
    .from(project)
    .innerJoin(owner, eq(owner.id, project.customerId))
    .where(eq(project.id, id))
    .limit(1);
  const subject = row ? { project: { status: row.status, customerId: row.customerId }, customer: { blockedAt: row.blockedAt } } : null;
  if (!row || !subject || !projectPolicy.can(user, 'view', subject) || !mayNameOwn(user, row.customerId, own)) throw objectMissing('project');
  if (!own && row.customerId === user.id) throw aboutYourself();
  return { type: 'project', id: row.id, title: row.title, path: `/projects/all/${row.id}`, adminPath: `/admin/projects/${row.id}/edit` };
}

async function personObject(db: Db, user: UserRow, id: string): Promise<ResolvedObject> {
  const [found] = await db
    .select({ id: person.id, name: person.name, surname: person.surname, userName: person.userName, blockedAt: person.blockedAt })
    .from(person)
    .where(eq(person.id, id))
    .limit(1);
  if (!found || !personPolicy.can(user, 'view', found)) throw objectMissing('user');
  if (found.id === user.id) throw aboutYourself();
  const path = `/user/${found.id}`;
  return { type: 'user', id: found.id, title: displayName(found), path, adminPath: `/admin/users/${found.id}` };
}

async function orderObject(db: Db, user: UserRow, id: string): Promise<ResolvedObject> {
  const [found] = await db
    .select({ id: order.id, number: order.number, title: order.title, customerId: order.customerId, sellerId: order.sellerId })
    .from(order)
    .where(eq(order.id, id))
    .limit(1);
  if (!found || !mayNameOrder(user, found)) throw objectMissing('order');
  return { type: 'order', id: found.id, title: `Заказ №${found.number} «${found.title}»`, path: '/profile/orders', adminPath: `/admin/orders?q=${found.number}` };
}
