import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MINOR_DECIMALS, toDecimalString, toMinorUnits, type CryptoCurrency, type InvoiceAdditionalStatus, type InvoiceStatus, type PayoutState } from './client.ts';

// A local fake of BTCPay Server (test support): the Greenfield v1 calls of client.ts with their paths, auth, JSON
// shapes, statuses and error bodies, an in-memory store, a checkout page at /i/{invoiceId}, and controls that move
// invoices and payouts the way BTCPay's InvoiceWatcher does, each delivering the matching signed webhook.

export interface FakeOptions {
  storeId?: string;
  apiKey?: string;
  webhookSecret?: string;
  /** Where webhooks are POSTed (also settable later, or through POST /api/v1/stores/{storeId}/webhooks). */
  webhookUrl?: string;
}

interface FakePayment { id: string; minor: number; status: 'Processing' | 'Settled'; receivedDate: number }
interface FakeInvoice {
  id: string; currency: CryptoCurrency; amount: number; status: InvoiceStatus; additionalStatus: InvoiceAdditionalStatus;
  metadata: Record<string, unknown>; checkout: Record<string, unknown>; createdTime: number; expirationTime: number; payments: FakePayment[];
}
interface FakePayout { id: string; revision: number; date: number; destination: string; currency: CryptoCurrency; amount: string; payoutMethodId: string; state: PayoutState; metadata: Record<string, unknown> }
export interface Delivery { deliveryId: string; body: string; headers: Record<string, string>; status: number | null }
type Failure = { kind: 'status500' | 'timeout'; method?: string; path?: RegExp };

const PAYMENT_METHOD: Record<CryptoCurrency, string> = { BTC: 'BTC-CHAIN', USDT: 'USDT-TRON' };
/** How the fake writes a payment's value: BTC in 8 decimals, USDT in 6 like TRC-20 (our cents then padded). */
const VALUE_DECIMALS: Record<CryptoCurrency, number> = { BTC: 8, USDT: 6 };
const id = (n = 22) => [...randomBytes(n)].map((b) => '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'[b % 58]).join('');
const now = () => Math.floor(Date.now() / 1000);
const money = (minor: number, c: CryptoCurrency) => toDecimalString(minor, MINOR_DECIMALS[c]);
const value = (minor: number, c: CryptoCurrency) => toDecimalString(minor * 10 ** (VALUE_DECIMALS[c] - MINOR_DECIMALS[c]), VALUE_DECIMALS[c]);

type Answer = [number, unknown] | null;
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class FakeBtcpay {
  url = '';
  /** Where webhooks are POSTed (also set by POST /api/v1/stores/{storeId}/webhooks). */
  webhookUrl: string | undefined;
  readonly store: { id: string; invoices: Map<string, FakeInvoice>; payouts: Map<string, FakePayout> };
  readonly apiKey: string;
  webhookSecret: string;
  readonly webhookId = id();
  /** Every webhook the fake sent (POSTed when webhookUrl is set), with its raw body and headers. */
  readonly deliveries: Delivery[] = [];
  /** Every API request the fake received (method, path with query), for tests to count calls. */
  readonly requests: { method: string; path: string }[] = [];
  private readonly failures: Failure[] = [];
  private loseAnswers = 0;
  /** The fake's time for new invoices (a test moves it to make an invoice on another day). */
  now: () => Date = () => new Date();
  private readonly server = createServer((req, res) => this.handle(req, res));

  constructor(options: FakeOptions = {}) {
    this.store = { id: options.storeId ?? id(44), invoices: new Map(), payouts: new Map() };
    this.apiKey = options.apiKey ?? id(40);
    this.webhookSecret = options.webhookSecret ?? id(30);
    this.webhookUrl = options.webhookUrl;
  }

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close() {
    return new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** The next n API calls (matching method and path, if given) answer 500 or never answer. */
  failNext(n: number, kind: Failure['kind'], match: { method?: string; path?: RegExp } = {}) {
    for (let i = 0; i < n; i++) this.failures.push({ kind, ...match });
  }

  /** BTCPay is back: the failures still queued are dropped. */
  recover() {
    this.failures.length = 0;
  }

  /** The next invoice is made, then its connection destroyed before the answer. */
  loseNextAnswer() {
    this.loseAnswers++;
  }

  // ---- JSON shapes ---------------------------------------------------------------------------------------------
  private paid = (inv: FakeInvoice) => inv.payments.reduce((sum, p) => sum + p.minor, 0);

  invoiceJson(inv: FakeInvoice) {
    return {
      id: inv.id, storeId: this.store.id, amount: money(inv.amount, inv.currency), paidAmount: money(this.paid(inv), inv.currency), currency: inv.currency,
      type: 'Standard', checkoutLink: `${this.url}/i/${inv.id}`, createdTime: inv.createdTime, expirationTime: inv.expirationTime,
      monitoringExpiration: inv.expirationTime + 86_400, status: inv.status, additionalStatus: inv.additionalStatus,
      availableStatusesForManualMarking: inv.status === 'Settled' || inv.status === 'Invalid' ? [] : ['Settled', 'Invalid'],
      archived: false, metadata: inv.metadata, checkout: { ...inv.checkout, paymentMethods: [PAYMENT_METHOD[inv.currency]] }, receipt: { enabled: true },
    };
  }

  methodsJson(inv: FakeInvoice) {
    const c = inv.currency;
    const total = this.paid(inv);
    return [{
      paymentMethodId: PAYMENT_METHOD[c], currency: c, destination: `addr-${inv.id}`, paymentLink: `bitcoin:addr-${inv.id}`, rate: '1',
      paymentMethodPaid: value(total, c), totalPaid: value(total, c), due: (inv.amount >= total ? '' : '-') + value(Math.abs(inv.amount - total), c),
      amount: value(inv.amount, c), paymentMethodFee: '0', activated: true, additionalData: {},
      payments: inv.payments.map((p) => ({ id: p.id, receivedDate: p.receivedDate, value: value(p.minor, c), fee: '0', status: p.status, destination: `addr-${inv.id}` })),
    }];
  }

  private payoutJson = (p: FakePayout) => ({
    id: p.id, revision: p.revision, pullPaymentId: null, date: String(p.date), destination: p.destination, originalCurrency: p.currency,
    originalAmount: p.amount, payoutCurrency: p.currency, payoutAmount: p.state === 'AwaitingApproval' ? null : p.amount, payoutMethodId: p.payoutMethodId,
    state: p.state, paymentProof: p.state === 'Completed' ? { proofType: 'PayoutTransactionOnChainBlob', transactionId: `tx-${p.id}` } : null, metadata: p.metadata,
  });

  // ---- Webhooks ------------------------------------------------------------------------------------------------
  /** BTCPay's webhook: camelCase, indented JSON, signed `sha256=<hex HMAC of the bytes>`. */
  private async deliver(body: Record<string, unknown>, signWith = this.webhookSecret): Promise<Delivery> {
    const raw = JSON.stringify(body, null, 2);
    const headers = { 'content-type': 'application/json', 'btcpay-sig': `sha256=${createHmac('sha256', signWith).update(raw).digest('hex')}` };
    const delivery: Delivery = { deliveryId: String(body.deliveryId ?? ''), body: raw, headers, status: null };
    this.deliveries.push(delivery);
    if (this.webhookUrl) {
      try {
        delivery.status = (await fetch(this.webhookUrl, { method: 'POST', headers, body: raw, signal: AbortSignal.timeout(5000) })).status;
      } catch {
        delivery.status = 0;
      }
    }
    return delivery;
  }

  private emit(type: string, extra: Record<string, unknown>) {
    const deliveryId = id();
    return this.deliver({ deliveryId, webhookId: this.webhookId, originalDeliveryId: deliveryId, isRedelivery: false, type, timestamp: now(), storeId: this.store.id, ...extra });
  }

  private invoiceEvent(inv: FakeInvoice, type: string, extra: Record<string, unknown> = {}) {
    return this.emit(type, { invoiceId: inv.id, metadata: inv.metadata, ...extra });
  }

  private must(invoiceId: string) {
    const inv = this.store.invoices.get(invoiceId);
    if (!inv) throw new Error(`fake btcpay: no invoice ${invoiceId}`);
    return inv;
  }

  // ---- HTTP ----------------------------------------------------------------------------------------------------
  private handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', this.url);
      const checkout = /^\/i\/([^/]+)$/.exec(url.pathname);
      if (checkout && req.method === 'GET') {
        const inv = this.store.invoices.get(checkout[1]!);
        res.writeHead(inv ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(inv ? `<!doctype html><title>Invoice ${inv.id}</title><h1>Pay ${money(inv.amount, inv.currency)} ${inv.currency}</h1><p data-status="${inv.status}">${inv.status}</p>` : '<h1>Invoice not found</h1>');
        return;
      }
      this.requests.push({ method: req.method ?? '', path: url.pathname + url.search });
      let body: Body = {};
      try {
        if (chunks.length) body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'invalid-json', message: 'The request body is not valid JSON' }));
        return;
      }
      const answer = this.route(req, url, body ?? {});
      if (answer) res.writeHead(answer[0], { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer[1]));
    });
  }

  private route(req: IncomingMessage, url: URL, body: Body): Answer {
    const m = /^\/api\/v1\/stores\/([^/]+)\/(invoices|payouts|webhooks)(?:\/([^/]+))?(?:\/(payment-methods))?$/.exec(url.pathname);
    if (!m) return [404, { code: 'not-found', message: 'Not found' }];
    if (req.headers.authorization !== `token ${this.apiKey}`) return [401, { code: 'unauthenticated', message: 'Authentication is required for accessing this endpoint' }];
    const [, storeId, kind, itemId, sub] = m;
    const policy = kind === 'payouts' ? 'btcpay.store.canviewpayouts' : kind === 'webhooks' ? 'btcpay.store.webhooks.canmodifywebhooks' : 'btcpay.store.canviewinvoices';
    if (decodeURIComponent(storeId!) !== this.store.id) {
      return [403, { code: 'missing-permission', message: `Insufficient API Permissions. Please use an API key with permission "${policy}". You can create an API key in your account's settings / Api Keys.` }];
    }
    const failure = this.failures.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(url.pathname)));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return f!.kind === 'timeout' ? null : [500, { code: 'generic-error', message: 'An unexpected error happened during the request' }];
    }
    if (kind === 'invoices') return this.invoices(req, url, body, itemId, sub);
    if (kind === 'payouts') return this.payouts(req, url, body, itemId);
    if (req.method === 'POST' && !itemId) {
      if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) return [422, [{ path: 'url', message: 'Invalid url' }]];
      this.webhookUrl = body.url;
      if (body.secret) this.webhookSecret = String(body.secret);
      return [200, { id: this.webhookId, enabled: true, automaticRedelivery: true, url: body.url, authorizedEvents: body.authorizedEvents ?? { everything: true, specificEvents: [] }, secret: this.webhookSecret }];
    }
    return [405, { code: 'method-not-allowed', message: 'Method not allowed' }];
  }

  private invoices(req: IncomingMessage, url: URL, b: Body, itemId: string | undefined, sub: string | undefined): Answer {
    if (req.method === 'GET' && !itemId) return this.listInvoices(url.searchParams);
    if (req.method === 'GET') {
      const inv = this.store.invoices.get(itemId!);
      if (!inv) return [404, { code: 'invoice-not-found', message: 'The invoice was not found' }];
      return [200, sub ? this.methodsJson(inv) : this.invoiceJson(inv)];
    }
    if (req.method !== 'POST' || itemId) return [405, { code: 'method-not-allowed', message: 'Method not allowed' }];
    const errors: { path: string; message: string }[] = [];
    const c = b.currency as CryptoCurrency;
    if (c !== 'BTC' && c !== 'USDT') errors.push({ path: 'currency', message: `Currency ${String(b.currency)} is not supported by the fake` });
    let amount = 0;
    try {
      amount = toMinorUnits(String(b.amount), MINOR_DECIMALS[c] ?? 8);
    } catch {
      errors.push({ path: 'amount', message: 'The amount should be 0 or more.' });
    }
    const minutes = b.checkout?.expirationMinutes ?? 15;
    if (typeof minutes !== 'number' || minutes * 60 < 30) errors.push({ path: 'checkout.expirationMinutes', message: 'Expiration time must be at least 30 seconds' });
    if (errors.length) return [422, errors];
    const created = Math.floor(this.now().getTime() / 1000);
    const inv: FakeInvoice = { id: id(), currency: c, amount, status: 'New', additionalStatus: 'None', metadata: b.metadata ?? {}, checkout: b.checkout ?? {}, createdTime: created, expirationTime: created + minutes * 60, payments: [] };
    this.store.invoices.set(inv.id, inv);
    void this.invoiceEvent(inv, 'InvoiceCreated');
    if (this.loseAnswers > 0) {
      this.loseAnswers--;
      req.socket.destroy();
      return null;
    }
    return [200, this.invoiceJson(inv)];
  }

  /** Greenfield's invoice list: `orderId` (repeatable), `startDate`/`endDate` (unix seconds, both included), `skip`, `take`; newest first. */
  private listInvoices(q: URLSearchParams): Answer {
    const orderIds = q.getAll('orderId');
    const num = (name: string) => (q.has(name) ? Number(q.get(name)) : null);
    const [start, end, skip, take] = [num('startDate'), num('endDate'), num('skip'), num('take')];
    if ([start, end, skip, take].some((n) => n !== null && !Number.isSafeInteger(n))) return [400, { code: 'invalid-query', message: 'Invalid query' }];
    const list = [...this.store.invoices.values()]
      .filter((inv) => !orderIds.length || orderIds.includes(String(inv.metadata.orderId)))
      .filter((inv) => (start === null || inv.createdTime >= start) && (end === null || inv.createdTime <= end))
      .reverse();
    const from = skip ?? 0;
    return [200, list.slice(from, take === null ? undefined : from + take).map((inv) => this.invoiceJson(inv))];
  }

  private payouts(req: IncomingMessage, url: URL, b: Body, itemId: string | undefined): Answer {
    if (req.method === 'GET') {
      if (!itemId) return [200, [...this.store.payouts.values()].filter((p) => p.state !== 'Cancelled' || url.searchParams.get('includeCancelled') === 'true').map(this.payoutJson)];
      const payout = this.store.payouts.get(itemId);
      return payout ? [200, this.payoutJson(payout)] : [404, { code: 'payout-not-found', message: 'The payout was not found' }];
    }
    if (req.method !== 'POST' || itemId) return [405, { code: 'method-not-allowed', message: 'Method not allowed' }];
    const method = Object.entries(PAYMENT_METHOD).find(([, pm]) => pm === b.payoutMethodId);
    if (!method) return [422, [{ path: 'payoutMethodId', message: 'Invalid payment method' }]];
    const c = method[0] as CryptoCurrency;
    if (typeof b.destination !== 'string' || b.destination.length < 10) return [422, [{ path: 'destination', message: 'The destination is invalid for the payment specified' }]];
    let minor = 0;
    try {
      minor = toMinorUnits(String(b.amount), MINOR_DECIMALS[c]);
    } catch {
      /* checked below */
    }
    if (minor <= 0) return [422, [{ path: 'amount', message: 'Amount too small (should be at least 0)' }]];
    if ([...this.store.payouts.values()].some((p) => p.destination === b.destination && p.state !== 'Completed' && p.state !== 'Cancelled')) {
      return [400, { code: 'duplicate-destination', message: 'The payout destination is already used by another payout' }];
    }
    const payout: FakePayout = { id: id(), revision: 0, date: now(), destination: b.destination, currency: c, amount: money(minor, c), payoutMethodId: b.payoutMethodId, state: b.approved ? 'AwaitingPayment' : 'AwaitingApproval', metadata: b.metadata ?? {} };
    this.store.payouts.set(payout.id, payout);
    void this.emit('PayoutCreated', { payoutId: payout.id, pullPaymentId: null, payoutState: payout.state });
    return [200, this.payoutJson(payout)];
  }

  // ---- Controls: what happens at BTCPay ------------------------------------------------------------------------
  /** A payment of `minor` units arrives (unconfirmed unless `confirmed`); `late` expires the invoice first. */
  async pay(invoiceId: string, minor: number, opts: { late?: boolean; confirmed?: boolean } = {}) {
    const inv = this.must(invoiceId);
    if (opts.late && inv.status === 'New') await this.expire(invoiceId);
    inv.payments.push({ id: `${id(32)}-0`, minor, status: opts.confirmed ? 'Settled' : 'Processing', receivedDate: now() });
    const total = this.paid(inv);
    const afterExpiration = inv.status === 'Expired';
    await this.invoiceEvent(inv, 'InvoiceReceivedPayment', { afterExpiration, paymentMethodId: PAYMENT_METHOD[inv.currency], payment: this.methodsJson(inv)[0]!.payments.at(-1) });
    if (inv.status === 'New' && total >= inv.amount) {
      inv.status = 'Processing';
      inv.additionalStatus = total > inv.amount ? 'PaidOver' : 'None';
      await this.invoiceEvent(inv, 'InvoiceProcessing', { overPaid: total > inv.amount });
    } else if (inv.status === 'New' || (afterExpiration && total < inv.amount)) {
      inv.additionalStatus = 'PaidPartial';
    } else if (afterExpiration && inv.additionalStatus !== 'PaidLate') {
      inv.additionalStatus = 'PaidLate';
      await this.invoiceEvent(inv, 'InvoicePaidAfterExpiration');
    }
    if (opts.confirmed) await this.settle(invoiceId);
  }

  /** Its payments confirm: InvoicePaymentSettled for each; a Processing invoice becomes Settled. */
  async settle(invoiceId: string) {
    const inv = this.must(invoiceId);
    for (const p of inv.payments.filter((p) => p.status === 'Processing')) {
      p.status = 'Settled';
      await this.invoiceEvent(inv, 'InvoicePaymentSettled', { afterExpiration: inv.status === 'Expired', paymentMethodId: PAYMENT_METHOD[inv.currency] });
    }
    if (inv.status === 'Processing') {
      inv.status = 'Settled';
      await this.invoiceEvent(inv, 'InvoiceSettled', { manuallyMarked: false, overPaid: inv.additionalStatus === 'PaidOver' });
    }
  }

  async expire(invoiceId: string) {
    const inv = this.must(invoiceId);
    if (inv.status !== 'New') throw new Error(`fake btcpay: a ${inv.status} invoice does not expire`);
    inv.status = 'Expired';
    const partiallyPaid = inv.additionalStatus === 'PaidPartial';
    await this.invoiceEvent(inv, 'InvoiceExpired', { partiallyPaid });
    if (partiallyPaid) await this.invoiceEvent(inv, 'InvoiceExpiredPaidPartial', { partiallyPaid });
  }

  /** Marked invalid by the store's staff. */
  async invalidate(invoiceId: string) {
    const inv = this.must(invoiceId);
    inv.status = 'Invalid';
    inv.additionalStatus = 'Marked';
    await this.invoiceEvent(inv, 'InvoiceInvalid', { manuallyMarked: true });
  }

  /** Redelivers a delivery: a new deliveryId, isRedelivery, the first delivery's id as originalDeliveryId. */
  async redeliver(deliveryId: string) {
    const first = this.deliveries.find((d) => d.deliveryId === deliveryId);
    if (!first) throw new Error(`fake btcpay: no delivery ${deliveryId}`);
    const body = JSON.parse(first.body) as Record<string, unknown>;
    return this.deliver({ ...body, deliveryId: id(), originalDeliveryId: body.originalDeliveryId ?? deliveryId, isRedelivery: true });
  }

  /** Any body, signed with the store's real secret (a body that lies, from the right sender). */
  sendSigned(body: Record<string, unknown>) {
    return this.deliver(body);
  }

  /** Any body with a wrong signature. */
  sendForged(body: Record<string, unknown>) {
    return this.deliver(body, `not-${this.webhookSecret}`);
  }

  approvePayout = (payoutId: string) => this.movePayout(payoutId, 'AwaitingPayment', 'PayoutApproved');
  completePayout = (payoutId: string) => this.movePayout(payoutId, 'Completed', 'PayoutUpdated');
  cancelPayout = (payoutId: string) => this.movePayout(payoutId, 'Cancelled', 'PayoutUpdated');

  private async movePayout(payoutId: string, state: PayoutState, type: string) {
    const payout = this.store.payouts.get(payoutId);
    if (!payout) throw new Error(`fake btcpay: no payout ${payoutId}`);
    payout.state = state;
    payout.revision++;
    return this.emit(type, { payoutId, pullPaymentId: null, payoutState: state });
  }
}

/** A fake BTCPay Server listening on 127.0.0.1 (port 0). */
export function startFakeBtcpay(options: FakeOptions = {}): Promise<FakeBtcpay> {
  return new FakeBtcpay(options).listen();
}
