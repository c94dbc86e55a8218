import { and, eq, gte, inArray, isNotNull, lt, or } from 'drizzle-orm';
import { withdrawals, type WithdrawalRow } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import type { PayoutProvider, PayoutRecord } from '../providers/provider.ts';
import type { Found } from './reconcile.ts';

// The payouts half of the daily reconciliation (issue 27, ADR 056): a day's payouts as the provider lists them
// (BTCPay: the store's payouts by date; ЮKassa: GET /v3/payouts by created_at, every cursor page), against our
// withdrawals sent through it — those it names (by its id, or by our metadata.withdrawalId) and those we sent
// that day (approved by an admin in the window), whichever the list lacks being asked for one by one.
//
//   provider says                   we have                              kind
//   paid                            sending                              payout_unsettled (the poll may be behind; can be applied)
//   paid                            returned to the balance              payout_returned (the seller has it twice)
//   cancelled, or unknown to it     approved (left the ledger)           payout_not_at_provider
//   not cancelled, amount a         withdrawal's payout amount b ≠ a     payout_amount
//   any, not cancelled              no withdrawal of ours                payout_unknown (not one made out of a deal)
//   not cancelled, names ours       whose own payout is another one      payout_unknown (a second payout for it)
//   cancelled, names ours           whose own payout is another one      nothing (an earlier try, ADR 053)

/** The currency each withdrawal method is paid in (as commands/payout.ts sends it). */
const CURRENCY: Record<WithdrawalRow['method'], string> = { btc: 'BTC', usdt: 'USDT', card: 'RUB', yoomoney: 'RUB' };
const UUID = /^[0-9a-f-]{36}$/i;

export async function comparePayouts(deps: PaymentContext, provider: PayoutProvider, from: Date, to: Date): Promise<{ listed: number; found: Found[] }> {
  const records = await provider.listPayouts!(from, to);
  const ours = await ourWithdrawals(deps, provider.name, records, from, to);
  const byRef = new Map(ours.filter((w) => w.payoutRef).map((w) => [w.payoutRef!, w]));
  const byId = new Map(ours.map((w) => [w.id, w]));
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const w = byRef.get(record.ref) ?? (record.withdrawalId ? byId.get(record.withdrawalId) : undefined);
    if (w) seen.add(w.id);
    found.push(...judgePayout(provider, record, w));
  }
  // Sent and done here in the window, not in its list (made just across midnight, or not at all): asked on its own.
  for (const w of ours) {
    if (seen.has(w.id) || w.status !== 'approved' || !w.payoutRef || w.payoutProvider !== provider.name) continue;
    // A seller's share out of a safe deal is the shop's payout, not in the gateway's list (ADR 053): asked by id.
    const state = await provider.payoutState(w.payoutRef, { inDeal: w.dealRef !== null });
    if (state && provider.payoutOutcome(state.state) === 'paid') continue;
    const record: PayoutRecord = { ref: w.payoutRef, withdrawalId: w.id, state: state?.state ?? 'unknown', currency: CURRENCY[w.method], amount: 0 };
    found.push(payoutDifference('payout_not_at_provider', record, w, { provider_amount: null }));
  }
  return { listed: records.length, found };
}

/** Our withdrawals sent through this provider and approved in the window, and those its records name. */
async function ourWithdrawals(deps: PaymentContext, providerName: string, records: PayoutRecord[], from: Date, to: Date): Promise<WithdrawalRow[]> {
  const refs = records.map((r) => r.ref);
  const ids = records.flatMap((r) => (r.withdrawalId && UUID.test(r.withdrawalId) ? [r.withdrawalId] : []));
  const sent = and(eq(withdrawals.payoutProvider, providerName), isNotNull(withdrawals.payoutRef), gte(withdrawals.reviewedAt, from), lt(withdrawals.reviewedAt, to));
  const ours: WithdrawalRow[] = [];
  const known = new Set<string>();
  for (let i = 0; i === 0 || i < Math.max(refs.length, ids.length); i += 500) {
    const named = [
      ...(refs.length > i ? [inArray(withdrawals.payoutRef, refs.slice(i, i + 500))] : []),
      ...(ids.length > i ? [inArray(withdrawals.id, ids.slice(i, i + 500))] : []),
    ];
    const rows = await deps.db
      .select()
      .from(withdrawals)
      .where(or(...(i === 0 ? [sent] : []), ...named));
    for (const w of rows) {
      if (known.has(w.id)) continue;
      known.add(w.id);
      ours.push(w);
    }
  }
  return ours;
}

function payoutDifference(kind: Found['kind'], record: PayoutRecord, w: WithdrawalRow | undefined, extra: Record<string, unknown> = {}): Found {
  const details = {
    provider_state: record.state,
    provider_amount: record.amount,
    provider_currency: record.currency,
    ...(record.dealRef ? { provider_deal_id: record.dealRef } : {}),
    ...(w ? { withdrawal_id: w.id, our_status: w.status, our_amount: w.payoutAmount } : { provider_withdrawal_id: record.withdrawalId }),
    ...extra,
  };
  return { kind, providerRef: record.ref, paymentId: null, details };
}

function judgePayout(provider: PayoutProvider, record: PayoutRecord, w: WithdrawalRow | undefined): Found[] {
  const outcome = provider.payoutOutcome(record.state);
  const found = (kind: Found['kind']): Found[] => [payoutDifference(kind, record, w)];
  // A payout of a seller's share out of a safe deal names no withdrawal: it belongs to the deal, not to this list.
  if (!w) return outcome === 'cancelled' || (record.dealRef && !record.withdrawalId) ? [] : found('payout_unknown');
  // An earlier try of ours, cancelled there (a payout out of a deal refused, then sent again to new details, ADR 053):
  // nothing moved; the withdrawal's own payout is another record.
  // Not cancelled there, it is a second payout for one withdrawal: the seller may have been paid twice.
  if (w.payoutRef !== null && w.payoutRef !== record.ref) return outcome === 'cancelled' ? [] : found('payout_unknown');
  if (outcome === 'paid' && w.status === 'sending') return found('payout_unsettled');
  if (outcome === 'paid' && w.status === 'returned') return found('payout_returned');
  if (outcome === 'cancelled' && w.status === 'approved') return found('payout_not_at_provider');
  if (outcome !== 'cancelled' && (record.currency !== CURRENCY[w.method] || record.amount !== w.payoutAmount)) return found('payout_amount');
  return [];
}
