import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { YookassaDeal, YookassaPayment } from './client.ts';
import type { PayoutCaller } from './fake-payouts.ts';
import { escapeHtml } from '../../../../platform/letters/layout.ts';
import { FakePayouts } from './fake-payouts.ts';
import { FakeRefunds } from './fake-refunds.ts';

// A local ЮKassa for the tests and the browser tests (ADR 048): the API v3 paths the adapter calls, with ЮKassa's
// Basic auth, its idempotence keys (the same key and body answer the same object for 24 hours; the same key with
// another body is an error), its JSON shapes and error bodies, a confirmation page whose buttons pay or cancel and
// then send the notification to the shop's webhook address, and the failures the adapter must survive.

type Failure = 'status500' | 'timeout' | 'lostAnswer' | 'refuse';

interface Kept {
  body: string;
  status: number;
  answer: unknown;
}

const money = /^\d{1,13}(\.\d{1,2})?$/;
type Stored = YookassaPayment & { return_url: string; description?: string };
type Outcome = [status: number, body: unknown];

const listError = (parameter: string, description: string): Outcome => [400, { type: 'error', id: randomUUID(), code: 'invalid_request', description, parameter }];
const invalid = (parameter: string, description: string): Outcome => [400, { code: 'invalid_request', description, parameter }];
const publicPayment = ({ return_url: _, ...payment }: Stored) => payment;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, code: string, description: string, parameter?: string) {
  send(res, status, { type: 'error', id: randomUUID(), code, description, ...(parameter ? { parameter } : {}) });
}

export class FakeYookassa {
  url = '';
  /** Where notifications go (the app's /api/payments/webhooks/yookassa). */
  webhookUrl: string | null = null;
  readonly payments = new Map<string, Stored>();
  /** The fake's time: payments are made at it (a test moves it to make a payment on another day). */
  now: () => Date = () => new Date();
  readonly deals = new Map<string, YookassaDeal & { fee_moment: unknown; metadata: Record<string, string> }>();
  /** Every API request, in order: method, path and idempotence key. */
  readonly requests: { method: string; path: string; key: string | null }[] = [];
  /** Refunds (fake-refunds.ts): POST/GET /v3/refunds, each lowering its deal's balance. */
  readonly refunds = new FakeRefunds(this.payments, this.deals, () => this.now());
  private readonly kept = new Map<string, Kept>();
  private readonly failures: Failure[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly auth: string;
  private readonly agentAuth: string;
  /** Payouts, the payout widget and self-employed sellers (fake-payouts.ts). */
  readonly payoutDesk: FakePayouts;
  private readonly server = createServer((req, res) => this.route(req, res));

  constructor(
    readonly shopId = '100500',
    readonly secretKey = 'test_fake_secret_key',
    /** The payouts gateway's agentId and key (the cabinet's «Настройки выплат»): payouts take only these. */
    readonly agentId = '505050',
    readonly agentSecretKey = 'test_fake_payout_key',
  ) {
    this.auth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
    this.agentAuth = `Basic ${Buffer.from(`${agentId}:${agentSecretKey}`).toString('base64')}`;
    this.payoutDesk = new FakePayouts({ now: () => this.now(), sendRaw: (body) => this.sendRaw(body), deals: this.deals }, agentId, shopId);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next `count` API calls fail this way (a payment is still made when its answer is lost). */
  failNext(count: number, failure: Failure) {
    this.failures.push(...Array<Failure>(count).fill(failure));
  }

  /** The customer pays on the confirmation page; ЮKassa then notifies the shop unless told not to. */
  pay(paymentId: string, options: { notify?: boolean } = {}) {
    return this.settle(paymentId, 'succeeded', options.notify ?? true);
  }

  cancel(paymentId: string, options: { notify?: boolean } = {}) {
    return this.settle(paymentId, 'canceled', options.notify ?? true);
  }

  /** A payment made at ЮKassa some other way (the shop's dashboard, another program): metadata as given. */
  addPayment(value: string, status: 'pending' | 'succeeded' | 'canceled', metadata: Record<string, string> = {}): string {
    const id = `${randomUUID().slice(0, 8)}-000f-5000-9000-${randomUUID().slice(-12)}`;
    const created_at = this.now().toISOString();
    this.payments.set(id, { id, status, paid: status === 'succeeded', amount: { value, currency: 'RUB' }, created_at, metadata, return_url: '' });
    return id;
  }

  /**
   * The deal's lifetime runs out (ADR 058): closed, what it held returned to the payer, and `deal.closed` sent.
   * Answers ЮKassa's refund, or null when the deal held nothing any more.
   */
  async endDeal(dealId: string, options: { notify?: boolean } = {}) {
    const refund = this.refunds.endOfDeal(dealId);
    if ((options.notify ?? true) && this.webhookUrl) await this.sendRaw({ type: 'notification', event: 'deal.closed', object: this.deals.get(dealId) });
    return refund;
  }

  /** Sends the notification of a payment's present state again (ЮKassa repeats one until it gets a 200). */
  notify(paymentId: string, event?: string): Promise<number> {
    const payment = this.payments.get(paymentId)!;
    return this.sendRaw({ type: 'notification', event: event ?? `payment.${payment.status}`, object: publicPayment(payment) });
  }

  /** Sends any body to the webhook address, as a forger at an allowed address would. */
  async sendRaw(body: unknown): Promise<number> {
    if (!this.webhookUrl) throw new Error('fake ЮKassa: no webhook address');
    const res = await fetch(this.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    return res.status;
  }

  private async settle(id: string, status: 'succeeded' | 'canceled', notify: boolean) {
    const payment = this.payments.get(id);
    if (!payment) throw new Error(`fake ЮKassa: no payment ${id}`);
    if (payment.status !== 'pending') return;
    payment.status = status;
    payment.paid = status === 'succeeded';
    if (status === 'canceled') payment.cancellation_details = { party: 'yoo_money', reason: 'card_expired' };
    const deal = payment.deal && this.deals.get(payment.deal.id);
    if (deal && status === 'succeeded') {
      deal.balance = { value: payment.amount.value, currency: 'RUB' };
      const share = payment.deal!.settlements?.[0] as { amount?: { value?: string } } | undefined;
      deal.payout_balance = { value: share?.amount?.value ?? '0.00', currency: 'RUB' };
    }
    if (notify) await this.notify(id);
  }

  private createDeal(body: Record<string, unknown>): Outcome {
    if (body.type !== 'safe_deal') return invalid('type', 'Invalid deal type');
    if (body.fee_moment !== 'payment_succeeded' && body.fee_moment !== 'deal_closed') return invalid('fee_moment', 'Invalid fee_moment');
    const now = this.now();
    const deal = {
      type: 'safe_deal',
      id: `dl-${randomUUID()}`,
      status: 'opened' as const,
      fee_moment: body.fee_moment,
      description: body.description,
      balance: { value: '0.00', currency: 'RUB' },
      payout_balance: { value: '0.00', currency: 'RUB' },
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 90 * 86_400_000).toISOString(),
      metadata: (body.metadata ?? {}) as Record<string, string>,
      test: true,
    };
    this.deals.set(deal.id, deal);
    return [200, deal];
  }

  private createPayment(body: Record<string, unknown>): Outcome {
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    if (typeof amount?.value !== 'string' || !money.test(amount.value) || amount.currency !== 'RUB') return invalid('amount', 'Invalid amount');
    const confirmation = body.confirmation as { type?: unknown; return_url?: unknown } | undefined;
    if (confirmation?.type !== 'redirect' || typeof confirmation.return_url !== 'string') return invalid('confirmation.return_url', 'return_url is required');
    const deal = body.deal as { id?: unknown; settlements?: { type?: unknown; amount?: { value?: unknown } }[] } | undefined;
    if (deal && (typeof deal.id !== 'string' || !this.deals.has(deal.id))) return invalid('deal.id', 'Deal not found');
    const settled = deal?.settlements?.[0]?.amount?.value;
    if (deal && (deal.settlements?.[0]?.type !== 'payout' || typeof settled !== 'string' || !money.test(settled) || Number(settled) > Number(amount.value))) {
      return invalid('deal.settlements', 'Invalid settlements');
    }
    const id = `${randomUUID().slice(0, 8)}-000f-5000-8000-${randomUUID().slice(-12)}`;
    const payment: Stored = {
      id,
      status: 'pending',
      paid: false,
      amount: { value: amount.value, currency: 'RUB' },
      confirmation: { type: 'redirect', confirmation_url: `${this.url}/checkout/${id}` },
      created_at: this.now().toISOString(),
      description: body.description as string | undefined,
      metadata: (body.metadata ?? {}) as Record<string, string>,
      ...(deal ? { deal: { id: deal.id as string, settlements: deal.settlements } } : {}),
      return_url: confirmation.return_url,
    };
    this.payments.set(id, payment);
    return [200, { ...publicPayment(payment), recipient: { account_id: this.shopId, gateway_id: '100700' }, refundable: false, test: true }];
  }

  private api(req: IncomingMessage, res: ServerResponse, path: string, raw: string) {
    const key = (req.headers['idempotence-key'] as string | undefined) ?? null;
    this.requests.push({ method: req.method!, path, key });
    const payouts = path.startsWith('/v3/payouts') || path.startsWith('/v3/self_employed');
    // Payouts are the payouts gateway's, except a safe deal's, which are the shop's (ADR 053).
    const asShop = req.headers.authorization === this.auth;
    const allowed = payouts ? req.headers.authorization === this.agentAuth || (asShop && path.startsWith('/v3/payouts')) : asShop;
    if (!allowed) return error(res, 401, 'invalid_credentials', "Login and password don't match");
    const failure = this.failures.shift();
    if (failure === 'status500') return error(res, 500, 'internal_server_error', 'Internal server error');
    if (failure === 'refuse') return error(res, 403, 'forbidden', 'Operation is forbidden for this shop');
    if (failure === 'timeout') return; // Never answers; the socket is destroyed on close.
    if (req.method === 'GET' && path === '/v3/payouts') {
      // The gateway's list: a safe deal's payouts are the shop's and not in it (ADR 053).
      if (req.headers.authorization !== this.agentAuth) return error(res, 401, 'invalid_credentials', "Login and password don't match");
      return send(res, ...this.payoutDesk.list(new URL(req.url ?? '/', 'http://fake').searchParams));
    }
    if (req.method === 'GET' && payouts) {
      const [status, body] = this.payoutDesk.read(path);
      return status === 200 ? send(res, 200, body) : error(res, status, 'not_found', (body as { description: string }).description);
    }
    if (req.method === 'GET' && path.startsWith('/v3/refunds')) return send(res, ...this.refunds.read(path, new URL(req.url ?? '/', 'http://fake').searchParams));
    if (req.method === 'GET' && path.startsWith('/v3/deals/')) {
      const deal = this.deals.get(path.slice('/v3/deals/'.length));
      return deal ? send(res, 200, deal) : error(res, 404, 'not_found', 'Deal not found');
    }
    if (req.method === 'GET' && path === '/v3/payments') return send(res, ...this.list(new URL(req.url ?? '/', 'http://fake').searchParams));
    if (req.method === 'GET') {
      const found = this.payments.get(/^\/v3\/payments\/([\w-]{1,64})$/.exec(path)?.[1] ?? '');
      return found ? send(res, 200, publicPayment(found)) : error(res, 404, 'not_found', 'Incorrect payment_id. Payment doesn’t exist or access denied');
    }
    if (!key) return error(res, 400, 'invalid_request', 'Idempotence key is required', 'Idempotence-Key');
    if (key.length > 64) return error(res, 400, 'invalid_request', 'Idempotence key is too long', 'Idempotence-Key');
    const answer = this.keptAnswer(`${path}:${key}`, path, raw, { shop: asShop, agent: req.headers.authorization === this.agentAuth });
    if (!answer) return error(res, 400, 'invalid_request', 'Idempotence key duplicated', 'Idempotence-Key');
    if (failure === 'lostAnswer') return req.socket.destroy();
    send(res, answer.status, answer.answer);
  }

  /**
   * GET /v3/payments: the shop's payments filtered by `created_at.gte|gt|lte|lt`, newest first, `limit` (1–100,
   * default 10) a page, with an opaque `cursor` to the next page (`next_cursor`, absent on the last).
   */
  private list(query: URLSearchParams): Outcome {
    const limit = Number(query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return listError('limit', 'Invalid limit');
    const bounds: [string, (created: number, bound: number) => boolean][] = [
      ['created_at.gte', (c, b) => c >= b],
      ['created_at.gt', (c, b) => c > b],
      ['created_at.lte', (c, b) => c <= b],
      ['created_at.lt', (c, b) => c < b],
    ];
    const filters: ((created: number) => boolean)[] = [];
    for (const [name, test] of bounds) {
      const value = query.get(name);
      if (value === null) continue;
      const bound = Date.parse(value);
      if (Number.isNaN(bound)) return listError(name, `Invalid ${name}`);
      filters.push((created) => test(created, bound));
    }
    const cursor = query.get('cursor');
    const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isSafeInteger(offset) || offset < 0) return listError('cursor', 'Invalid cursor');
    const all = [...this.payments.values()]
      .filter((p) => filters.every((f) => f(Date.parse(p.created_at))))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    const items = all.slice(offset, offset + limit).map(publicPayment);
    const next = offset + limit < all.length ? Buffer.from(`o:${offset + limit}`).toString('base64url') : undefined;
    return [200, { type: 'list', items, ...(next ? { next_cursor: next } : {}) }];
  }

  /** The answer kept for a key (made now if new); null when the key came before with another body. */
  private keptAnswer(scoped: string, path: string, raw: string, caller: PayoutCaller): Kept | null {
    const before = this.kept.get(scoped);
    if (before) return before.body === raw ? before : null;
    let outcome: Outcome;
    try {
      const body = JSON.parse(raw) as Record<string, unknown>;
      outcome = this.create(path, body, caller);
    } catch {
      outcome = invalid('body', 'Request body is not valid JSON');
    }
    const [status, made] = outcome;
    const answer = { body: raw, status, answer: status === 200 ? made : { type: 'error', id: randomUUID(), ...(made as object) } };
    this.kept.set(scoped, answer);
    return answer;
  }

  private create(path: string, body: Record<string, unknown>, caller: PayoutCaller): Outcome {
    if (path === '/v3/deals') return this.createDeal(body);
    if (path === '/v3/payments') return this.createPayment(body);
    if (path === '/v3/payouts') return this.payoutDesk.create(body, caller);
    if (path === '/v3/self_employed') return this.payoutDesk.registerSelfEmployed(body);
    if (path === '/v3/refunds') return this.refunds.create(body);
    return [404, { code: 'not_found', description: 'Not found' }];
  }

  /** The confirmation page, and its two buttons: they settle the payment, notify, and send the customer back. */
  private checkout(res: ServerResponse, id: string, action: string | undefined) {
    const payment = this.payments.get(id);
    if (!payment) return res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Платёж не найден');
    if (action) {
      void (action === 'pay' ? this.pay(id) : this.cancel(id)).then(
        () => res.writeHead(302, { location: payment.return_url }).end(),
        () => res.writeHead(502).end(),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="ru"><meta charset="utf-8"><title>ЮKassa (тест)</title>` +
        `<h1>Оплата ${payment.amount.value} ₽</h1><p>${escapeHtml(payment.description ?? '')}</p>` +
        `<form method="post" action="/checkout/${id}/pay"><button>Оплатить</button></form>` +
        `<form method="post" action="/checkout/${id}/cancel"><button>Отказаться</button></form>`,
    );
  }

  private route(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const page = /^\/checkout\/([\w-]{1,64})(?:\/(pay|cancel))?$/.exec(path);
      if (page) return this.checkout(res, page[1]!, req.method === 'POST' ? page[2] : undefined);
      if (path.startsWith('/v3/')) return this.api(req, res, path, Buffer.concat(chunks).toString('utf8'));
      if (req.method === 'GET' && path === '/payouts-data/3.1.0/widget.js') return this.payoutDesk.widget(res, this.url);
      if (req.method === 'POST' && path === '/payouts-data/tokens') return this.payoutDesk.tokenise(req, res, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(404).end();
    });
  }
}

export function startFakeYookassa(options: { shopId?: string; secretKey?: string; agentId?: string; agentSecretKey?: string } = {}): Promise<FakeYookassa> {
  return new FakeYookassa(options.shopId, options.secretKey, options.agentId, options.agentSecretKey).start();
}
