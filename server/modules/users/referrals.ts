import { inArray } from 'drizzle-orm';
import type { TxContext } from '../../platform/tx.ts';
import { users } from './schema.ts';

// Who referred whom, for the orders module's referral rewards (ADR 025): a person's referrer and when the person
// registered, read in the settling transaction. The referral link itself stays the users module's own.

/** Each of `ids` that exists, with who referred them (null when nobody did) and when they registered. */
export function referrersOf(
  tx: TxContext['tx'],
  ids: string[],
): Promise<{ id: string; referredBy: string | null; createdAt: Date }[]> {
  return tx
    .select({ id: users.id, referredBy: users.referredBy, createdAt: users.createdAt })
    .from(users)
    .where(inArray(users.id, ids));
}
