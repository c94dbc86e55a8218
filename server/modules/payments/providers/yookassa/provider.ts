import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { WebhookEvent } from '#contract/payments';
import type { Clock } from '../../../../platform/clock.ts';
import type { CreatedPayment, PaymentProvider, PayoutProvider, PayoutRequest, ProviderPayment, ProviderRecord, ProviderView, RefundProvider, WebhookReading, WebhookRequest } from '../provider.ts';
import { createRefund, listRefunds, refundsOfPayment, refundState } from './refunds.ts';
import { fromKopecks, toKopecks, YookassaClient, type CallOptions, type YookassaConfig, type YookassaPayment } from './client.ts';
import { PAYOUT_WIDGET_URL, payoutIdOf, YookassaPayouts, type YookassaPayoutsConfig } from './payouts.ts';

// ЮKassa's safe deal (ADR 048): a card payment is a payment inside a deal made for it, so the customer's money is
// held by ЮKassa, not on the platform's account, until the deal pays the seller out or refunds the customer.
// ЮKassa does not sign its webhooks: one is read only when it comes from ЮKassa's networks (the sender's address,
// through TRUST_PROXY), and even then only as a hint: the payment is read again from the API, and that answer is
// what is acted on. A forged body from an allowed address therefore changes nothing the API does not confirm.

export const YOOKASSA = 'yookassa';

/** The events of a payment's end; refund.succeeded is read below (commands/refund.ts); payouts and deals are not acted on. */
const PAYMENT_EVENTS = new Set(['payment.succeeded', 'payment.canceled', 'payment.waiting_for_capture']);
/** The events of a payout's end (ADR 050): the payout is then read again from the API. */
const PAYOUT_EVENTS = new Set(['payout.succeeded', 'payout.canceled']);

/** A day of a busy shop is far below this many pages of 100; more means a cursor that never ends. */
const MAX_PAGES = 1_000;

const STATUSES: Record<YookassaPayment['status'], ProviderRecord['status']> = {
  pending: 'pending',
  waiting_for_capture: 'pending',
  succeeded: 'succeeded',
  canceled: 'failed',
};

/** A listed payment in our words: the whole amount arrived when it succeeded (a safe deal holds it all). */
function recordOf(payment: YookassaPayment): ProviderRecord {
  return {
    ref: payment.id,
    paymentId: payment.metadata?.payment_id ?? null,
    status: STATUSES[payment.status] ?? 'pending',
    currency: payment.amount.currency,
    amount: toKopecks(payment.amount.value) ?? 0,
    createdAt: new Date(payment.created_at),
  };
}

export function networkList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/', 2) as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** Whether an address (IPv4-mapped IPv6 included) is in the list. */
function allowed(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return list.check(address, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}

export class YookassaProvider implements PaymentProvider, PayoutProvider {
  readonly name = YOOKASSA;
  /** Every card payment is made in a safe deal: it takes no top-ups of the balance (ADR 062). */
  readonly safeDeal = true;
  readonly client: YookassaClient;
  /** Payouts to cards and ЮMoney wallets, with the payouts gateway's credentials (the shop's unless told). */
  readonly payouts: YookassaPayouts;
  private readonly senders: BlockList;
  /** Refunds inside the payment's safe deal (refunds.ts, ADR 051). */
  readonly refunds: RefundProvider = {
    refund: (request) => createRefund(this.client, request),
    refundState: (ref) => refundState(this.client, ref),
    listRefunds: (from, to) => listRefunds(this.client, from, to),
    refundsOfPayment: (ref) => refundsOfPayment(this.client, ref),
    dealState: async (ref) => {
      const deal = await this.client.getDeal(ref);
      return deal && { open: deal.status === 'opened', expiresAt: deal.expires_at ? new Date(deal.expires_at) : null };
    },
  };

  constructor(
    config: YookassaConfig & { payouts?: Partial<YookassaPayoutsConfig> },
    private readonly clock: Clock,
    callOptions: CallOptions = {},
  ) {
    this.client = new YookassaClient(config, callOptions);
    this.senders = networkList(config.webhookIps);
    const payouts = config.payouts ?? {};
    this.payouts = new YookassaPayouts(
      config,
      { agentId: payouts.agentId || config.shopId, secretKey: payouts.secretKey || config.secretKey, widgetUrl: payouts.widgetUrl || PAYOUT_WIDGET_URL },
      callOptions,
      this.client,
    );
  }

  /** Each card payment is made in a safe deal, and the seller's share is paid out of it (ADR 053). */
  get dealPayouts() {
    return { sharedTokens: this.payouts.sharedTokens };
  }

  createPayout(request: PayoutRequest) {
    return this.payouts.createPayout(request);
  }

  payoutState(payoutId: string, options?: { inDeal?: boolean }) {
    return this.payouts.payoutState(payoutId, options);
  }

  payoutOutcome(state: string) {
    return this.payouts.payoutOutcome(state);
  }

  /** The gateway's payouts of a window, for the daily reconciliation (payouts.ts). */
  listPayouts(from: Date, to: Date) {
    return this.payouts.listPayouts(from, to);
  }

  /**
   * A deal, then the payment inside it, each under a key made of our payment's id: asked again (a retry, a crash
   * before we noted the answer, the poll), ЮKassa answers the same deal and payment for 24 hours.
   */
  async createPayment(payment: ProviderPayment): Promise<CreatedPayment> {
    if (payment.currency !== 'RUB') throw new Error('ЮKassa takes rubles only');
    // A deal is made for an order's seller; a top-up has none (ADR 062: refused before it gets here).
    if (!payment.orderId) throw new Error('ЮKassa makes card payments in a safe deal: a top-up has no order');
    const deal = await this.client.createDeal(`deal-${payment.id}`, {
      type: 'safe_deal',
      // The platform's fee is taken when the deal closes, so a refund can return the whole payment.
      fee_moment: 'deal_closed',
      description: payment.description,
      metadata: { payment_id: payment.id, order_id: payment.orderId },
    });
    const made = await this.client.createPayment(`payment-${payment.id}`, {
      amount: { value: fromKopecks(payment.currencyAmount), currency: 'RUB' },
      capture: true,
      confirmation: { type: 'redirect', return_url: payment.returnUrl },
      description: payment.description,
      metadata: { payment_id: payment.id, order_id: payment.orderId },
      deal: { id: deal.id, settlements: [{ type: 'payout', amount: { value: fromKopecks(payment.sellerShare), currency: 'RUB' } }] },
    });
    const redirectUrl = made.confirmation?.confirmation_url;
    if (!redirectUrl) throw new Error(`ЮKassa gave payment ${made.id} no confirmation page`);
    return { providerRef: made.id, redirectUrl, dealRef: deal.id, dealExpiresAt: deal.expires_at ? new Date(deal.expires_at) : null };
  }

  async readWebhook({ rawBody, ip }: WebhookRequest): Promise<WebhookReading> {
    if (!allowed(this.senders, ip)) return { refused: `sender ${ip} is not among YOOKASSA_WEBHOOK_IPS` };
    let body: { type?: unknown; event?: unknown; object?: { id?: unknown } };
    try {
      body = JSON.parse(rawBody) as typeof body;
    } catch {
      return { refused: 'body' };
    }
    if (body?.type !== 'notification' || typeof body.event !== 'string') return { refused: 'not a notification' };
    if (PAYOUT_EVENTS.has(body.event)) {
      const payout = payoutIdOf(body.object);
      return payout ? { payout } : { refused: 'no payout id' };
    }
    const id = body.object?.id;
    // A refund's end: only a hint too, the refund is asked for again (commands/refund.ts).
    if (body.event === 'refund.succeeded') return typeof id === 'string' && id.length <= 100 ? { refund: id } : { refused: 'no refund id' };
    if (!PAYMENT_EVENTS.has(body.event)) return { ignored: `event ${body.event}` };
    if (typeof id !== 'string' || id.length > 100) return { refused: 'no payment id' };
    // The body is only a hint: what ЮKassa's API says of the payment now is what happened.
    const payment = await this.client.getPayment(id);
    if (!payment) return { ignored: `payment ${id} unknown to the shop` };
    const event = this.eventOf(payment);
    return event ? { event } : { ignored: `payment ${id} is ${payment.status} at ЮKassa` };
  }

  async checkPayment(providerRef: string): Promise<WebhookEvent | null> {
    const payment = await this.client.getPayment(providerRef);
    return payment ? this.eventOf(payment) : null;
  }

  /** Every page of the shop's payments created in [from, to), mapped onto ours (reconciliation). */
  async listPayments(from: Date, to: Date): Promise<ProviderRecord[]> {
    const records: ProviderRecord[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.client.listPayments(from, to, cursor);
      for (const payment of page.items) records.push(recordOf(payment));
      cursor = page.next_cursor;
      if (!cursor) return records;
    }
    throw new Error(`ЮKassa listed more than ${MAX_PAGES} pages of payments for one day`);
  }

  async describePayment(providerRef: string): Promise<ProviderView | null> {
    const payment = await this.client.getPayment(providerRef);
    if (!payment) return null;
    return { status: payment.status, amount: payment.amount.value, currency: payment.amount.currency, raw: payment as unknown as Record<string, unknown> };
  }

  /** A payment's end as an event; its id is the payment's and its state, so every report of one end is one event. */
  private eventOf(payment: YookassaPayment): WebhookEvent | null {
    if (payment.status !== 'succeeded' && payment.status !== 'canceled') return null;
    const amount = toKopecks(payment.amount.value);
    if (amount === null || amount < 1 || payment.amount.currency !== 'RUB') return null;
    return {
      id: `${payment.id}:${payment.status}`,
      type: payment.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
      payment_ref: payment.id,
      currency: 'RUB',
      amount,
      created: Math.floor(this.clock.now().getTime() / 1000),
    };
  }
}
