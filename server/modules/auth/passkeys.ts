import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../../db/client.ts';
import { accountById, setTwoFactorAt, type UserRow } from '../users/index.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/http.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { audit } from '../../platform/audit.ts';
import { userActor } from '../../platform/actor.ts';
import type { WithTx } from '../../platform/tx.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { STEP_UP_SECONDS, TWO_FACTOR_MESSAGES } from '#contract/two-factor';
import {
  PASSKEY_CHALLENGE_SECONDS,
  PASSKEY_MESSAGES as M,
  PASSKEYS_PER_PERSON,
  type Passkey,
  type PasskeyOptions,
  type PasskeyResponse,
} from '#contract/passkeys';
import { passkeyChallenges as challenges, passkeys, twoFactorTotp } from './schema.ts';
import type { PurposeTokens } from './purpose-tokens.ts';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_ADDRESS, CODE_FAILURES_PER_PAIR } from './two-factor.ts';

/**
 * The WebAuthn library, loaded with the first passkey ceremony (ADR 064): it and its ASN.1 parsers took ~5 MB of heap
 * (and more in compiled code) in every idle server, for a few requests a day.
 */
const webauthn = () => import('@simplewebauthn/server');

/** What a WebAuthn challenge was handed out for; an answer passes only for the same purpose (and person). */
type Purpose = 'register' | 'login' | 'second-factor' | 'step-up';

const WINDOW_MS = 15 * 60_000;
/** Ceremonies a guest's address may start in the window (each writes a challenge row). */
const OPTIONS_PER_ADDRESS = 200;

export interface PasskeyDeps {
  db: Db;
  withTx: WithTx;
  limiter: RateLimiter;
  settings: SettingsService;
  tokens: PurposeTokens;
}

/** The relying party of a ceremony: the site's public origin (PUBLIC_URL, or the request's in tests and dev). */
const rpOf = (origin: string) => ({ origin, rpID: new URL(origin).hostname });

const shown = (row: typeof passkeys.$inferSelect): Passkey => ({
  _id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * Passkeys (WebAuthn, ADR 057) through @simplewebauthn/server: adding one (a second factor), and answering with one
 * the sign-in's challenge, a password-less sign-in and a step-up. Challenges are kept server-side and deleted by
 * the answer that uses them: each works once, for its purpose and person, within PASSKEY_CHALLENGE_SECONDS.
 */
export class PasskeyService {
  constructor(private readonly deps: PasskeyDeps) {}

  async list(user: UserRow): Promise<Passkey[]> {
    const rows = await this.deps.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, user.id))
      .orderBy(asc(passkeys.createdAt));
    return rows.map(shown);
  }

  /** Whether the person has a passkey (the sign-in's challenge offers it). */
  async has(userId: string): Promise<boolean> {
    const [row] = await this.deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    return (row?.n ?? 0) > 0;
  }

  /** Options for navigator.credentials.create(): a discoverable credential, the person's own ones excluded. */
  async registrationOptions(user: UserRow, origin: string): Promise<PasskeyOptions> {
    const { rpID } = rpOf(origin);
    const own = await this.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    if (own.length >= PASSKEYS_PER_PERSON) throw badRequest(M.tooMany);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: this.deps.settings.latest()['brand.name'],
      rpID,
      userName: user.email,
      userDisplayName: user.userName,
      userID: new TextEncoder().encode(user.id),
      attestationType: 'none',
      excludeCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
    });
    await this.keep(options.challenge, 'register', user.id);
    return options as unknown as PasskeyOptions;
  }

  /** The browser's answer to the registration options: the passkey is stored and counts as a second factor. */
  async add(user: UserRow, origin: string, name: string, response: PasskeyResponse): Promise<Passkey> {
    const info = await this.limited([`passkey:settings:${user.id}`], [CODE_FAILURES_PER_ACCOUNT], async () => {
      const result = await (await webauthn()).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: (c) => this.consume(c, 'register', user.id),
        ...expected(origin),
        requireUserVerification: false,
      }).catch(() => null);
      if (!result?.verified) throw badRequest(M.failed);
      return result.registrationInfo;
    });
    const { credential } = info;
    return this.deps.withTx(userActor(user), async ({ tx }) => {
      const [row] = await tx
        .insert(passkeys)
        .values({
          userId: user.id,
          credentialId: credential.id,
          publicKey: b64url(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
        })
        .onConflictDoNothing({ target: passkeys.credentialId })
        .returning();
      if (!row) throw badRequest(M.duplicate);
      if (!user.twoFactorAt) await setTwoFactorAt(tx, user.id, new Date());
      await audit(tx, {
        actorId: user.id,
        action: 'user.passkey_added',
        targetType: 'user',
        targetId: user.id,
        details: { passkey: row.id },
      });
      return shown(row);
    });
  }

  /** Removes one of the person's passkeys; the last factor gone, the account has no second factor any more. */
  async remove(user: UserRow, id: string): Promise<void> {
    await this.deps.withTx(userActor(user), async ({ tx }) => {
      const gone = await tx
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
        .returning({ id: passkeys.id });
      if (!gone.length) throw notFound(M.notFound);
      const [left] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
      const [totp] = await tx
        .select({ at: twoFactorTotp.confirmedAt })
        .from(twoFactorTotp)
        .where(eq(twoFactorTotp.userId, user.id));
      if (!left?.n && !totp?.at) await setTwoFactorAt(tx, user.id, null);
      await audit(tx, {
        actorId: user.id,
        action: 'user.passkey_removed',
        targetType: 'user',
        targetId: user.id,
        details: { passkey: id },
      });
    });
  }

  /**
   * Options for navigator.credentials.get(). With the challenge of POST /api/auth/login: the account's passkeys, as
   * its second factor. Without: any discoverable passkey of this site, with user verification (password-less).
   */
  async loginOptions(origin: string, ip: string, loginChallenge?: string): Promise<PasskeyOptions> {
    if (!(await this.deps.limiter.hit(`passkey:options:${ip}`, OPTIONS_PER_ADDRESS, WINDOW_MS)).allowed)
      throw new HttpError(429, M.tooManyAttempts);
    if (!loginChallenge) return this.assertionOptions(origin, 'login', null);
    const user = await this.challenged(loginChallenge);
    return this.assertionOptions(origin, 'second-factor', user);
  }

  /** A sign-in with a passkey: the account it belongs to, once its signature over a challenge of ours is right. */
  async login(origin: string, ip: string, response: PasskeyResponse, loginChallenge?: string): Promise<UserRow> {
    if (loginChallenge) {
      const user = await this.challenged(loginChallenge);
      const keys = [`2fa:pair:${ip}:${user.id}`, `2fa:ip:${ip}`, `2fa:account:${user.id}:${user.tokenVersion}`];
      await this.limited(keys, [CODE_FAILURES_PER_PAIR, CODE_FAILURES_PER_ADDRESS, CODE_FAILURES_PER_ACCOUNT], () =>
        this.assert(origin, response, 'second-factor', user.id),
      );
      return user;
    }
    // Password-less: the address is counted first; the account once the credential names it (keyed by its token
    // version, as the codes are: the owner's password reset starts afresh).
    const user = await this.limited([`passkey:ip:${ip}`], [CODE_FAILURES_PER_ADDRESS], async () => {
      const [row] = await this.deps.db
        .select({ userId: passkeys.userId })
        .from(passkeys)
        .where(eq(passkeys.credentialId, response.id));
      const owner = row && (await accountById(this.deps.db, row.userId));
      if (!owner) throw badRequest(M.unknown);
      await this.limited([`passkey:account:${owner.id}:${owner.tokenVersion}`], [CODE_FAILURES_PER_ACCOUNT], () =>
        this.assert(origin, response, 'login', null),
      );
      return owner;
    });
    if (user.blockedAt) throw forbidden(AUTH_MESSAGES.blocked);
    return user;
  }

  async stepUpOptions(user: UserRow, origin: string): Promise<PasskeyOptions> {
    return this.assertionOptions(origin, 'step-up', user);
  }

  /** A step-up confirmed with one of the person's passkeys: the same token as a code gives (ADR 054). */
  async stepUp(
    user: UserRow,
    origin: string,
    response: PasskeyResponse,
  ): Promise<{ token: string; expires_in: number }> {
    await this.limited([`2fa:step-up:${user.id}`], [CODE_FAILURES_PER_ACCOUNT], () =>
      this.assert(origin, response, 'step-up', user.id),
    );
    return { token: await this.deps.tokens.sign('step-up', user, STEP_UP_SECONDS), expires_in: STEP_UP_SECONDS };
  }

  /** The account of a live sign-in challenge (ADR 054) that still has a passkey. */
  private async challenged(loginChallenge: string): Promise<UserRow> {
    const claims = await this.deps.tokens.verify('challenge', loginChallenge);
    const user = claims && (await accountById(this.deps.db, claims.sub));
    if (!user || !claims || user.tokenVersion !== claims.ver || !user.twoFactorAt)
      throw badRequest(TWO_FACTOR_MESSAGES.challengeExpired);
    return user;
  }

  private async assertionOptions(origin: string, purpose: Purpose, user: UserRow | null): Promise<PasskeyOptions> {
    const own = user ? await this.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id)) : [];
    if (user && !own.length) throw badRequest(M.none);
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: rpOf(origin).rpID,
      allowCredentials: own.map((p) => ({ id: p.credentialId, transports: p.transports as never })),
      userVerification: user ? 'preferred' : 'required',
      timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
    });
    await this.keep(options.challenge, purpose, user?.id ?? null);
    return options as unknown as PasskeyOptions;
  }

  /**
   * Checks an assertion: a stored passkey (the person's own, when `userId` is given), a challenge of ours for this
   * purpose (spent by this check), this site's origin and RP id, and the signature. Answers the passkey's owner.
   */
  private async assert(
    origin: string,
    response: PasskeyResponse,
    purpose: Purpose,
    userId: string | null,
  ): Promise<string> {
    const { db } = this.deps;
    const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
    if (!row) throw badRequest(M.unknown);
    if (userId && row.userId !== userId) throw badRequest(M.failed);
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: (c) => this.consume(c, purpose, userId),
      ...expected(origin),
      credential: {
        id: row.credentialId,
        publicKey: Buffer.from(row.publicKey, 'base64url'),
        counter: row.counter,
        transports: row.transports,
      },
      requireUserVerification: purpose === 'login',
    }).catch(() => null);
    if (!result?.verified) throw badRequest(M.failed);
    await db
      .update(passkeys)
      .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(passkeys.id, row.id));
    return row.userId;
  }

  /** Keeps a challenge handed out (and drops the expired ones). */
  private async keep(challenge: string, purpose: Purpose, userId: string | null) {
    const { db } = this.deps;
    await db.delete(challenges).where(lt(challenges.expiresAt, new Date()));
    await db
      .insert(challenges)
      .values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000) });
  }

  /** Spends a challenge: true once, for its purpose and person, before it expires. */
  private async consume(challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
    const spent = await this.deps.db
      .delete(challenges)
      .where(
        and(
          eq(challenges.challenge, challenge),
          eq(challenges.purpose, purpose),
          userId ? eq(challenges.userId, userId) : isNull(challenges.userId),
          gt(challenges.expiresAt, new Date()),
        ),
      )
      .returning({ c: challenges.challenge });
    return spent.length === 1;
  }

  /** Runs a check under limits counted up front; a check that passes takes its attempts back (ADR 054). */
  private async limited<T>(keys: string[], limits: number[], check: () => Promise<T>): Promise<T> {
    const { limiter } = this.deps;
    const hits = await Promise.all(keys.map((key, i) => limiter.hit(key, limits[i] ?? limits[0]!, WINDOW_MS)));
    if (hits.some((h) => !h.allowed)) throw new HttpError(429, M.tooManyAttempts);
    const answer = await check();
    await Promise.all(keys.map((key) => limiter.undo(key)));
    return answer;
  }
}

const expected = (origin: string) => {
  const rp = rpOf(origin);
  return { expectedOrigin: rp.origin, expectedRPID: rp.rpID };
};
