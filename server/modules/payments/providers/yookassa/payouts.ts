import { PayoutRefused, type PayoutProvider, type PayoutRecord, type PayoutRequest } from '../provider.ts';
import { fromKopecks, LIST_LIMIT, toKopecks, YookassaClient, YookassaError, type CallOptions, type YookassaConfig, type YookassaPayout, type YookassaSelfEmployed } from './client.ts';

// ЮKassa's payouts (ADR 050, https://yookassa.ru/developers/payouts): a withdrawal to a card is paid by the token
// ЮKassa's payout widget gave for the card in the seller's browser (`payout_token`: the number never reaches us), one
// to a ЮMoney wallet by its number (`payout_destination_data`). Payouts are the payouts gateway's ("agentId" and
// its own secret key, defaulting to the shop's), under the key `payout-<withdrawal>`: a retry after a lost answer
// is the same payout. Their notifications (payout.succeeded, payout.canceled) come to the shop's webhook address
// and are read as hints only: the payout is read again with GET /v3/payouts/{id} (provider.ts).

/** What the seller's payout is for, as «Мой налог» writes it on a self-employed seller's receipt. */
export const RECEIPT_SERVICE_NAME = 'Услуги на бирже Подряд';

/** ЮKassa's payout widget as it is published (https://yookassa.ru/developers/payouts/making-payouts/bank-card/using-payout-widget). */
export const PAYOUT_WIDGET_URL = 'https://yookassa.ru/payouts-data/3.1.0/widget.js';

/** A day of a busy gateway is far below this many pages of 100; more means a cursor that never ends. */
const MAX_PAGES = 1_000;

export interface YookassaPayoutsConfig {
  /** The payouts gateway's id (the cabinet's «Настройки выплат», agentId): the widget's account_id and the API login. */
  agentId: string;
  secretKey: string;
  /** The widget's script. */
  widgetUrl: string;
}

/** The payouts half of the ЮKassa adapter: YookassaProvider hands its PayoutProvider calls here. */
export class YookassaPayouts implements Omit<PayoutProvider, 'name'> {
  readonly client: YookassaClient;

  /** Whether the payouts gateway is the shop itself: then one card token serves both kinds of payout (ADR 053). */
  readonly sharedTokens: boolean;
  private readonly shopId: string;

  constructor(
    shop: YookassaConfig,
    readonly config: YookassaPayoutsConfig,
    callOptions: CallOptions = {},
    /** The shop's own client: a payout out of a safe deal is the shop's (ADR 053), not the payouts gateway's. */
    private readonly shopClient: YookassaClient = new YookassaClient(shop, callOptions),
  ) {
    this.client = new YookassaClient({ ...shop, shopId: config.agentId, secretKey: config.secretKey }, callOptions);
    this.shopId = shop.shopId;
    this.sharedTokens = config.agentId === shop.shopId;
  }

  async createPayout(request: PayoutRequest): Promise<{ payoutId: string; state: string }> {
    if (request.currency !== 'RUB' || (request.method !== 'card' && request.method !== 'yoomoney')) throw new Error('ЮKassa pays rubles to cards and ЮMoney wallets only');
    if (request.method === 'card' && !request.payoutToken) throw new PayoutRefused('yookassa', 'the card has no payout token');
    const amount = { value: fromKopecks(request.amount), currency: 'RUB' };
    const { deal } = request;
    const body = {
      amount,
      ...(request.method === 'card' ? { payout_token: request.payoutToken } : { payout_destination_data: { type: 'yoo_money', account_number: request.destination } }),
      description: deal ? `Оплата заказа №${deal.orderNumber} на бирже Подряд` : 'Вывод средств с баланса на бирже Подряд',
      metadata: { withdrawalId: request.id },
      // Out of a safe deal (ADR 053): ЮKassa's deal payouts take no self-employed receipt.
      ...(deal ? { deal: { id: deal.ref } } : request.selfEmployedId ? { self_employed: { id: request.selfEmployedId }, receipt_data: { service_name: RECEIPT_SERVICE_NAME, amount } } : {}),
    };
    const key = (request.attempt ?? 1) > 1 ? `payout-${request.id}-${request.attempt}` : `payout-${request.id}`;
    try {
      const payout = await (deal ? this.shopClient : this.client).createPayout(key, body);
      return { payoutId: payout.id, state: payout.status };
    } catch (error) {
      // A 4xx is ЮKassa's final word on this request (the same key would get it again): the money goes back.
      // Wrong credentials are ours to fix, not the seller's loss: retried until someone does.
      if (error instanceof YookassaError && error.status !== 401) throw new PayoutRefused('yookassa', `${error.code}: ${error.message}`);
      throw error;
    }
  }

  async payoutState(payoutId: string, options: { inDeal?: boolean } = {}): Promise<{ payoutId: string; state: string } | null> {
    const payout = await (options.inDeal ? this.shopClient : this.client).getPayout(payoutId);
    return payout ? { payoutId: payout.id, state: payout.status } : null;
  }

  payoutOutcome(state: string): 'paid' | 'cancelled' | null {
    return state === 'succeeded' ? 'paid' : state === 'canceled' ? 'cancelled' : null;
  }

  /** Rows a page of the list asks for (a test lowers it to walk the cursor). */
  pageSize = LIST_LIMIT;

  /**
   * Every page of the gateway's payouts created in [from, to) (GET /v3/payouts, ADR 050's reconciliation), in our
   * words: the withdrawal from `metadata.withdrawalId`, the deal a seller's share was paid out of.
   */
  async listPayouts(from: Date, to: Date): Promise<PayoutRecord[]> {
    const records: PayoutRecord[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.client.listPayouts(from, to, cursor, this.pageSize);
      for (const payout of page.items) records.push(payoutRecordOf(payout));
      cursor = page.next_cursor;
      if (!cursor) return records;
    }
    throw new Error(`ЮKassa listed more than ${MAX_PAGES} pages of payouts for one day`);
  }

  /**
   * The widget the finance page shows for a card: its script and the gateway it tokenises cards for — and the shop,
   * for which it tokenises a card that a safe deal's payout goes to (ADR 053).
   */
  widget(): { script_url: string; account_id: string; deal_account_id: string } {
    return { script_url: this.config.widgetUrl, account_id: this.config.agentId, deal_account_id: this.shopId };
  }

  /** Registers a self-employed seller (by INN or phone) for receipts in «Мой налог»; the same key finds them again. */
  registerSelfEmployed(key: string, who: { itn?: string; phone?: string }): Promise<YookassaSelfEmployed> {
    return this.client.createSelfEmployed(`self-employed-${key}`, { ...who, confirmation: { type: 'redirect' } });
  }

  selfEmployed(id: string): Promise<YookassaSelfEmployed | null> {
    return this.client.getSelfEmployed(id);
  }
}

/** A listed payout in our words: kopecks, our withdrawal's id (a string the metadata may lack), its deal. */
export function payoutRecordOf(payout: YookassaPayout): PayoutRecord {
  const withdrawalId = payout.metadata?.withdrawalId;
  return {
    ref: payout.id,
    withdrawalId: typeof withdrawalId === 'string' ? withdrawalId : null,
    state: payout.status,
    currency: payout.amount.currency,
    amount: toKopecks(payout.amount.value) ?? 0,
    dealRef: payout.deal?.id ?? null,
  };
}

/** A payout's id as its notification names it, or null (the body is only a hint: the payout is read again). */
export function payoutIdOf(object: unknown): string | null {
  const id = (object as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id.length <= 100 ? id : null;
}

export type { YookassaPayout };
