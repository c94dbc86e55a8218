import type { Db } from '../../db/client.ts';
import { accountById, turnOffEmails } from '../users/index.ts';
import { badRequest } from '../../lib/http.ts';
import { systemActor } from '../../platform/actor.ts';
import { readUnsubscribeToken } from '../../platform/letters/index.ts';
import { NOTIFICATION_KINDS } from '#contract/auth';
import { NOTIFICATION_MESSAGES } from '#contract/notifications';
import type { NotificationDeps } from './context.ts';

// The letters' unsubscribe link: the signed token is the only credential, naming a person and one preference.

/** What an unsubscribe token names: the person (still there) and the preference, or a 400. */
async function fromToken(secret: string, db: Db, token: string) {
  const named = readUnsubscribeToken(secret, token);
  const invalid = () => badRequest(NOTIFICATION_MESSAGES.badToken, { token: [NOTIFICATION_MESSAGES.badToken] });
  // Only a token we signed reaches the query, so its user id is a uuid.
  if (!named) throw invalid();
  const user = await accountById(db, named.userId);
  if (!user) throw invalid();
  return { user, kind: named.kind };
}

/** GET /api/notifications/unsubscribe?token=: what the link switches off (the confirmation page). */
export async function unsubscribeInfo(deps: NotificationDeps, token: string): Promise<{ kind: string; title: string }> {
  const { kind } = await fromToken(deps.secret, deps.db, token);
  return { kind, title: NOTIFICATION_KINDS[kind] };
}

/** POST /api/notifications/unsubscribe { token }: switches the preference the token names off. */
export async function unsubscribe(deps: NotificationDeps, token: string): Promise<{ kind: string; title: string }> {
  return deps.platform.withTx(systemActor('unsubscribe'), async ({ tx }) => {
    const { user, kind } = await fromToken(deps.secret, tx, token);
    // One key of the jsonb set in place: a concurrent change of another preference is kept.
    await turnOffEmails(tx, user.id, kind);
    return { kind, title: NOTIFICATION_KINDS[kind] };
  });
}
