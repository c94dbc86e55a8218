import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { TxContext } from '../../platform/tx.ts';
import { passkeyChallenges, passkeys, twoFactorRecoveryCodes, twoFactorTotp } from './schema.ts';

// A person's second factors as personal data (ADR 052): what the export shows of them (never a secret, a code or a
// key), and their removal when the account is anonymised. Given to the privacy module at composition (auth imports
// privacy to record consents, so privacy cannot import auth).

/** Whether TOTP is on, and each passkey's name and dates. */
export async function factorsOfPerson(db: Db, userId: string) {
  const [totp] = await db.select({ confirmedAt: twoFactorTotp.confirmedAt }).from(twoFactorTotp).where(eq(twoFactorTotp.userId, userId));
  const keys = await db.select({ name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt }).from(passkeys).where(eq(passkeys.userId, userId));
  return { totpSince: totp?.confirmedAt ?? null, passkeys: keys };
}

/** Every factor of the person gone: their secret, recovery codes, passkeys and open ceremonies. */
export async function forgetFactorsOf(tx: TxContext['tx'], userId: string): Promise<void> {
  await tx.delete(twoFactorTotp).where(eq(twoFactorTotp.userId, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(passkeyChallenges).where(eq(passkeyChallenges.userId, userId));
}
