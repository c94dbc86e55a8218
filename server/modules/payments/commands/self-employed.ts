import type { PaymentContext } from '../deps.ts';

/** The seller's id at ЮKassa as a confirmed self-employed person, or null: their payouts then carry a receipt. */
export async function selfEmployedIdOf(_deps: PaymentContext, _userId: string): Promise<string | null> {
  return null;
}
