import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { twoFactorTotp } from './schema.ts';
import { PurposeTokens } from './purpose-tokens.ts';
import { codeAt } from './totp.ts';
import { STEP_UP_SECONDS, CHALLENGE_SECONDS } from '#contract/two-factor';

// For the tests and the fixtures (ADR 054): the secret the factories' admins have, and the tokens a test needs
// without going through a code each time.

/** The TOTP secret of every admin the factories make (server/db/factories.ts). */
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** A code of the person's secret that no earlier request used: the step counter is wound back first. */
export async function freshCode(db: Db, userId: string, secret = TEST_TOTP_SECRET): Promise<string> {
  await db.update(twoFactorTotp).set({ lastStep: 0 }).where(eq(twoFactorTotp.userId, userId));
  return codeAt(secret);
}

/** A step-up token as POST /api/auth/step-up answers it, for an app signing with `jwtSecret`. */
export const stepUpTokenFor = (jwtSecret: string, user: { id: string; tokenVersion: number }) =>
  new PurposeTokens(jwtSecret).sign('step-up', user, STEP_UP_SECONDS);

/** A sign-in challenge as POST /api/auth/login answers it. */
export const challengeFor = (jwtSecret: string, user: { id: string; tokenVersion: number }) =>
  new PurposeTokens(jwtSecret).sign('challenge', user, CHALLENGE_SECONDS);
