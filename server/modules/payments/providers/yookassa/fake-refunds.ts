import { randomUUID } from 'node:crypto';
import type { YookassaDeal, YookassaPayment } from './client.ts';
import type { YookassaRefund } from './refunds.ts';

// The refunds of the local ЮKassa (fake.ts, ADR 051): POST /v3/refunds (under the fake's Basic auth and
// idempotence keys), GET /v3/refunds/{id}, and the list GET /v3/refunds with created_at filters and cursor pages.
// A refund of a payment in a safe deal must say how much of the seller's payout it takes back (refund_settlements)
// and lowers the deal's balance; a test can make the next refunds stay pending, or be canceled by the card network.

type Outcome = [status: number, body: unknown];
type Deal = YookassaDeal & { payout_balance?: { value: string; currency: string } };

const money = /^\d{1,13}(\.\d{1,2})?$/;
const cents = (value: string) => Math.round(Number(value) * 100);
const rubles = (kopecks: number) => `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
const invalid = (parameter: string, description: string): Outcome => [
  400,
  { code: 'invalid_request', description, parameter },
];
const listError = (parameter: string, description: string): Outcome => [
  400,
  { type: 'error', id: randomUUID(), code: 'invalid_request', description, parameter },
];

export class FakeRefunds {
  readonly refunds = new Map<string, YookassaRefund>();
  /** What the next refunds made become: `pending` stays pending until settle(); `canceled` is the card network's no. */
  readonly next: ('pending' | 'canceled')[] = [];

  constructor(
    private readonly payments: Map<string, YookassaPayment>,
    private readonly deals: Map<string, Deal>,
    private readonly now: () => Date,
  ) {}

  /** Kopecks of a payment refunded (or being refunded) so far. */
  refundedOf(paymentId: string): number {
    return [...this.refunds.values()]
      .filter((r) => r.payment_id === paymentId && r.status !== 'canceled')
      .reduce((s, r) => s + cents(r.amount.value), 0);
  }

  /** A refund made in the shop's dashboard (no metadata of ours). */
  add(paymentId: string, value: string): string {
    const id = `${randomUUID().slice(0, 8)}-0015-5000-9000-${randomUUID().slice(-12)}`;
    this.refunds.set(id, {
      id,
      payment_id: paymentId,
      status: 'succeeded',
      amount: { value, currency: 'RUB' },
      created_at: this.now().toISOString(),
    });
    return id;
  }

  /**
   * A deal's lifetime runs out (ADR 058): ЮKassa closes it and returns what it still holds to the payer by itself, a
   * refund of the deal's payment with no metadata of ours. Null when the deal held nothing any more.
   */
  endOfDeal(dealId: string): YookassaRefund | null {
    const deal = this.deals.get(dealId);
    if (!deal || deal.status !== 'opened') throw new Error(`fake ЮKassa: no open deal ${dealId}`);
    deal.status = 'closed';
    const payment = [...this.payments.values()].find((p) => p.deal?.id === dealId && p.status === 'succeeded');
    const left = cents(deal.balance.value);
    if (!payment || left === 0) return null;
    const id = `${randomUUID().slice(0, 8)}-0015-5000-a000-${randomUUID().slice(-12)}`;
    const settled = deal.payout_balance ?? { value: '0.00', currency: 'RUB' };
    const refund: YookassaRefund = {
      id,
      payment_id: payment.id,
      status: 'succeeded',
      amount: { value: rubles(left), currency: 'RUB' },
      created_at: this.now().toISOString(),
      deal: { id: dealId, refund_settlements: [{ type: 'payout', amount: { value: settled.value, currency: 'RUB' } }] },
    };
    this.refunds.set(id, refund);
    deal.balance = { value: '0.00', currency: 'RUB' };
    deal.payout_balance = { value: '0.00', currency: 'RUB' };
    return refund;
  }

  /** A pending refund ends: succeeded lowers its deal's balance. */
  settle(id: string, status: 'succeeded' | 'canceled'): YookassaRefund {
    const refund = this.refunds.get(id);
    if (!refund || refund.status !== 'pending') throw new Error(`fake ЮKassa: no pending refund ${id}`);
    refund.status = status;
    if (status === 'canceled') refund.cancellation_details = { party: 'payment_network', reason: 'rejected_by_payee' };
    else this.lowerDeal(refund);
    return refund;
  }

  create(body: Record<string, unknown>): Outcome {
    const payment = this.payments.get(typeof body.payment_id === 'string' ? body.payment_id : '');
    if (!payment) return invalid('payment_id', 'Payment not found');
    if (payment.status !== 'succeeded') return invalid('payment_id', 'Payment is not succeeded');
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    if (
      typeof amount?.value !== 'string' ||
      !money.test(amount.value) ||
      amount.currency !== 'RUB' ||
      cents(amount.value) < 1
    )
      return invalid('amount', 'Invalid amount');
    const kopecks = cents(amount.value);
    if (kopecks > cents(payment.amount.value) - this.refundedOf(payment.id))
      return invalid('amount', 'Refund amount exceeds the payment amount');
    const deal = payment.deal ? this.deals.get(payment.deal.id) : undefined;
    const asked = body.deal as
      { refund_settlements?: { type?: unknown; amount?: { value?: unknown; currency?: unknown } }[] } | undefined;
    let dealPart: YookassaRefund['deal'];
    if (deal) {
      const settlement = asked?.refund_settlements?.[0];
      const value = settlement?.amount?.value;
      if (settlement?.type !== 'payout' || typeof value !== 'string' || !money.test(value) || cents(value) > kopecks)
        return invalid('deal.refund_settlements', 'Invalid refund_settlements');
      if (deal.status !== 'opened')
        return [400, { code: 'invalid_request', description: 'Deal is closed', parameter: 'deal' }];
      if (cents(deal.balance.value) < kopecks) return invalid('amount', 'Not enough money in the deal');
      dealPart = { id: deal.id, refund_settlements: [{ type: 'payout', amount: { value, currency: 'RUB' } }] };
    }
    const status = this.next.shift() ?? 'succeeded';
    const refund: YookassaRefund = {
      id: `${randomUUID().slice(0, 8)}-0015-5000-8000-${randomUUID().slice(-12)}`,
      payment_id: payment.id,
      status: 'pending',
      amount: { value: amount.value, currency: 'RUB' },
      created_at: this.now().toISOString(),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(dealPart ? { deal: dealPart } : {}),
      ...(body.metadata ? { metadata: body.metadata as Record<string, string> } : {}),
    };
    this.refunds.set(refund.id, refund);
    if (status !== 'pending') this.settle(refund.id, status);
    return [200, refund];
  }

  /** GET /v3/refunds and GET /v3/refunds/{id}. */
  read(path: string, query: URLSearchParams): Outcome {
    return path === '/v3/refunds' ? this.list(query) : this.get(path.slice('/v3/refunds/'.length));
  }

  get(id: string): Outcome {
    const refund = this.refunds.get(id);
    return refund
      ? [200, refund]
      : [404, { type: 'error', id: randomUUID(), code: 'not_found', description: 'Refund not found' }];
  }

  /** GET /v3/refunds: by `created_at.gte|gt|lte|lt` and `payment_id`, newest first, `limit` (1–100) a page, `cursor`. */
  list(query: URLSearchParams): Outcome {
    const limit = Number(query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return listError('limit', 'Invalid limit');
    const tests: Record<string, (c: number, b: number) => boolean> = {
      'created_at.gte': (c, b) => c >= b,
      'created_at.gt': (c, b) => c > b,
      'created_at.lte': (c, b) => c <= b,
      'created_at.lt': (c, b) => c < b,
    };
    const filters: ((r: YookassaRefund) => boolean)[] = [];
    for (const [name, test] of Object.entries(tests)) {
      const value = query.get(name);
      if (value === null) continue;
      const bound = Date.parse(value);
      if (Number.isNaN(bound)) return listError(name, `Invalid ${name}`);
      filters.push((r) => test(Date.parse(r.created_at), bound));
    }
    const paymentId = query.get('payment_id');
    if (paymentId) filters.push((r) => r.payment_id === paymentId);
    const cursor = query.get('cursor');
    const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^r:/, ''));
    if (!Number.isSafeInteger(offset) || offset < 0) return listError('cursor', 'Invalid cursor');
    const all = [...this.refunds.values()]
      .filter((r) => filters.every((f) => f(r)))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    const next = offset + limit < all.length ? Buffer.from(`r:${offset + limit}`).toString('base64url') : undefined;
    return [200, { type: 'list', items: all.slice(offset, offset + limit), ...(next ? { next_cursor: next } : {}) }];
  }

  private lowerDeal(refund: YookassaRefund) {
    const deal = refund.deal && this.deals.get(refund.deal.id);
    if (!deal) return;
    deal.balance = { value: rubles(cents(deal.balance.value) - cents(refund.amount.value)), currency: 'RUB' };
    const settled = refund.deal?.refund_settlements?.[0]?.amount.value;
    if (deal.payout_balance && settled) deal.payout_balance = { value: rubles(Math.max(0, cents(deal.payout_balance.value) - cents(settled))), currency: 'RUB' };
    // A deal whose whole payment went back is closed by ЮKassa.
    if (cents(deal.balance.value) === 0) deal.status = 'closed';
  }
}
