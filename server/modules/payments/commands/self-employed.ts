import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { selfEmployed, type SelfEmployedRow } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { normalisePhone, PAYMENT_MESSAGES, type SelfEmployed, type SelfEmployedInput } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';
import { YookassaProvider } from '../providers/yookassa/provider.ts';

// Self-employed sellers' receipts (ADR 050): a seller declares their INN or phone; ЮKassa registers them
// (POST /v3/self_employed) and they allow ЮKassa in «Мой налог»; while ЮKassa says `confirmed`, each of their card
// and wallet payouts carries `self_employed` and `receipt_data`, and ЮKassa registers the receipt.

/** ЮKassa's payouts, when it pays cards or wallets out; null otherwise (self-employment cannot be declared). */
function payoutsOf(deps: PaymentContext) {
  const provider = deps.providers.payoutsFor('yoomoney');
  return provider instanceof YookassaProvider ? provider.payouts : null;
}

const present = (row: SelfEmployedRow | undefined): SelfEmployed =>
  row ? { status: row.status, itn: row.itn, phone: row.phone, confirmation_url: row.status === 'pending' ? row.confirmationUrl : null } : null;

/** Registers the seller at ЮKassa under a key made of them and what they gave: asked again, the same registration. */
export async function declareSelfEmployed(deps: PaymentContext, user: UserRow, input: SelfEmployedInput): Promise<SelfEmployed> {
  const payouts = payoutsOf(deps);
  if (!payouts) throw new HttpError(409, PAYMENT_MESSAGES.selfEmployedUnavailable);
  const who = input.itn ? { itn: input.itn } : { phone: normalisePhone(input.phone!)! };
  const key = createHash('sha256').update(`${user.id}:${who.itn ?? who.phone}`).digest('hex').slice(0, 40);
  const made = await payouts.registerSelfEmployed(key, who);
  const values = {
    itn: who.itn ?? null,
    phone: who.phone ?? null,
    providerRef: made.id,
    status: made.status,
    confirmationUrl: made.confirmation?.confirmation_url ?? null,
    updatedAt: deps.clock.now(),
  };
  const [row] = await deps.db
    .insert(selfEmployed)
    .values({ userId: user.id, ...values })
    .onConflictDoUpdate({ target: selfEmployed.userId, set: values })
    .returning();
  return present(row);
}

/** The seller's self-employment; while not confirmed, its status is read again from ЮKassa. */
export async function mySelfEmployed(deps: PaymentContext, user: UserRow): Promise<SelfEmployed> {
  const [row] = await deps.db.select().from(selfEmployed).where(eq(selfEmployed.userId, user.id));
  const payouts = payoutsOf(deps);
  if (!row || !row.providerRef || row.status === 'confirmed' || !payouts) return present(row);
  const now = await payouts.selfEmployed(row.providerRef).catch(() => null);
  if (!now || now.status === row.status) return present(row);
  const [fresh] = await deps.db.update(selfEmployed).set({ status: now.status, updatedAt: deps.clock.now() }).where(eq(selfEmployed.userId, user.id)).returning();
  return present(fresh);
}

/**
 * The seller's id at ЮKassa as a confirmed self-employed person, or null. Asked of ЮKassa before each payout, so a
 * person who withdrew ЮKassa's rights in «Мой налог» gets a payout without a receipt rather than a refused one.
 */
export async function selfEmployedIdOf(deps: PaymentContext, userId: string): Promise<string | null> {
  const [row] = await deps.db.select().from(selfEmployed).where(eq(selfEmployed.userId, userId));
  const payouts = payoutsOf(deps);
  if (!row?.providerRef || !payouts) return null;
  const now = await payouts.selfEmployed(row.providerRef);
  if (now && now.status !== row.status) await deps.db.update(selfEmployed).set({ status: now.status, updatedAt: deps.clock.now() }).where(eq(selfEmployed.userId, userId));
  return now?.status === 'confirmed' ? row.providerRef : null;
}
