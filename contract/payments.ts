import { z } from 'zod';
import { MAX_PRICE } from './catalog.ts';
import { PAYMENT_STATUSES, WITHDRAWAL_METHODS, WITHDRAWAL_STATUSES } from './money.ts';
import { ORDER_PACKAGES } from './order-constants.ts';
import {
  CRYPTO_METHODS,
  type CryptoMethod,
  FINANCE_DIRECTIONS,
  FINANCE_ENTRY_KINDS,
  looksLikeCardNumber,
  tokenLooksLikeCardNumber,
  normaliseDestination,
  normaliseWallet,
  PAYMENT_MESSAGES,
  walletLooksLikeCard,
  innValid,
  normalisePhone,
  SELF_EMPLOYED_STATUSES,
} from './payment-constants.ts';
export * from './payment-constants.ts';

/** A way to pay (SPEC §7 `GET /api/payments/rates`: keyed entries; PRODUCT.md: currency, fee %, min and max). */
export const paymentRateSchema = z.object({
  title: z.string(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  /** Provider fee in percent, added to the amount paid. */
  fee: z.number().min(0, 'Комиссия не может быть отрицательной').max(100, 'Комиссия — не больше 100 %'),
  /** Limits in kopecks of the order amount (an order costs at most MAX_PRICE). */
  min: z.number().int('Сумма — целое число копеек').min(0, 'Сумма не может быть отрицательной').max(MAX_PRICE, 'Слишком большая сумма'),
  max: z.number().int('Сумма — целое число копеек').min(0, 'Сумма не может быть отрицательной').max(MAX_PRICE, 'Слишком большая сумма'),
});
export type PaymentRate = z.infer<typeof paymentRateSchema>;
export const paymentRatesSchema = z.record(z.string(), paymentRateSchema);
export type PaymentRates = z.infer<typeof paymentRatesSchema>;

/** Defaults until an operator changes them in the admin settings (payments issue). */
export const DEFAULT_PAYMENT_RATES: PaymentRates = {
  card: { title: 'Банковская карта', currency: 'RUB', fee: 0, min: 50_000, max: 60_000_000 },
  usdt: { title: 'USDT (TRC-20)', currency: 'USDT', fee: 1, min: 100_000, max: 100_000_000 },
  btc: { title: 'Bitcoin', currency: 'BTC', fee: 1.5, min: 300_000, max: 100_000_000 },
};

// ---------------------------------------------------------------------------------------------------------------
// Paying orders, the finance pages and withdrawals (issue 12, ADR 025/026). Money is integer kopecks; a crypto
// amount is integer minor units of its currency (USDT cents, BTC satoshi; the pages show BTC with 7 decimals).

const uuid = z.uuid('Неверный идентификатор');
const kopecks = z.number().int('Сумма — целое число копеек').min(1, 'Сумма должна быть больше нуля').max(MAX_PRICE, 'Слишком большая сумма');
const cursorQuery = { cursor: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) };

/** One way to pay an order, as the payment page shows it. */
export const orderPayMethodSchema = z.object({
  method: z.enum(['balance', 'card', 'usdt', 'btc']),
  title: z.string(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  /** Fee percent of the method. */
  fee_percent: z.number(),
  /** The fee, kopecks. */
  fee: z.number().int(),
  /** What the customer pays in the method's currency, minor units (null: no rate to convert with). */
  amount: z.number().int().nullable(),
  /** Rubles per unit used for the conversion (crypto). */
  rate: z.number().nullable(),
  min: z.number().int(),
  max: z.number().int(),
  usable: z.boolean(),
  /** Why it is not usable. */
  reason: z.string().nullable(),
});
export type OrderPayMethod = z.infer<typeof orderPayMethodSchema>;

export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

/** The data of /payments/{orderId}. */
export const orderPaymentPageSchema = z.object({
  order: z.object({
    _id: z.string(),
    number: z.number().int(),
    title: z.string(),
    /** What was ordered (ADR 042): the package and the extras, itemised on the page. */
    package: z.enum(ORDER_PACKAGES).nullable(),
    extras: z.array(z.object({ title: z.string(), price: z.number().int(), days: z.number().int() })),
    price: z.number().int(),
    status: z.string(),
    seller: z.object({ _id: z.string(), name: z.string() }),
  }),
  balance: z.object({ available: z.number().int() }),
  methods: z.array(orderPayMethodSchema),
  quote_minutes: z.number().int(),
  /** The order's workspace chat (its link once paid). */
  chat_id: z.string().nullable(),
  rates_updated_at: z.string().nullable(),
  /** The latest payment of this order through a provider, if any (the page shows its outcome). */
  last_payment: z
    .object({ _id: z.string(), method: z.string(), status: paymentStatusSchema, failure_reason: z.string().nullable() })
    .nullable(),
});
export type OrderPaymentPage = z.infer<typeof orderPaymentPageSchema>;

export const orderIdParams = z.object({ orderId: z.string().max(100) });
export const idParams = z.object({ id: z.string().max(100) });

export const quoteInputSchema = z.object({ order_id: uuid, method: z.enum(CRYPTO_METHODS) });
export const quoteSchema = z.object({
  _id: z.string(),
  order_id: z.string(),
  method: z.enum(CRYPTO_METHODS),
  currency: z.enum(['USDT', 'BTC']),
  /** The order's price and the fee, kopecks. */
  amount: z.number().int(),
  fee: z.number().int(),
  /** Minor units of the currency (USDT cents, satoshi). */
  currency_amount: z.number().int(),
  rate: z.number(),
  quote_expires_at: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const payInputSchema = z.object({
  order_id: uuid,
  method: z.enum(['balance', 'card', 'usdt', 'btc']),
  quote_id: uuid.optional(),
});
export type PayInput = z.infer<typeof payInputSchema>;
export const payResultSchema = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  status: paymentStatusSchema,
  /** Where the customer confirms the payment (a provider's page); null when it is done (balance). */
  redirect_url: z.string().nullable(),
});
export type PayResult = z.infer<typeof payResultSchema>;

/** A top-up of the balance through a provider (ADR 062): kopecks credited once the money arrives; the fee on top. */
export const topUpInputSchema = z.object({ amount: kopecks, method: z.enum(['card', 'usdt', 'btc']) });
export type TopUpInput = z.infer<typeof topUpInputSchema>;
export const topUpResultSchema = z.object({
  payment_id: z.string(),
  status: paymentStatusSchema,
  /** The provider's page where the customer pays. */
  redirect_url: z.string(),
});
export type TopUpResult = z.infer<typeof topUpResultSchema>;
/** A way to top the balance up now, with its range (the top-up's and the method's limits together). */
export const topUpMethodSchema = z.object({
  method: z.enum(['card', 'usdt', 'btc']),
  title: z.string(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  fee_percent: z.number(),
  min: z.number().int(),
  max: z.number().int(),
});
export type TopUpMethod = z.infer<typeof topUpMethodSchema>;

/**
 * The order a payment or a finance line is about (ADR 065): for a stage, `_id` is the stage's (its payment page) while
 * `number` and `title` are its head's, and `stage` says which; `label` is the line's words
 * («Заказ №1042, этап 2 «Макеты»», contract/order-name.ts).
 */
export const financeOrderSchema = z.object({
  _id: z.string(),
  number: z.number().int(),
  title: z.string(),
  stage: z.object({ number: z.number().int(), title: z.string() }).nullable(),
  label: z.string(),
});

export const paymentSchema = z.object({
  _id: z.string(),
  /** The order it paid; null for a top-up of the balance (ADR 062). A stage is named by its head (ADR 065). */
  order: financeOrderSchema.nullable(),
  customer: z.object({ _id: z.string(), name: z.string(), email: z.string().optional() }).optional(),
  method: z.enum(['balance', 'card', 'usdt', 'btc']),
  provider: z.string().nullable(),
  /** The provider's id of the payment (admins look it up in the provider's dashboard). */
  provider_ref: z.string().nullable().optional(),
  status: paymentStatusSchema,
  amount: z.number().int(),
  fee: z.number().int(),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  currency_amount: z.number().int(),
  failure_reason: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** Its refund to the card inside the provider's deal (ADR 051): kopecks, and where it stands. */
  refund: z.object({ amount: z.number().int(), status: z.enum(['pending', 'succeeded', 'refused']) }).nullable().optional(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const myPaymentsQuerySchema = z.object({
  ...cursorQuery,
  /** Only the payments of orders, or only the top-ups of the balance (the finance page's list). */
  purpose: z.enum(['order', 'top_up']).optional(),
});
export const adminPaymentsQuerySchema = z.object({
  ...cursorQuery,
  status: paymentStatusSchema.optional(),
  method: z.enum(['balance', 'card', 'usdt', 'btc']).optional(),
});

/** The payment page of the sandbox provider and its two buttons. */
export const sandboxParams = z.object({ paymentId: z.string().max(100) });
export const sandboxDecisionParams = z.object({ paymentId: z.string().max(100), decision: z.enum(['pay', 'decline']) });

/** A provider's webhook event (the sandbox's; others are mapped onto it). */
export const webhookEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['payment.succeeded', 'payment.failed']),
  payment_ref: z.string().min(1).max(200),
  currency: z.enum(['RUB', 'USDT', 'BTC']),
  /** What arrived (succeeded) or was asked (failed), minor units of the currency: a crypto invoice may be under- or overpaid. */
  amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  created: z.number().int().min(0).max(1e10),
  /** The money arrived after the payment's time ran out (a crypto invoice paid after its quote expired). */
  late: z.boolean().optional(),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
export const webhookParams = z.object({ provider: z.string().max(40) });

// ---------------------------------------------------------------------------------------------------------------
// Withdrawals.

const DESTINATION_MESSAGES = { usdt: PAYMENT_MESSAGES.usdtAddress, btc: PAYMENT_MESSAGES.btcAddress } as const;
const destinationText = z.string().min(1, 'Укажите реквизиты').max(120, 'Слишком длинные реквизиты');

/** A card as ЮKassa's payout widget gives it (ADR 050): its token and the mask it showed, never the number. */
const cardTarget = {
  method: z.literal('card'),
  payout_token: z.string().trim().min(1, PAYMENT_MESSAGES.cardTokenMissing).max(200, PAYMENT_MESSAGES.cardMask),
  card: z
    .object({
      first6: z.string().regex(/^\d{6}$/, PAYMENT_MESSAGES.cardMask),
      last4: z.string().regex(/^\d{4}$/, PAYMENT_MESSAGES.cardMask),
      card_type: z.string().trim().max(40, PAYMENT_MESSAGES.cardMask).optional(),
    })
    .strict(),
};
const walletTarget = { method: z.literal('yoomoney'), destination: destinationText };
type Target = { method: 'card'; payout_token: string; card: { card_type?: string } } | { method: 'yoomoney' | CryptoMethod; destination: string };

/** No field may carry what looks like a full card number; a wallet or an address must be one. */
function refuseCardNumbers(v: Target, ctx: z.RefinementCtx) {
  const refuse = (path: string[], message: string = PAYMENT_MESSAGES.cardNumberRefused) => ctx.addIssue({ code: 'custom', path, message });
  if (v.method === 'card') {
    if (tokenLooksLikeCardNumber(v.payout_token)) refuse(['payout_token']);
    if (v.card.card_type && looksLikeCardNumber(v.card.card_type)) refuse(['card', 'card_type']);
    return;
  }
  if (v.method === 'yoomoney') {
    const wallet = normaliseWallet(v.destination);
    if (!wallet) refuse(['destination'], PAYMENT_MESSAGES.walletNumber);
    else if (walletLooksLikeCard(wallet)) refuse(['destination']);
    return;
  }
  if (looksLikeCardNumber(v.destination)) refuse(['destination']);
  else if (normaliseDestination(v.method, v.destination) === null) refuse(['destination'], DESTINATION_MESSAGES[v.method]);
}

/**
 * A withdrawal (ADR 050): to a card, by the token ЮKassa's payout widget gave for it and the mask it showed (the
 * number itself never reaches us); to a ЮMoney wallet by its number; to a crypto address. No field may carry what
 * looks like a full card number.
 */
export const withdrawalInputSchema = z
  .discriminatedUnion(
    'method',
    [
      z.object({ amount: kopecks, ...cardTarget }).strict(),
      z.object({ amount: kopecks, ...walletTarget }).strict(),
      z.object({ amount: kopecks, method: z.enum(CRYPTO_METHODS), destination: destinationText }).strict(),
    ],
    { error: 'Выберите способ вывода' },
  )
  .superRefine(refuseCardNumbers);
/** Where a seller's share out of a safe deal goes (ADR 053): a card by its widget token, or a ЮMoney wallet. */
export const payoutDetailsSchema = z
  .discriminatedUnion('method', [z.object(cardTarget).strict(), z.object(walletTarget).strict()], { error: 'Выберите карту или кошелёк ЮMoney' })
  .superRefine(refuseCardNumbers);
export type PayoutDetails = z.infer<typeof payoutDetailsSchema>;
export type WithdrawalInput = z.infer<typeof withdrawalInputSchema>;

export const withdrawalSchema = z.object({
  _id: z.string(),
  amount: z.number().int(),
  method: z.enum(WITHDRAWAL_METHODS),
  /** A card as its mask (`220220******1234`), a wallet's number, a crypto address. */
  destination: z.string(),
  /** The card's kind as the payout widget named it (Visa, MasterCard, Mir…), for a card. */
  card_type: z.string().nullable(),
  status: z.enum(WITHDRAWAL_STATUSES),
  reject_reason: z.string().nullable(),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
  /** A seller's share paid out of a safe deal (ADR 053): the order it is for; null for a withdrawal from the balance. */
  order_number: z.number().int().nullable(),
  user: z.object({ _id: z.string(), name: z.string(), email: z.string() }).optional(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;


export const myWithdrawalsQuerySchema = z.object({ ...cursorQuery, status: z.enum(WITHDRAWAL_STATUSES).optional() });
export const adminWithdrawalsQuerySchema = z.object({ ...cursorQuery, status: z.enum(WITHDRAWAL_STATUSES).optional() });
export const withdrawalRejectSchema = z.object({
  reason: z.string().trim().min(3, PAYMENT_MESSAGES.rejectReason).max(500, 'Не длиннее 500 символов'),
});

/** A user's two balances, kopecks. */
export const balanceSchema = z.object({ available: z.number().int(), held: z.number().int() });
export type Balance = z.infer<typeof balanceSchema>;
/** The finance page's head: the balances and the smallest withdrawal (an operator setting). */
export const financeBalanceSchema = balanceSchema.extend({
  min_withdrawal: z.number().int(),
  /** ЮKassa's payout widget for the card form (ADR 050): its script and the payouts gateway (agentId), or null when none is configured. */
  card_widget: z.object({ script_url: z.string(), account_id: z.string(), deal_account_id: z.string().optional() }).nullable(),
  /** The ways to top the balance up (ADR 062): none under a safe deal for the card, nor without a provider. */
  top_up: z.array(topUpMethodSchema),
  /** The card or wallet the last payout went to, offered again. */
  saved_method: z
    .discriminatedUnion('method', [
      z.object({ method: z.literal('card'), payout_token: z.string(), first6: z.string(), last4: z.string(), card_type: z.string().nullable() }),
      z.object({ method: z.literal('yoomoney'), destination: z.string() }),
    ])
    .nullable(),
});
export type FinanceBalance = z.infer<typeof financeBalanceSchema>;

/** One movement of a user's money (available or held), with the balance after it. */
export const financeEntrySchema = z.object({
  seq: z.number().int(),
  kind: z.enum(FINANCE_ENTRY_KINDS),
  account: z.enum(['available', 'withdrawal_hold']),
  amount: z.number().int(),
  balance_after: z.number().int(),
  created_at: z.string(),
  order: financeOrderSchema.nullable(),
  /** Plus, minus or neither for this person (ADR 045): the page's sign and colour. */
  direction: z.enum(FINANCE_DIRECTIONS),
  /**
   * The seller's payment for their order, kopecks, as the ledger settled it: the price released (the whole price,
   * or the seller's part of a dispute's split), the service's commission on it and what the seller received.
   */
  settlement: z.object({ price: z.number().int(), commission: z.number().int(), net: z.number().int() }).nullable(),
});
export type FinanceEntry = z.infer<typeof financeEntrySchema>;
export const financeEntriesQuerySchema = z.object(cursorQuery);

/** A seller's declaration of being self-employed (ADR 050): their INN or their phone, one of the two. */
export const selfEmployedInputSchema = z
  .object({ itn: z.string().trim().max(20).optional(), phone: z.string().trim().max(30).optional() })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.itn === !v.phone) ctx.addIssue({ code: 'custom', path: ['itn'], message: PAYMENT_MESSAGES.innOrPhone });
    else if (v.itn && !innValid(v.itn)) ctx.addIssue({ code: 'custom', path: ['itn'], message: PAYMENT_MESSAGES.innInvalid });
    else if (v.phone && !normalisePhone(v.phone)) ctx.addIssue({ code: 'custom', path: ['phone'], message: PAYMENT_MESSAGES.phoneInvalid });
  });
export type SelfEmployedInput = z.infer<typeof selfEmployedInputSchema>;

/** The seller's self-employment as ЮKassa has it, or null when they never declared it. */
export const selfEmployedSchema = z
  .object({
    status: z.enum(SELF_EMPLOYED_STATUSES),
    itn: z.string().nullable(),
    phone: z.string().nullable(),
    /** Where to allow ЮKassa in «Мой налог», while pending. */
    confirmation_url: z.string().nullable(),
  })
  .nullable();
export type SelfEmployed = z.infer<typeof selfEmployedSchema>;
