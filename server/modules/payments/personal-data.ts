import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/tx.ts';
import { selfEmployed } from './schema.ts';

/**
 * A deleted account's self-employed details (ADR 052): its INN, phone and «Мой налог» link go; the status stays, as
 * the payouts already made carry their receipts at ЮKassa.
 */
export async function forgetSelfEmployedOf(tx: Tx, userId: string): Promise<void> {
  await tx.update(selfEmployed).set({ itn: null, phone: null, confirmationUrl: null }).where(eq(selfEmployed.userId, userId));
}
