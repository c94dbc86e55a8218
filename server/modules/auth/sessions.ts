import type { Db } from '../../db/client.ts';
import { accountById, bumpTokenVersion, type UserRow } from '../users/index.ts';
import type { Tokens } from '../../lib/auth.ts';
import type { GeoIp } from '../../lib/geoip.ts';
import { notFound } from '../../lib/http.ts';
import { moscowDateTime } from '../../lib/text.ts';
import type { Letters } from '../../platform/letters/index.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import {
  activeSessions,
  createSession,
  describeAgent,
  deviceSeen,
  endSession,
  endSessions,
  type ClientInfo,
} from '../../platform/sessions.ts';
import { AUTH_MESSAGES, type SessionView } from '#contract/auth';
import { REMEMBER_ME_SECONDS } from '#contract/constants';

export type { ClientInfo } from '../../platform/sessions.ts';

export interface SessionDeps {
  db: Db;
  tokens: Tokens;
  withTx: WithTx;
  letters: Letters;
  /** Drops the user's live sockets after their tokens were revoked; those of `exceptSession` stay. */
  onRevoke: (userId: string, exceptSession?: string | null) => void;
  /** Drops the live sockets of one ended session. */
  onEndSession?: (sessionId: string) => void;
  /** Where a sign-in's address is (ADR 059); without it sessions show their network alone. */
  geoip?: GeoIp;
}

export interface IssueOptions {
  /** The account's first session (registration): no letter about a new device. */
  first?: boolean;
}

/**
 * A person's sessions (ADR 055): every token is issued here, for a session opened with it; the person lists and ends
 * them from the settings page; a password change ends all but the current one, «Выйти на всех устройствах» all.
 */
export class SessionService {
  constructor(private readonly deps: SessionDeps) {}

  /**
   * The one way a token is issued to a person who proved who they are (password, registration, and the second factor
   * when it is asked for): a session opened from `client`, a letter when the device was never seen on the account,
   * and the session's token. Both the row and the letter commit together.
   */
  async issue(user: UserRow, client: ClientInfo, opts: IssueOptions = {}): Promise<string> {
    const { letters, geoip } = this.deps;
    // Looked up before the transaction: right after a start it may wait for the file's read, and no transaction should.
    const place = (await geoip?.place(client.ip)) ?? null;
    const session = await this.deps.withTx(userActor(user), async ({ tx, outbox }) => {
      const { deviceKey } = describeAgent(client.userAgent);
      const seen = opts.first || (await deviceSeen(tx, user.id, deviceKey));
      const row = await createSession(tx, user.id, client, place);
      if (!seen) {
        const { device, os, browser, address } = row;
        letters.notify(outbox, user, 'account.newDevice', { device, os, browser, address, place: row.place, at: moscowDateTime(row.createdAt) });
      }
      return row;
    });
    return this.deps.tokens.sign(user, REMEMBER_ME_SECONDS, session.id);
  }

  /** The person's sessions that have not ended: the current one first and marked, then the most recently seen. */
  async list(user: UserRow, currentSession: string | null | undefined): Promise<SessionView[]> {
    const rows = await activeSessions(this.deps.db, user.id);
    const ordered = [...rows.filter((s) => s.id === currentSession), ...rows.filter((s) => s.id !== currentSession)];
    return ordered.map((s) => ({
      id: s.id,
      device: s.device,
      os: s.os,
      browser: s.browser,
      address: s.address,
      place: s.place,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      current: s.id === currentSession,
    }));
  }

  /** Ends one of the person's own sessions: its tokens are refused and its sockets cut at once. 404 for another's. */
  async end(user: UserRow, sessionId: string): Promise<void> {
    if (!(await endSession(this.deps.db, user.id, sessionId))) throw notFound(AUTH_MESSAGES.sessionNotFound);
    this.deps.onEndSession?.(sessionId);
  }

  /**
   * Ends every session but the current one, and every token signed before sessions existed (the token version moves
   * on); answers a fresh token for the current session (with the new version), or for the request's session-less
   * token's holder a session-less one, so that this device stays signed in.
   */
  async endOthers(user: UserRow, currentSession: string | null | undefined): Promise<string> {
    const { db, tokens } = this.deps;
    await endSessions(db, user.id, currentSession ?? null);
    await bumpTokenVersion(db, user.id);
    this.deps.onRevoke(user.id, currentSession ?? null);
    const fresh = (await accountById(db, user.id)) ?? user;
    return tokens.sign(fresh, REMEMBER_ME_SECONDS, currentSession ?? undefined);
  }

  /** Ends every session and revokes every token of the person (logout everywhere, a block, a password reset). */
  async endAll(userId: string): Promise<void> {
    await endSessions(this.deps.db, userId);
    await bumpTokenVersion(this.deps.db, userId);
    this.deps.onRevoke(userId);
  }
}
