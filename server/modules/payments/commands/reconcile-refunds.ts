import { and, eq, gte, inArray, lt, or } from 'drizzle-orm';
import { paymentRefunds, type PaymentRefundRow } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import type { ProviderRefund, RefundProvider, RefundRecord } from '../providers/provider.ts';
import type { Found } from './reconcile.ts';

// The refunds half of the daily reconciliation (ADR 051): a day's refunds as the provider lists them (ЮKassa:
// GET /v3/refunds by created_at, every cursor page), against our refunds inside safe deals.
//
//   provider says           we have                                  kind
//   succeeded or pending    no refund of ours                        refund_unknown (there, not here)
//   succeeded               pending                                  refund_unsettled (the poll may be behind)
//   succeeded               refused, money on the customer's balance refund_twice (the customer has it twice)
//   canceled, or unlisted   succeeded (left the ledger to the card)  refund_not_at_provider (here, not there)
//   amount a                amount b ≠ a                             refund_amount
//   —                       refused                                  refund_refused (the deal still holds it)

const UUID = /^[0-9a-f-]{36}$/i;

export async function compareRefunds(deps: PaymentContext, providerName: string, provider: RefundProvider, from: Date, to: Date): Promise<{ listed: number; found: Found[] }> {
  const records = await provider.listRefunds(from, to);
  const refs = records.map((r) => r.ref);
  const ids = records.flatMap((r) => (r.refundId && UUID.test(r.refundId) ? [r.refundId] : []));
  const named = refs.length ? [inArray(paymentRefunds.providerRef, refs), ...(ids.length ? [inArray(paymentRefunds.id, ids)] : [])] : [];
  const ours = await deps.db
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.provider, providerName), or(and(gte(paymentRefunds.createdAt, from), lt(paymentRefunds.createdAt, to)), ...named)));
  const byRef = new Map(ours.filter((r) => r.providerRef).map((r) => [r.providerRef!, r]));
  const byId = new Map(ours.map((r) => [r.id, r]));
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const refund = byRef.get(record.ref) ?? (record.refundId ? byId.get(record.refundId) : undefined);
    if (refund) seen.add(refund.id);
    found.push(...judgeRefund(record, refund));
  }
  for (const refund of ours) {
    if (refund.status === 'refused') found.push(refundDifference('refund_refused', refund.providerRef ?? refund.id, refund, { reason: refund.failureReason }));
    if (seen.has(refund.id) || refund.status !== 'succeeded') continue;
    // Succeeded here and not in the day's list (made just across midnight, or not at all): asked on its own.
    const state: ProviderRefund | null = refund.providerRef ? await provider.refundState(refund.providerRef) : null;
    if (state?.state !== 'succeeded') found.push(refundDifference('refund_not_at_provider', refund.providerRef ?? refund.id, refund, { provider_status: state?.state ?? 'unknown' }));
  }
  return { listed: records.length, found };
}

function refundDifference(kind: Found['kind'], providerRef: string, refund: PaymentRefundRow | undefined, details: Record<string, unknown>): Found {
  const ours = refund ? { refund_id: refund.id, order_id: refund.orderId, our_status: refund.status, our_amount: refund.amount } : {};
  return { kind, providerRef, paymentId: refund?.paymentId ?? null, details: { ...ours, ...details } };
}

function judgeRefund(record: RefundRecord, refund: PaymentRefundRow | undefined): Found[] {
  const theirs = { provider_status: record.state, provider_amount: record.amount, provider_currency: record.currency, provider_payment_id: record.paymentRef };
  if (!refund) return record.state === 'refused' ? [] : [refundDifference('refund_unknown', record.ref, undefined, { ...theirs, provider_refund_id: record.refundId })];
  if (record.state === 'succeeded' && refund.status === 'pending') return [refundDifference('refund_unsettled', record.ref, refund, theirs)];
  if (record.state === 'succeeded' && refund.status === 'refused') return [refundDifference('refund_twice', record.ref, refund, theirs)];
  if (record.state === 'refused' && refund.status === 'succeeded') return [refundDifference('refund_not_at_provider', record.ref, refund, theirs)];
  if (record.state !== 'refused' && (record.currency !== 'RUB' || record.amount !== refund.amount)) return [refundDifference('refund_amount', record.ref, refund, theirs)];
  return [];
}
