import { inArray, or } from 'drizzle-orm';
import { withdrawals, type WithdrawalRow } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import type { PayoutProvider, PayoutRecord } from '../providers/provider.ts';
import type { Found } from './reconcile.ts';

// The payouts half of the daily reconciliation (issue 27): a day's payouts as the provider lists them, against our
// withdrawals sent through it.
//
//   provider says         we have                         kind
//   paid                  sending                         payout_unsettled (the poll may be behind; can be applied)
//   paid                  returned to the balance         payout_returned (the seller has it twice)
//   cancelled             approved (left the ledger)      payout_not_at_provider
//   any, not cancelled    no withdrawal of ours           payout_unknown

export async function comparePayouts(deps: PaymentContext, provider: PayoutProvider, from: Date, to: Date): Promise<{ listed: number; found: Found[] }> {
  const records = await provider.listPayouts!(from, to);
  const ids = records.map((r) => r.withdrawalId).filter((id): id is string => id !== null && /^[0-9a-f-]{36}$/i.test(id));
  const refs = records.map((r) => r.ref);
  const ours = refs.length
    ? await deps.db
        .select()
        .from(withdrawals)
        .where(or(inArray(withdrawals.payoutRef, refs), ...(ids.length ? [inArray(withdrawals.id, ids)] : [])))
    : [];
  const byRef = new Map(ours.filter((w) => w.payoutRef).map((w) => [w.payoutRef!, w]));
  const byId = new Map(ours.map((w) => [w.id, w]));
  const found = records.flatMap((r) => judgePayout(provider, r, byRef.get(r.ref) ?? (r.withdrawalId ? byId.get(r.withdrawalId) : undefined)));
  return { listed: records.length, found };
}

function judgePayout(provider: PayoutProvider, record: PayoutRecord, w: WithdrawalRow | undefined): Found[] {
  const outcome = provider.payoutOutcome(record.state);
  const details = {
    provider_state: record.state,
    provider_amount: record.amount,
    provider_currency: record.currency,
    ...(w ? { withdrawal_id: w.id, our_status: w.status, our_amount: w.payoutAmount } : {}),
  };
  const found = (kind: Found['kind']): Found[] => [{ kind, providerRef: record.ref, paymentId: null, details }];
  if (!w) return outcome === 'cancelled' ? [] : found('payout_unknown');
  if (outcome === 'paid' && w.status === 'sending') return found('payout_unsettled');
  if (outcome === 'paid' && w.status === 'returned') return found('payout_returned');
  if (outcome === 'cancelled' && w.status === 'approved') return found('payout_not_at_provider');
  return [];
}
