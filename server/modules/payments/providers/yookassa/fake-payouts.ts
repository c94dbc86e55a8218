import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { YookassaDeal, YookassaPayout, YookassaSelfEmployed } from './client.ts';
import { payoutWidgetScript } from './widget-script.ts';

// The fake ЮKassa's payouts (ADR 050): the payout widget's script and its tokenising call, POST/GET /v3/payouts and
// /v3/self_employed with the payouts gateway's own Basic auth (the fake's api() checks it and keeps the
// idempotence keys, as for payments), the list GET /v3/payouts for the reconciliation (ADR 056), test hooks that
// settle a payout and notify the shop, and a rejection mode.

type Outcome = [status: number, body: unknown];
const invalid = (parameter: string, description: string): Outcome => [400, { code: 'invalid_request', description, parameter }];
const listError = (parameter: string, description: string): Outcome => [400, { type: 'error', id: randomUUID(), code: 'invalid_request', description, parameter }];
const money = /^\d{1,13}(\.\d{1,2})?$/;

/** How the fake answers the next payouts: made (pending), refused with a 4xx, or made already cancelled. */
export type PayoutRejection = 'error' | 'canceled' | null;

interface Host {
  now(): Date;
  sendRaw(body: unknown): Promise<number>;
  /** The shop's safe deals: a payout out of one lowers it and closes it (ADR 053). */
  deals: Map<string, YookassaDeal>;
}

/** Whose credentials a payout request came with: the shop's (a safe deal's payout) or the payouts gateway's. */
export interface PayoutCaller {
  shop: boolean;
  agent: boolean;
}

const cents = (value: string) => Math.round(Number(value) * 100);
const rubles = (kopecks: number) => (kopecks / 100).toFixed(2);

export class FakePayouts {
  readonly payouts = new Map<string, YookassaPayout>();
  /** The cards the widget tokenised: token → the card's mask and kind (the number is dropped, as nothing needs it). */
  readonly tokens = new Map<string, { first6: string; last4: string; card_type: string; account: string }>();
  readonly selfEmployed = new Map<string, YookassaSelfEmployed>();
  /** What the next payouts meet (a test sets it). */
  rejection: PayoutRejection = null;

  constructor(
    private readonly host: Host,
    readonly agentId: string,
    /** The shop's id: its widget tokenises cards for safe deals' payouts (ADR 053). */
    readonly shopId: string,
  ) {}

  /** GET /payouts-data/3.1.0/widget.js: the widget, tokenising at this fake. */
  widget(res: ServerResponse, baseUrl: string) {
    res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', 'access-control-allow-origin': '*' }).end(payoutWidgetScript(`${baseUrl}/payouts-data/tokens`));
  }

  /** POST /payouts-data/tokens: the widget's card number for a token (a simple request: text/plain, any origin). */
  tokenise(req: IncomingMessage, res: ServerResponse, raw: string) {
    const cors = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
    let body: { account_id?: unknown; card_number?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return res.writeHead(400, cors).end(JSON.stringify({ code: 'invalid_request', description: 'Body is not JSON' }));
    }
    const digits = typeof body.card_number === 'string' ? body.card_number : '';
    if (body.account_id !== this.agentId && body.account_id !== this.shopId) return res.writeHead(400, cors).end(JSON.stringify({ code: 'invalid_request', description: 'Unknown account_id' }));
    if (!/^\d{13,19}$/.test(digits)) return res.writeHead(400, cors).end(JSON.stringify({ code: 'invalid_request', description: 'Invalid card number' }));
    const token = `pt-${randomUUID()}`;
    const card = { first6: digits.slice(0, 6), last4: digits.slice(-4), card_type: digits.startsWith('220') ? 'MIR' : digits[0] === '4' ? 'Visa' : 'MasterCard' };
    this.tokens.set(token, { ...card, account: body.account_id });
    res.writeHead(200, cors).end(JSON.stringify({ payout_token: token, ...card }));
  }

  /** POST /v3/payouts: the gateway's, or out of a safe deal with the shop's credentials. */
  create(body: Record<string, unknown>, caller: PayoutCaller): Outcome {
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined;
    if (typeof amount?.value !== 'string' || !money.test(amount.value) || amount.currency !== 'RUB') return invalid('amount', 'Invalid amount');
    // A token serves the account whose widget made it: the shop's in a safe deal, the payouts gateway's otherwise.
    const destination = this.destinationOf(body, body.deal ? this.shopId : this.agentId);
    if ('error' in destination) return destination.error;
    const inDeal = this.dealCheck(body, cents(amount.value), caller);
    if (inDeal && 'error' in inDeal) return inDeal.error;
    if (this.rejection === 'error') return [403, { code: 'forbidden', description: 'Payouts to this destination are forbidden' }];
    const selfEmployed = body.self_employed as { id?: unknown } | undefined;
    if (selfEmployed && this.selfEmployed.get(String(selfEmployed.id))?.status !== 'confirmed') return invalid('self_employed.id', 'Self-employed is not confirmed');
    const receipt = body.receipt_data as { service_name?: unknown } | undefined;
    if (selfEmployed && typeof receipt?.service_name !== 'string') return invalid('receipt_data.service_name', 'receipt_data is required for self-employed');
    const canceled = this.rejection === 'canceled';
    const payout: YookassaPayout = {
      id: `po-${randomUUID()}`,
      status: canceled ? 'canceled' : 'pending',
      amount: { value: amount.value, currency: 'RUB' },
      payout_destination: destination.ok,
      description: body.description as string | undefined,
      created_at: this.host.now().toISOString(),
      metadata: (body.metadata ?? {}) as Record<string, string>,
      ...(canceled ? { cancellation_details: { party: 'payment_network', reason: 'rejected_by_payee' } } : {}),
      ...(selfEmployed ? { self_employed: { id: String(selfEmployed.id) }, receipt: { service_name: String(receipt!.service_name) } } : {}),
      ...(inDeal ? { deal: { id: inDeal.ok.id } } : {}),
      test: true,
    };
    this.payouts.set(payout.id, payout);
    return [200, payout];
  }

  /**
   * A payout's safe deal: only the shop makes one, without a self-employed receipt, from an open deal that has that
   * much left to pay out. Null for a payout outside deals, which only the payouts gateway makes.
   */
  private dealCheck(body: Record<string, unknown>, kopecks: number, caller: PayoutCaller): { ok: YookassaDeal } | { error: Outcome } | null {
    const asked = body.deal as { id?: unknown } | undefined;
    const forbidden = (description: string): { error: Outcome } => ({ error: [403, { code: 'forbidden', description }] });
    if (!asked) return caller.agent ? null : forbidden('Payouts outside a deal are made by the payouts gateway');
    if (!caller.shop) return forbidden('Deal payouts are made by the shop');
    const deal = this.host.deals.get(String(asked.id));
    if (!deal) return { error: invalid('deal.id', 'Deal not found') };
    if (body.self_employed) return { error: invalid('self_employed', 'Not available in a deal') };
    if (deal.status !== 'opened') return { error: [400, { code: 'invalid_request', description: 'Deal is closed', parameter: 'deal' }] };
    if (kopecks > cents(deal.payout_balance?.value ?? '0')) return { error: invalid('amount', 'Payout amount exceeds the deal payout balance') };
    return { ok: deal };
  }

  private destinationOf(body: Record<string, unknown>, account: string): { ok: NonNullable<YookassaPayout['payout_destination']> } | { error: Outcome } {
    if (typeof body.payout_token === 'string') {
      const found = this.tokens.get(body.payout_token);
      if (!found || found.account !== account) return { error: invalid('payout_token', 'Invalid payout_token') };
      const { account: _, ...card } = found;
      return { ok: { type: 'bank_card', card } };
    }
    const data = body.payout_destination_data as { type?: unknown; account_number?: unknown } | undefined;
    if (data?.type === 'yoo_money' && typeof data.account_number === 'string' && /^\d{11,20}$/.test(data.account_number)) {
      return { ok: { type: 'yoo_money', account_number: data.account_number } };
    }
    return { error: invalid('payout_destination_data', 'Invalid payout destination') };
  }

  /** POST /v3/self_employed: by INN (itn) or phone; pending until the person allows ЮKassa in «Мой налог». */
  registerSelfEmployed(body: Record<string, unknown>): Outcome {
    const itn = typeof body.itn === 'string' ? body.itn : undefined;
    const phone = typeof body.phone === 'string' ? body.phone : undefined;
    if (!itn === !phone) return invalid('itn', 'Either itn or phone is required');
    const confirmation = body.confirmation as { type?: unknown } | undefined;
    if (confirmation && confirmation.type !== 'redirect') return invalid('confirmation.type', 'Invalid confirmation type');
    const id = `ea-${randomUUID()}`;
    const made: YookassaSelfEmployed = {
      id,
      status: 'pending',
      created_at: this.host.now().toISOString(),
      ...(itn ? { itn } : { phone }),
      ...(confirmation ? { confirmation: { type: 'redirect', confirmation_url: `https://lknpd.nalog.ru/fake/${id}` } } : {}),
      test: true,
    };
    this.selfEmployed.set(id, made);
    return [200, made];
  }

  /** GET /v3/payouts/{id} and /v3/self_employed/{id}. */
  read(path: string): Outcome {
    const payout = /^\/v3\/payouts\/([\w-]{1,64})$/.exec(path);
    if (payout) {
      const found = this.payouts.get(payout[1]!);
      return found ? [200, found] : [404, { code: 'not_found', description: 'Payout doesn’t exist' }];
    }
    const person = this.selfEmployed.get(/^\/v3\/self_employed\/([\w-]{1,64})$/.exec(path)?.[1] ?? '');
    return person ? [200, person] : [404, { code: 'not_found', description: 'Self-employed doesn’t exist' }];
  }

  /**
   * GET /v3/payouts: the gateway's payouts filtered by `created_at.gte|gt|lte|lt`, `status` and
   * `payout_destination.type`, newest first, `limit` (1–100, default 10) a page, an opaque `cursor` to the next
   * page (`next_cursor`, absent on the last). The payouts gateway's Basic auth is checked by the fake's api().
   */
  list(query: URLSearchParams): Outcome {
    const limit = Number(query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return listError('limit', 'Invalid limit');
    const tests: Record<string, (created: number, bound: number) => boolean> = {
      'created_at.gte': (c, b) => c >= b,
      'created_at.gt': (c, b) => c > b,
      'created_at.lte': (c, b) => c <= b,
      'created_at.lt': (c, b) => c < b,
    };
    const filters: ((p: YookassaPayout) => boolean)[] = [];
    for (const [name, test] of Object.entries(tests)) {
      const value = query.get(name);
      if (value === null) continue;
      const bound = Date.parse(value);
      if (Number.isNaN(bound)) return listError(name, `Invalid ${name}`);
      filters.push((p) => test(Date.parse(p.created_at), bound));
    }
    const status = query.get('status');
    if (status !== null && !['pending', 'succeeded', 'canceled'].includes(status)) return listError('status', 'Invalid status');
    if (status !== null) filters.push((p) => p.status === status);
    const type = query.get('payout_destination.type');
    if (type !== null && !['bank_card', 'yoo_money', 'sbp'].includes(type)) return listError('payout_destination.type', 'Invalid payout_destination.type');
    if (type !== null) filters.push((p) => p.payout_destination?.type === type);
    const cursor = query.get('cursor');
    const offset = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^p:/, ''));
    if (!Number.isSafeInteger(offset) || offset < 0) return listError('cursor', 'Invalid cursor');
    const all = [...this.payouts.values()]
      .filter((p) => filters.every((f) => f(p)))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    const next = offset + limit < all.length ? Buffer.from(`p:${offset + limit}`).toString('base64url') : undefined;
    return [200, { type: 'list', items: all.slice(offset, offset + limit), ...(next ? { next_cursor: next } : {}) }];
  }

  /** A payout made some other way (the cabinet, another program, a safe deal's payout of a seller's share): as given. */
  addPayout(value: string, status: YookassaPayout['status'], options: { metadata?: Record<string, string>; dealId?: string } = {}): string {
    const id = `po-${randomUUID()}`;
    this.payouts.set(id, {
      id,
      status,
      amount: { value, currency: 'RUB' },
      payout_destination: { type: 'yoo_money', account_number: '4100117588311360' },
      created_at: this.host.now().toISOString(),
      metadata: options.metadata ?? {},
      ...(options.dealId ? { deal: { id: options.dealId } } : {}),
      test: true,
    });
    return id;
  }

  /** The card reached (or the wallet): ЮKassa notifies the shop unless told not to. */
  succeedPayout(id: string, options: { notify?: boolean } = {}) {
    return this.settle(id, 'succeeded', options.notify ?? true);
  }

  /** The bank returned it. */
  cancelPayout(id: string, options: { notify?: boolean } = {}) {
    return this.settle(id, 'canceled', options.notify ?? true);
  }

  /** The person allowed ЮKassa in «Мой налог» (or withdrew it). */
  setSelfEmployed(id: string, status: YookassaSelfEmployed['status']) {
    this.selfEmployed.get(id)!.status = status;
  }

  /** The payout made for our withdrawal (by its metadata). */
  forWithdrawal(withdrawalId: string): YookassaPayout | undefined {
    return [...this.payouts.values()].find((p) => p.metadata?.withdrawalId === withdrawalId);
  }

  private async settle(id: string, status: 'succeeded' | 'canceled', notify: boolean) {
    const payout = this.payouts.get(id);
    if (!payout) throw new Error(`fake ЮKassa: no payout ${id}`);
    if (payout.status !== 'pending') return;
    payout.status = status;
    if (status === 'canceled') payout.cancellation_details = { party: 'payment_network', reason: 'rejected_by_payee' };
    const deal = status === 'succeeded' && payout.deal ? this.host.deals.get(payout.deal.id) : undefined;
    if (deal) {
      // Paid out: the seller's share leaves the deal, and ЮKassa closes it (the platform's fee is taken then).
      const paid = cents(payout.amount.value);
      deal.balance = { value: rubles(cents(deal.balance.value) - paid), currency: 'RUB' };
      deal.payout_balance = { value: rubles(cents(deal.payout_balance?.value ?? '0') - paid), currency: 'RUB' };
      deal.status = 'closed';
    }
    if (notify) await this.host.sendRaw({ type: 'notification', event: `payout.${status}`, object: payout });
  }
}
