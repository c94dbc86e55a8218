import type { UserRow } from '../modules/users/schema.ts';
import { forbidden, notFound } from '../lib/http.ts';

// Who may do what to a resource (ADR 016). Each module states its rules once, in its policy.ts; route guards
// only say who may call an endpoint at all (signed in, confirmed, admin).
//
// One convention for refusals: a resource the actor may not know exists is `hidden` (404, the same answer as
// an unknown id, so nothing leaks); one they can see but may not touch this way is `forbidden` (403).

/** The person acting, or a guest. */
export type Actor = UserRow | null;

/** A rule's answer; `{ forbidden: message }` is a 403 that says why. */
export type Verdict = 'allow' | 'hidden' | 'forbidden' | { forbidden: string };

/** Each action with the resource it is about. */
export type Rules<M> = { [A in keyof M]: (actor: Actor, resource: M[A]) => Verdict };

export interface Policy<M> {
  /** Whether the actor may do this (for showing or leaving out a part of an answer). */
  can<A extends keyof M>(actor: Actor, action: A, resource: M[A]): boolean;
  /**
   * The resource when the actor may do this; otherwise the refusal as an HttpError. A missing resource
   * (null) is hidden: 404 with the module's not-found message.
   */
  authorize<A extends keyof M, T extends M[A]>(actor: Actor, action: A, resource: T | null | undefined): T;
}

export function isAdmin(actor: Actor): boolean {
  return actor?.roles.includes('admin') ?? false;
}

export function definePolicy<M>(notFoundMessage: string, rules: Rules<M>): Policy<M> {
  return {
    can: (actor, action, resource) => rules[action](actor, resource) === 'allow',
    authorize(actor, action, resource) {
      if (resource === null || resource === undefined) throw notFound(notFoundMessage);
      const verdict = rules[action](actor, resource);
      if (verdict === 'allow') return resource;
      if (verdict === 'hidden') throw notFound(notFoundMessage);
      throw forbidden(verdict === 'forbidden' ? undefined : verdict.forbidden);
    },
  };
}
