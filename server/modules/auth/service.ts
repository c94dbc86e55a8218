import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  accountByEmail,
  accountById,
  accountIdByReferralCode,
  accountsHolding,
  confirmEmail,
  createAccount,
  setPasswordFromReset,
  type UserRow,
} from '../users/index.ts';
import { recordConsent } from '../privacy/index.ts';
import { newReferralCode } from '../../db/factories.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { HttpError, badRequest, forbidden } from '../../lib/http.ts';
import type { Tokens } from '../../lib/auth.ts';
import type { GeoIp } from '../../lib/geoip.ts';
import type { Turnstile } from '../../lib/turnstile.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { issueEmailToken, consumeEmailToken, findEmailToken, voidEmailTokens } from '../../platform/email-tokens.ts';
import { CONFIRM_TOKEN_TTL_MS, RESET_TOKEN_TTL_MS, type Letters } from '../../platform/letters/index.ts';
import { systemActor, userActor } from '../../platform/actor.ts';
import type { TxContext, WithTx } from '../../platform/tx.ts';
import { factorsOfPerson, forgetFactorsOf } from './personal-data.ts';
import { AUTH_MESSAGES, type registerSchema, type resetSchema } from '#contract/auth';
import { API_ERROR_CODES, MESSAGES } from '#contract/messages';
import { SessionService, type ClientInfo, type IssueOptions } from './sessions.ts';
import type { TwoFactorChallenge } from '#contract/two-factor';
import type { TwoFactorService } from './two-factor.ts';

// Sign-in and registration limits (docs/decisions/008). A limit refuses an address, or an account from one
// address; wrong guesses from elsewhere only slow an account down, so nobody can lock its owner out.
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Wrong passwords for one account from one address before that address gets 429 for the account. */
export const LOGIN_FAILURES_PER_PAIR = 10;
/** Wrong passwords from one address, whatever the accounts, before the address gets 429. */
export const LOGIN_FAILURES_PER_ADDRESS = 50;
/** Wrong passwords for one account (from anywhere) that cost no delay; each one after doubles it… */
export const LOGIN_FREE_FAILURES = 10;
export const LOGIN_DELAY_BASE_MS = 250;
/** …up to this, the most any sign-in waits before its password is checked. */
export const LOGIN_DELAY_MAX_MS = 3000;
const REGISTRATION_WINDOW_MS = 60 * 60_000;
/** Accounts one address may create in an hour. */
export const REGISTRATIONS_PER_ADDRESS = 5;
/** "Email/login already taken" answers one address may get in an hour (they tell whether an email is registered). */
export const TAKEN_ANSWERS_PER_ADDRESS = 10;
const RESEND_WINDOW_MS = 60_000;
const RECOVER_PER_ADDRESS = 10;
const LETTERS_PER_USER = 5;

const accountKey = (email: string) => `login:account:${email.toLowerCase()}`;
const pairKey = (email: string, ip: string) => `login:pair:${ip}:${email.toLowerCase()}`;
const addressKey = (ip: string) => `login:ip:${ip}`;

/** The wait before checking a password, after `failures` wrong ones for the account in the window. */
export function loginDelayMs(failures: number): number {
  if (failures < LOGIN_FREE_FAILURES) return 0;
  // The exponent is capped too, so a huge count cannot overflow into Infinity or NaN.
  return Math.min(LOGIN_DELAY_MAX_MS, LOGIN_DELAY_BASE_MS * 2 ** Math.min(failures - LOGIN_FREE_FAILURES, 16));
}

export interface AuthDeps {
  db: Db;
  tokens: Tokens;
  /** Transactions whose letters leave through the outbox after the commit. */
  withTx: WithTx;
  letters: Letters;
  turnstile: Turnstile;
  limiter: RateLimiter;
  log: Logger;
  /** Drops the user's live sockets after their tokens were revoked; those of `exceptSession` stay. */
  onRevoke: (userId: string, exceptSession?: string | null) => void;
  /** Drops the live sockets of one ended session (ADR 055). */
  onEndSession?: (sessionId: string) => void;
  /** Where a sign-in's address is (ADR 059): GEOIP_DB's database, or none. */
  geoip?: GeoIp;
  /** The second factor (ADR 054): the sign-in's challenge and second step. */
  twoFactor: TwoFactorService;
  /** Waits before a password is checked (tests pass one that records the waits). */
  sleep?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The constraint a unique violation (23505) hit, from the driver's error or the one Drizzle wraps; else null. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === '23505') return typeof e.constraint === 'string' ? e.constraint : '';
  }
  return null;
}

/** Verifying against this when the email is unknown makes both failures take the same time. */
let dummyHash: Promise<string> | undefined;

export class AuthService {
  /** The person's sessions (ADR 055): issued at sign-in, listed and ended from the settings page. */
  readonly sessions: SessionService;

  constructor(private readonly deps: AuthDeps) {
    this.sessions = new SessionService(deps);
  }

  /**
   * Issues a token: a new session from `client` (and the new-device letter). Every sign-in ends here — the
   * password's, the registration's, and the second factor's step when the account asks for one.
   */
  issueSession(user: UserRow, client: ClientInfo, opts?: IssueOptions): Promise<string> {
    return this.sessions.issue(user, client, opts);
  }

  /** A new account with its consent to the current consent text (ADR 052): both or neither. */
  async register(input: z.output<typeof registerSchema>, ip: string, userAgent: string | null = null): Promise<string> {
    if (!(await this.deps.turnstile.verify(input['cf-turnstile-response'], ip))) throw badRequest(AUTH_MESSAGES.botCheckFailed);
    const { db, limiter } = this.deps;
    // Counted up front, so that parallel registrations cannot all pass; given back when the name is taken.
    const slotKey = `register:ip:${ip}`;
    if (!(await limiter.hit(slotKey, REGISTRATIONS_PER_ADDRESS, REGISTRATION_WINDOW_MS)).allowed) {
      throw new HttpError(429, MESSAGES.tooManyRequests);
    }
    // Both can be taken (by two accounts): the email is reported first.
    const taken = await accountsHolding(db, input.email, input.user_name);
    if (taken.length) {
      await limiter.undo(slotKey);
      throw await this.takenAnswer(ip, taken.some((u) => u.email.toLowerCase() === input.email) ? 'email' : 'userName');
    }
    const referrer = input.referralCode
      ? // Codes are upper case; one typed by hand may not be.
        await accountIdByReferralCode(db, input.referralCode.toUpperCase())
      : undefined;

    // Hashed before the transaction: PGlite's one connection waits while a transaction is open.
    const passwordHash = await hashPassword(input.password);
    let user: UserRow;
    try {
      // The account, its consent and its confirmation letter commit together.
      user = await this.deps.withTx(systemActor('registration'), async ({ tx }) => {
        const row = await createAccount(tx, {
          userName: input.user_name,
          email: input.email,
          name: input.name,
          surname: input.surname,
          passwordHash,
          role: input.role,
          referralCode: newReferralCode(),
          referredBy: referrer?.id,
        });
        await recordConsent(tx, { userId: row.id, ip, userAgent });
        await this.sendConfirmation(row);
        return row;
      });
    } catch (err) {
      // Two registrations racing for the same email or login: the unique index decides.
      const violated = uniqueViolation(err);
      if (violated === 'users_email_idx' || violated === 'users_user_name_idx') {
        await limiter.undo(slotKey);
        throw await this.takenAnswer(ip, violated === 'users_email_idx' ? 'email' : 'userName');
      }
      throw err;
    }
    // The first session of the account: no letter about a new device.
    return this.issueSession(user, { ip, userAgent }, { first: true });
  }

  /**
   * SPEC §8's "already exists" answer for the form, limited per address: it tells whether an email is
   * registered, so it must not serve as a lookup.
   */
  private async takenAnswer(ip: string, what: 'email' | 'userName'): Promise<HttpError> {
    const { allowed } = await this.deps.limiter.hit(`register-taken:ip:${ip}`, TAKEN_ANSWERS_PER_ADDRESS, REGISTRATION_WINDOW_MS);
    if (!allowed) return new HttpError(429, MESSAGES.tooManyRequests);
    // SPEC §7/§8: these two codes are English; the client shows the Russian texts.
    return badRequest(what === 'email' ? API_ERROR_CODES.emailExists : API_ERROR_CODES.userNameExists);
  }

  /**
   * Wrong guesses are limited per address and per (account, address) pair, both counted up front so that
   * parallel attempts cannot slip past; a right password takes its attempt back. Guesses at one account from
   * many addresses only delay every attempt at it a little (at most LOGIN_DELAY_MAX_MS): a stranger can slow
   * the owner down, never lock them out.
   */
  async login(email: string, password: string, ip: string, userAgent: string | null = null): Promise<string | TwoFactorChallenge> {
    const { limiter, db } = this.deps;
    const pair = await limiter.hit(pairKey(email, ip), LOGIN_FAILURES_PER_PAIR, LOGIN_WINDOW_MS);
    const address = await limiter.hit(addressKey(ip), LOGIN_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS);
    if (!pair.allowed || !address.allowed) throw new HttpError(429, AUTH_MESSAGES.tooManyAttempts);
    const delay = loginDelayMs(await limiter.count(accountKey(email)));
    if (delay > 0) await (this.deps.sleep ?? sleep)(delay);

    const user = await accountByEmail(db, email);
    if (!user) await verifyPassword(await (dummyHash ??= hashPassword('not-a-password-0')), password);
    if (!user || !(await verifyPassword(user.passwordHash, password))) {
      await limiter.hit(accountKey(email), Number.MAX_SAFE_INTEGER, LOGIN_WINDOW_MS);
      throw badRequest(MESSAGES.loginBadCredentials);
    }
    // The right password: not a failure, for the address as for the pair.
    await Promise.all([limiter.undo(addressKey(ip)), limiter.reset(pairKey(email, ip))]);
    if (user.blockedAt) throw forbidden(AUTH_MESSAGES.blocked);
    // With a second factor the password earns a challenge, not a session (ADR 054).
    if (user.twoFactorAt) return this.deps.twoFactor.challenge(user);
    return this.issueSession(user, { ip, userAgent });
  }

  /** The sign-in's second step: the challenge of `login` and a code from the app or a recovery code; then its session. */
  async loginTwoFactor(challenge: string, code: string, ip: string, userAgent: string | null = null): Promise<string> {
    const user = await this.deps.twoFactor.passChallenge(challenge, code, ip);
    if (user.blockedAt) throw forbidden(AUTH_MESSAGES.blocked);
    return this.issueSession(user, { ip, userAgent });
  }

  /** A sign-in with a passkey (ADR 057; the passkey checked by PasskeyService): its session. */
  async finishPasskeySignIn(user: UserRow, ip: string, userAgent: string | null): Promise<string> {
    if (user.blockedAt) throw forbidden(AUTH_MESSAGES.blocked);
    return this.issueSession(user, { ip, userAgent });
  }

  /** The step-up check before a withdrawal or a change of payout details, email or password (ADR 054). */
  requireStepUp(user: UserRow, stepUp: string | null | undefined): Promise<void> {
    return this.deps.twoFactor.requireStepUp(user, stepUp);
  }

  /**
   * Checks the current password before a sensitive change (password, email). Wrong guesses are limited
   * like failed logins, so a stolen session cannot be used to find the password out.
   */
  async checkCurrentPassword(user: UserRow, password: string, field: string) {
    const key = `password-check:${user.id}`;
    // Counted before the check, so that parallel guesses cannot all slip past the limit.
    if (!(await this.deps.limiter.hit(key, LOGIN_FAILURES_PER_PAIR, LOGIN_WINDOW_MS)).allowed) {
      throw new HttpError(429, AUTH_MESSAGES.tooManyPasswordAttempts);
    }
    if (await verifyPassword(user.passwordHash, password)) return this.deps.limiter.reset(key);
    throw badRequest(AUTH_MESSAGES.wrongPassword, { [field]: [AUTH_MESSAGES.wrongPassword] });
  }

  /** Counts one letter to a user-given address (an email change); 429 past the limit. */
  async throttleLetters(userId: string) {
    const { allowed } = await this.deps.limiter.hit(`letters:${userId}`, LETTERS_PER_USER, LOGIN_WINDOW_MS);
    if (!allowed) throw new HttpError(429, MESSAGES.tooManyRequests);
  }

  /** A person's second factors for the privacy module's export (auth/personal-data.ts). */
  factorsOfPerson(db: Db, userId: string) {
    return factorsOfPerson(db, userId);
  }

  /** Their removal when the account is anonymised, in the privacy module's transaction. */
  forgetFactorsOf(tx: TxContext['tx'], userId: string) {
    return forgetFactorsOf(tx, userId);
  }

  /** Ends every session and revokes every token of the user (logout everywhere, password reset, block). */
  revokeSessions(userId: string): Promise<void> {
    return this.sessions.endAll(userId);
  }

  /** Ends every session but the caller's (a password change); answers a fresh token for the caller's (ADR 055). */
  endOtherSessions(user: UserRow, currentSession: string | null | undefined): Promise<string> {
    return this.sessions.endOthers(user, currentSession);
  }

  /** A fresh confirmation link, mailed after the commit (joins the caller's transaction, if any). */
  sendConfirmation(user: UserRow) {
    return this.deps.withTx(userActor(user), async ({ tx, outbox }) => {
      const token = await issueEmailToken(tx, user.id, 'confirm', CONFIRM_TOKEN_TTL_MS);
      this.deps.letters.notify(outbox, user, 'account.confirm', { token });
    });
  }

  async resendConfirmation(user: UserRow) {
    if (user.emailConfirmedAt) return;
    const { allowed } = await this.deps.limiter.hit(`confirm-resend:${user.id}`, 1, RESEND_WINDOW_MS);
    if (!allowed) throw new HttpError(429, AUTH_MESSAGES.resendTooOften);
    await this.sendConfirmation(user);
  }

  /**
   * Confirms a registration or an email change from its one-time link; answers what to tell the person. A link
   * opened again after it did its work says so rather than that it is invalid.
   */
  async confirm(token: string): Promise<string> {
    const { db } = this.deps;
    const row = await consumeEmailToken(db, token, ['confirm', 'email_change']);
    if (!row) {
      if (await this.confirmedBy(token)) return AUTH_MESSAGES.alreadyConfirmed;
      throw badRequest(AUTH_MESSAGES.linkInvalid);
    }
    const newEmail = row.purpose === 'email_change' && row.newEmail ? row.newEmail : undefined;
    try {
      await confirmEmail(db, row.userId, newEmail);
    } catch (err) {
      // The new address was taken meanwhile.
      if (uniqueViolation(err) !== null) throw badRequest(MESSAGES.emailExists);
      throw err;
    }
    // Links mailed to the old address (a password reset above all) stop working with the address.
    if (newEmail) await voidEmailTokens(db, row.userId, ['confirm', 'reset']);
    return AUTH_MESSAGES.confirmed;
  }

  /** Whether the address a spent link was for is confirmed now (by this link or another one). */
  private async confirmedBy(token: string): Promise<boolean> {
    const row = await findEmailToken(this.deps.db, token, ['confirm', 'email_change']);
    if (!row) return false;
    const user = await accountById(this.deps.db, row.userId);
    if (!user?.emailConfirmedAt) return false;
    return row.purpose === 'confirm' || user.email === row.newEmail;
  }

  /** Same answer whether or not the email exists (no account discovery). */
  async requestReset(email: string, ip: string) {
    const { allowed } = await this.deps.limiter.hit(`recover:ip:${ip}`, RECOVER_PER_ADDRESS, LOGIN_WINDOW_MS);
    if (!allowed) throw new HttpError(429, MESSAGES.tooManyRequests);
    const user = await accountByEmail(this.deps.db, email);
    if (!user || user.blockedAt) return;
    const perAccount = await this.deps.limiter.hit(`recover:account:${user.id}`, 3, LOGIN_WINDOW_MS);
    if (!perAccount.allowed) return;
    await this.deps.withTx(systemActor('password-reset'), async ({ tx, outbox }) => {
      const token = await issueEmailToken(tx, user.id, 'reset', RESET_TOKEN_TTL_MS);
      this.deps.letters.notify(outbox, user, 'account.passwordReset', { token });
    });
  }

  /**
   * Sets a new password from a reset link; every session ends (ADR 055: the link proves the mailbox, not a device,
   * and the reset page is opened signed out — the person signs in again with the new password).
   */
  async resetPassword(input: z.output<typeof resetSchema>, ip: string) {
    const row = await consumeEmailToken(this.deps.db, input.token, ['reset']);
    if (!row) throw badRequest(AUTH_MESSAGES.linkInvalid);
    // Following the link proves the mailbox too.
    const user = await setPasswordFromReset(this.deps.db, row.userId, await hashPassword(input.password));
    await this.revokeSessions(row.userId);
    // The owner proved themselves: wrong guesses made before no longer slow the account down, nor keep
    // the address the link was opened from out of it.
    if (user) await Promise.all([this.deps.limiter.reset(accountKey(user.email)), this.deps.limiter.reset(pairKey(user.email, ip))]);
  }
}
