import type { Db } from '../../db/client.ts';
import { savedPayoutMethod, type SavedPayoutMethod } from './queries.ts';

// The payments port for other modules (ADR 049, 050): where a seller's money may be paid out to. A later step pays
// a safe deal's seller share to it when the order completes.

export interface PayoutPort {
  /** The card (widget token and mask) or ЮMoney wallet the seller's last such withdrawal went to, or null. */
  savedPayoutMethod(userId: string): Promise<SavedPayoutMethod | null>;
}

export const payoutPort = (db: Db): PayoutPort => ({ savedPayoutMethod: (userId) => savedPayoutMethod(db, userId) });

export type { SavedPayoutMethod };
