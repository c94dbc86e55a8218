import type { ProviderRefund, RefundRecord, RefundRequest } from '../provider.ts';
import {
  fromKopecks,
  LIST_LIMIT,
  toKopecks,
  YookassaError,
  type YookassaAmount,
  type YookassaClient,
  type YookassaList,
} from './client.ts';

// Refunds inside ЮKassa's safe deal (ADR 051; https://yookassa.ru/developers/api#create_refund and
// …/solutions-for-platforms/safe-deal/integration/refunds): POST /v3/refunds with the payment's id, the amount, and
// `deal.refund_settlements` — how much of the seller's payout in the deal the refund takes back (with
// fee_moment=deal_closed the rest comes out of the platform's fee, which is taken only when the deal closes).
// A refund is `pending` (the card network is still at it), `succeeded`, or `canceled` with cancellation_details.

export interface YookassaRefund {
  id: string;
  payment_id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  amount: YookassaAmount;
  created_at: string;
  description?: string;
  deal?: { id: string; refund_settlements: { type: 'payout'; amount: YookassaAmount }[] };
  cancellation_details?: { party: string; reason: string };
  metadata?: Record<string, string>;
}

const STATES: Record<YookassaRefund['status'], ProviderRefund['state']> = {
  pending: 'pending',
  succeeded: 'succeeded',
  canceled: 'refused',
};

/** A day of refunds is far below this many pages of 100; more means a cursor that never ends. */
const MAX_PAGES = 1_000;

function refundOf(refund: YookassaRefund): ProviderRefund {
  const reason = refund.cancellation_details
    ? `${refund.cancellation_details.party}: ${refund.cancellation_details.reason}`
    : null;
  return { ref: refund.id, state: STATES[refund.status] ?? 'pending', reason };
}

/** The refund made under the key `refund-<our id>`: asked again (a retry, the poll after a crash), the same refund. */
export async function createRefund(client: YookassaClient, request: RefundRequest): Promise<ProviderRefund> {
  const amount = { value: fromKopecks(request.amount), currency: 'RUB' };
  try {
    const made = await client.call<YookassaRefund>(
      'POST',
      '/refunds',
      {
        payment_id: request.paymentRef,
        amount,
        description: request.description.slice(0, 250),
        metadata: { refund_id: request.id },
        deal: {
          refund_settlements: [
            { type: 'payout', amount: { value: fromKopecks(request.sellerReduction), currency: 'RUB' } },
          ],
        },
      },
      `refund-${request.id}`,
    );
    return refundOf(made);
  } catch (error) {
    // A 4xx: ЮKassa will never make this refund (the deal closed, the payment not refundable, the shop's limits).
    if (error instanceof YookassaError)
      return { ref: null, state: 'refused', reason: `${error.code}: ${error.message}` };
    throw error;
  }
}

/** A refund's state now, or null when ЮKassa knows none by that id. */
export async function refundState(client: YookassaClient, ref: string): Promise<ProviderRefund | null> {
  try {
    return refundOf(await client.call<YookassaRefund>('GET', `/refunds/${encodeURIComponent(ref)}`));
  } catch (error) {
    if (error instanceof YookassaError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** Every page of the shop's refunds created in [from, to) (reconciliation). */
export function listRefunds(client: YookassaClient, from: Date, to: Date): Promise<RefundRecord[]> {
  return listAll(client, { 'created_at.gte': from.toISOString(), 'created_at.lt': to.toISOString() }, 'one day');
}

/** Every refund of one payment: ours, and the one ЮKassa makes itself when the payment's deal ends (ADR 058). */
export function refundsOfPayment(client: YookassaClient, paymentRef: string): Promise<RefundRecord[]> {
  return listAll(client, { payment_id: paymentRef }, `payment ${paymentRef}`);
}

async function listAll(client: YookassaClient, filter: Record<string, string>, what: string): Promise<RefundRecord[]> {
  const records: RefundRecord[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const query = new URLSearchParams({ ...filter, limit: String(LIST_LIMIT) });
    if (cursor) query.set('cursor', cursor);
    const page = await client.call<YookassaList<YookassaRefund>>('GET', `/refunds?${query}`);
    for (const refund of page.items) {
      records.push({
        ...refundOf(refund),
        ref: refund.id,
        refundId: refund.metadata?.refund_id ?? null,
        paymentRef: refund.payment_id,
        currency: refund.amount.currency,
        amount: toKopecks(refund.amount.value) ?? 0,
      });
    }
    cursor = page.next_cursor;
    if (!cursor) return records;
  }
  throw new Error(`ЮKassa listed more than ${MAX_PAGES} pages of refunds for ${what}`);
}
