import { and, count, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountById, setTwoFactorAt, type UserRow } from '../users/index.ts';
import { HttpError, badRequest, notFound } from '../../lib/http.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { SettingsService } from '../../platform/settings.ts';
import { audit } from '../../platform/audit.ts';
import { userActor } from '../../platform/actor.ts';
import type { Tx, WithTx } from '../../platform/tx.ts';
import { ADMIN_MESSAGES } from '#contract/admin';
import {
  CHALLENGE_SECONDS,
  STEP_UP_SECONDS,
  TWO_FACTOR_CODES,
  TWO_FACTOR_MESSAGES as M,
  type TwoFactorChallenge,
  type TwoFactorMethod,
  type TwoFactorSetupAnswer,
  type TwoFactorStatus,
} from '#contract/two-factor';
import { passkeys, twoFactorRecoveryCodes as codes, twoFactorTotp as totp } from './schema.ts';
import { codeStep, enrolment, newRecoveryCodes, newSecret, recoveryCodeOf, recoveryHash } from './totp.ts';
import type { PurposeTokens } from './purpose-tokens.ts';

// Wrong codes are limited like wrong passwords (ADR 008, ADR 054): per address, per (account, address) pair, and
// per account. Only someone who knows the password reaches a code, and the account's count is keyed by its token
// version, so the owner who resets the password by email starts afresh: a stranger cannot lock them out.
const CODE_WINDOW_MS = 15 * 60_000;
export const CODE_FAILURES_PER_PAIR = 5;
export const CODE_FAILURES_PER_ADDRESS = 50;
export const CODE_FAILURES_PER_ACCOUNT = 10;

/** What the second factor asks of the rest of the auth module. */
export interface AccountPort {
  checkCurrentPassword(user: UserRow, password: string, field: string): Promise<void>;
  revokeSessions(userId: string): Promise<unknown>;
}

export interface TwoFactorDeps {
  db: Db;
  withTx: WithTx;
  letters: Letters;
  limiter: RateLimiter;
  settings: SettingsService;
  tokens: PurposeTokens;
  account: AccountPort;
}

const refused = (message: string, code: string) => new HttpError(403, message, undefined, code);
const isAdmin = (user: UserRow) => user.roles.includes('admin');

/** TOTP with recovery codes: turning it on and off, checking codes, the sign-in's challenge and step-up (ADR 054). */
export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDeps) {}

  /** Whether the operator's policy asks this person for a second factor. */
  async required(user: UserRow): Promise<boolean> {
    const s = await this.deps.settings.all();
    return s['twoFactor.everyone'] || (isAdmin(user) && s['twoFactor.admins']);
  }

  async status(user: UserRow): Promise<TwoFactorStatus> {
    const [left] = await this.deps.db
      .select({ n: count() })
      .from(codes)
      .where(and(eq(codes.userId, user.id), isNull(codes.usedAt)));
    // The TOTP's own state: a person may have a second factor (a passkey, ADR 057) without it.
    const on = await this.totpOn(user.id);
    return {
      enabled: on !== null,
      enabled_at: on?.toISOString() ?? null,
      recovery_codes_left: on ? (left?.n ?? 0) : 0,
      required: await this.required(user),
    };
  }

  /** A new secret, pending until a first code confirms it (a setup started again replaces the pending one). */
  async setup(user: UserRow, password: string): Promise<TwoFactorSetupAnswer> {
    if (await this.totpOn(user.id)) throw badRequest(M.alreadyEnabled);
    await this.deps.account.checkCurrentPassword(user, password, 'password');
    const secret = newSecret();
    await this.deps.db
      .insert(totp)
      .values({ userId: user.id, secret })
      .onConflictDoUpdate({ target: totp.userId, set: { secret, confirmedAt: null, lastStep: 0, createdAt: new Date() } });
    const { uri, qrSvg } = enrolment(secret, this.deps.settings.latest()['brand.name'], user.email);
    return { secret, uri, qr_svg: qrSvg };
  }

  /** The first code from the app: from now on the factor counts. Answers the recovery codes, shown this once. */
  async enable(user: UserRow, code: string): Promise<string[]> {
    const [row] = await this.deps.db.select().from(totp).where(eq(totp.userId, user.id));
    if (row?.confirmedAt) throw badRequest(M.alreadyEnabled);
    if (!row) throw badRequest(M.setupFirst);
    await this.limited([`2fa:settings:${user.id}`], async () => {
      const step = codeStep(row.secret, code);
      if (step === null) throw badRequest(M.wrongCode, { code: [M.wrongCode] });
      await this.deps.db.update(totp).set({ lastStep: step }).where(eq(totp.userId, user.id));
    });
    const recovery = newRecoveryCodes();
    await this.deps.withTx(userActor(user), async ({ tx }) => {
      const now = new Date();
      await tx.update(totp).set({ confirmedAt: now }).where(eq(totp.userId, user.id));
      await this.replaceCodes(tx, user.id, recovery);
      await setTwoFactorAt(tx, user.id, user.twoFactorAt ?? now);
      await audit(tx, { actorId: user.id, action: 'user.two_factor_on', targetType: 'user', targetId: user.id });
    });
    return recovery;
  }

  /** Turns the factor off: the password and a current code (or a recovery code). */
  async disable(user: UserRow, password: string, code: string): Promise<void> {
    if (!(await this.totpOn(user.id))) throw badRequest(M.notEnabled);
    await this.deps.account.checkCurrentPassword(user, password, 'password');
    await this.limited([`2fa:settings:${user.id}`], () => this.check(user.id, code));
    await this.deps.withTx(userActor(user), async ({ tx }) => {
      await this.forget(tx, user.id);
      await audit(tx, { actorId: user.id, action: 'user.two_factor_off', targetType: 'user', targetId: user.id });
    });
  }

  /** Ten new recovery codes for a current code from the app; the old ones stop working. */
  async regenerateCodes(user: UserRow, code: string): Promise<string[]> {
    if (!(await this.totpOn(user.id))) throw badRequest(M.notEnabled);
    await this.limited([`2fa:settings:${user.id}`], () => this.check(user.id, code, ['totp']));
    const recovery = newRecoveryCodes();
    await this.deps.withTx(userActor(user), ({ tx }) => this.replaceCodes(tx, user.id, recovery));
    return recovery;
  }

  /** An administrator resets a person's factor (every factor lost): audited, the person is told by letter. */
  async reset(admin: UserRow, userId: string): Promise<void> {
    if (admin.id === userId) throw badRequest(ADMIN_MESSAGES.notYourself);
    await this.deps.withTx(userActor(admin), async ({ tx, outbox }) => {
      const user = await accountById(tx, userId);
      if (!user) throw notFound(ADMIN_MESSAGES.userNotFound);
      if (!user.twoFactorAt) throw badRequest(M.notEnabled);
      // Every factor: the person lost them all (ADR 057: the passkeys too).
      await tx.delete(passkeys).where(eq(passkeys.userId, userId));
      await this.forget(tx, userId);
      await audit(tx, { actorId: admin.id, action: 'user.two_factor_reset', targetType: 'user', targetId: userId });
      this.deps.letters.notify(outbox, user, 'account.twoFactorReset', {});
    });
    await this.deps.account.revokeSessions(userId);
  }

  /** The sign-in's answer after the right password, for an account with a second factor. */
  async challenge(user: UserRow): Promise<TwoFactorChallenge> {
    const [left] = await this.deps.db
      .select({ n: count() })
      .from(codes)
      .where(and(eq(codes.userId, user.id), isNull(codes.usedAt)));
    const [keys] = await this.deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
    const methods: TwoFactorMethod[] = [];
    if (await this.totpOn(user.id)) methods.push('totp');
    if (left?.n) methods.push('recovery');
    if (keys?.n) methods.push('passkey');
    return { two_factor: { challenge: await this.deps.tokens.sign('challenge', user, CHALLENGE_SECONDS), methods } };
  }

  /** The sign-in's second step: the account whose challenge this is, once the code is right. */
  async passChallenge(challenge: string, code: string, ip: string): Promise<UserRow> {
    const claims = await this.deps.tokens.verify('challenge', challenge);
    const user = claims && (await accountById(this.deps.db, claims.sub));
    // A password changed or sessions ended since: the challenge went with them.
    if (!user || !claims || user.tokenVersion !== claims.ver || !user.twoFactorAt) throw badRequest(M.challengeExpired);
    const keys = [`2fa:pair:${ip}:${user.id}`, `2fa:ip:${ip}`, `2fa:account:${user.id}:${user.tokenVersion}`];
    await this.limited(keys, () => this.check(user.id, code), [CODE_FAILURES_PER_PAIR, CODE_FAILURES_PER_ADDRESS, CODE_FAILURES_PER_ACCOUNT]);
    return user;
  }

  /** A fresh second factor for the next few minutes' sensitive actions. */
  async stepUp(user: UserRow, code: string): Promise<{ token: string; expires_in: number }> {
    if (!user.twoFactorAt) throw badRequest(M.notEnabled);
    await this.limited([`2fa:step-up:${user.id}`], () => this.check(user.id, code));
    return { token: await this.deps.tokens.sign('step-up', user, STEP_UP_SECONDS), expires_in: STEP_UP_SECONDS };
  }

  /**
   * The one check before a withdrawal and a change of payout details, email or password (ADR 054): a person with a
   * second factor shows a step-up of the last minutes; without one, the policy may ask them to set one up first.
   */
  async requireStepUp(user: UserRow, stepUp: string | null | undefined): Promise<void> {
    const s = await this.deps.settings.all();
    if (!user.twoFactorAt) {
      if (s['twoFactor.everyone']) throw refused(M.setupRequired, TWO_FACTOR_CODES.setupRequired);
      return;
    }
    if (!s['twoFactor.stepUp']) return;
    const claims = stepUp ? await this.deps.tokens.verify('step-up', stepUp) : null;
    if (!claims || claims.sub !== user.id || claims.ver !== user.tokenVersion) throw refused(M.stepUpRequired, TWO_FACTOR_CODES.stepUpRequired);
  }

  /** The admin area's gate: an administrator without a second factor sets one up first (operator setting). */
  async adminGate(user: UserRow): Promise<void> {
    if (user.twoFactorAt || !isAdmin(user)) return;
    if (await this.deps.settings.get('twoFactor.admins')) throw refused(M.setupRequired, TWO_FACTOR_CODES.setupRequired);
  }

  /**
   * Runs a code check under limits counted up front (parallel guesses cannot slip past); a right code takes its
   * attempt back, so the owner's own use never adds up.
   */
  private async limited(keys: string[], check: () => Promise<unknown>, limits: number[] = [CODE_FAILURES_PER_ACCOUNT]) {
    const { limiter } = this.deps;
    const hits = await Promise.all(keys.map((key, i) => limiter.hit(key, limits[i] ?? limits[0]!, CODE_WINDOW_MS)));
    if (hits.some((h) => !h.allowed)) throw new HttpError(429, M.tooManyCodes);
    await check();
    await Promise.all(keys.map((key) => limiter.undo(key)));
  }

  /** A right code (TOTP of a step not used before, or an unused recovery code) is spent; else 400. */
  private async check(userId: string, typed: string, methods: TwoFactorMethod[] = ['totp', 'recovery']): Promise<void> {
    const { db } = this.deps;
    if (methods.includes('totp') && /^\d{6}$/.test(typed)) {
      const [row] = await db.select().from(totp).where(eq(totp.userId, userId));
      const step = row?.confirmedAt ? codeStep(row.secret, typed) : null;
      if (step === null) throw badRequest(M.wrongCode, { code: [M.wrongCode] });
      // Conditional, so that two requests with one code cannot both pass.
      const spent = await db
        .update(totp)
        .set({ lastStep: step })
        .where(and(eq(totp.userId, userId), lt(totp.lastStep, step)))
        .returning({ step: totp.lastStep });
      if (!spent.length) throw badRequest(M.codeUsed, { code: [M.codeUsed] });
      return;
    }
    const recovery = methods.includes('recovery') ? recoveryCodeOf(typed) : null;
    const used =
      recovery &&
      (await db
        .update(codes)
        .set({ usedAt: new Date() })
        .where(and(eq(codes.userId, userId), eq(codes.codeHash, recoveryHash(recovery)), isNull(codes.usedAt)))
        .returning({ id: codes.id }));
    if (!used?.length) throw badRequest(M.wrongCode, { code: [M.wrongCode] });
  }

  private async replaceCodes(tx: Db | Tx, userId: string, recovery: string[]) {
    await tx.delete(codes).where(eq(codes.userId, userId));
    await tx.insert(codes).values(recovery.map((c) => ({ userId, codeHash: recoveryHash(recoveryCodeOf(c)!) })));
  }

  /** Drops the TOTP and its codes; the account keeps a second factor while it has a passkey (ADR 057). */
  private async forget(tx: Db | Tx, userId: string) {
    await tx.delete(totp).where(eq(totp.userId, userId));
    await tx.delete(codes).where(eq(codes.userId, userId));
    const [keys] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    if (!keys?.n) await setTwoFactorAt(tx, userId, null);
  }

  /** When the person's TOTP was confirmed; null when they have none (or it is pending). */
  private async totpOn(userId: string): Promise<Date | null> {
    const [row] = await this.deps.db.select({ at: totp.confirmedAt }).from(totp).where(eq(totp.userId, userId));
    return row?.at ?? null;
  }
}

/** Gives a person a confirmed TOTP factor with this secret (the test factories; an admin's fixtures). */
export async function enrolTotp(db: Db | Tx, userId: string, secret: string): Promise<void> {
  const now = new Date();
  await db.insert(totp).values({ userId, secret, confirmedAt: now }).onConflictDoUpdate({ target: totp.userId, set: { secret, confirmedAt: now, lastStep: 0 } });
  await setTwoFactorAt(db, userId, now);
}
