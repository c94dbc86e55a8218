import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { statement } from '../db/prepared.ts';
import { users, type UserRow } from '../modules/users/schema.ts';
import { sessions } from '../platform/schema.ts';
import { SESSION_SEEN_EVERY_MS, touchSession } from '../platform/sessions.ts';
import { unauthorized, forbidden } from './http.ts';
import { AUTH_TOKEN_KEY, REMEMBER_ME_SECONDS } from '#contract/constants';
import { AUTH_MESSAGES } from '#contract/auth';

/**
 * Tokens are HS256 JWTs carrying the user id, the user's token version (bumped to revoke every token) and the
 * session (`sid`, ADR 055) they belong to: ending the session refuses them. Tokens without a session are those
 * signed before sessions existed (and tests' own): the token version alone governs them.
 */
export class Tokens {
  /**
   * The secret as a WebCrypto key, imported once: given raw bytes, jose would import them on every sign and
   * verify, which cost most of a millisecond on every signed-in request.
   */
  private readonly key: Promise<CryptoKey>;

  constructor(secret: string) {
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async sign(user: Pick<UserRow, 'id' | 'tokenVersion'>, ttlSeconds = REMEMBER_ME_SECONDS, sessionId?: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(sessionId ? { ver: user.tokenVersion, sid: sessionId } : { ver: user.tokenVersion })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(await this.key);
  }

  /**
   * Returns the claims of a valid token or null: alg none, foreign signatures, expired or early tokens fail,
   * and so does a token without `exp` (it would never expire). The socket handshake checks tokens here too.
   */
  async verify(token: string): Promise<{ sub: string; ver: number; sid?: string } | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], requiredClaims: ['exp'] });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      if (payload.sid !== undefined && typeof payload.sid !== 'string') return null;
      return payload.sid === undefined ? { sub: payload.sub, ver: payload.ver } : { sub: payload.sub, ver: payload.ver, sid: payload.sid };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}

/** The bearer token of a request: the Authorization header, else the authToken cookie. */
export function tokenOf(request: Pick<FastifyRequest, 'headers' | 'cookies'>): string | null {
  const bearer = /^bearer\s+(\S+)/i.exec(request.headers.authorization ?? '');
  if (bearer) return bearer[1]!;
  return request.cookies?.[AUTH_TOKEN_KEY] || null;
}

const UUID = /^[0-9a-f-]{36}$/i;

/** The signed-in person and the session their token belongs to (null for a token signed before sessions). */
export interface SignedIn {
  user: UserRow;
  sessionId: string | null;
}

// Every signed-in request's reads, built once (server/db/prepared.ts).
const userById = statement((db) => db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('auth_user'));
const userWithSession = statement((db) =>
  db
    .select({ user: users, session: { id: sessions.id, endedAt: sessions.endedAt, lastSeenAt: sessions.lastSeenAt } })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.id, sql.placeholder('sid')), eq(sessions.userId, users.id)))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_user_session'),
);

/**
 * Resolves a token to an active user and their session, or null when the token is invalid, revoked, its session
 * ended or the user blocked. One query on every signed-in request: the user joined with the token's session; a
 * second one, at most every SESSION_SEEN_EVERY_MS per session, moves the session's last_seen_at.
 */
export async function sessionForToken(db: Db, tokens: Tokens, token: string | null): Promise<SignedIn | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims || !UUID.test(claims.sub)) return null;
  if (claims.sid === undefined) {
    const [user] = await userById(db).execute({ id: claims.sub });
    if (!user || user.tokenVersion !== claims.ver || user.blockedAt) return null;
    return { user, sessionId: null };
  }
  if (!UUID.test(claims.sid)) return null;
  const [row] = await userWithSession(db).execute({ id: claims.sub, sid: claims.sid });
  if (!row || row.user.tokenVersion !== claims.ver || row.user.blockedAt) return null;
  if (!row.session?.id || row.session.endedAt) return null;
  if (Date.now() - row.session.lastSeenAt.getTime() > SESSION_SEEN_EVERY_MS) await touchSession(db, row.session.id);
  return { user: row.user, sessionId: row.session.id };
}

/** Resolves a token to an active user, or null when the token is invalid, revoked or the user blocked. */
export async function userForToken(db: Db, tokens: Tokens, token: string | null): Promise<UserRow | null> {
  return (await sessionForToken(db, tokens, token))?.user ?? null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the auth hook; null for guests. */
    user: UserRow | null;
    /** The session of the request's token (ADR 055); null for guests and for tokens signed before sessions. */
    sessionId: string | null;
  }
}

export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}

export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.roles.includes('admin')) throw forbidden();
  return user;
}

/** PRODUCT.md: an unconfirmed email cannot publish, bid, order or withdraw; the answer says why. */
export function requireConfirmed(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (!user.emailConfirmedAt) throw forbidden(AUTH_MESSAGES.mustConfirm);
  return user;
}
