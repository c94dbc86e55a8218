import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { keysetPageSchema } from '../catalog.ts';
import {
  adminPaymentsQuerySchema,
  adminWithdrawalsQuerySchema,
  financeBalanceSchema,
  financeEntriesQuerySchema,
  financeEntrySchema,
  idParams,
  myPaymentsQuerySchema,
  myWithdrawalsQuerySchema,
  orderIdParams,
  orderPaymentPageSchema,
  payInputSchema,
  paymentSchema,
  payResultSchema,
  topUpInputSchema,
  topUpResultSchema,
  quoteInputSchema,
  quoteSchema,
  sandboxDecisionParams,
  sandboxParams,
  webhookParams,
  withdrawalInputSchema,
  payoutDetailsSchema,
  selfEmployedInputSchema,
  selfEmployedSchema,
  withdrawalRejectSchema,
  withdrawalSchema,
} from '../payments.ts';
import { differencesQuerySchema, paymentDifferenceSchema, providerViewSchema, resolveDifferenceSchema } from '../payment-differences.ts';

const payments = ['payments'];
const finance = ['finance'];

/** Paying orders, the sandbox provider and its webhook, balances, ledger entries, withdrawals (tags payments, finance). */
export const paymentEndpoints = defineEndpoints({
  'payments.order': {
    access: 'user',
    tags: payments,
    summary: 'The payment page of an order: its summary, the balance, each way to pay with its amount (customer only)',
    params: orderIdParams,
    response: okSchema(orderPaymentPageSchema),
  },
  'payments.quote': {
    access: 'user',
    tags: payments,
    summary: 'A crypto quote held for payments.quoteMinutes: the amount in USDT or BTC at the current rate',
    body: quoteInputSchema,
    response: okSchema(quoteSchema),
  },
  'payments.pay': {
    access: 'user',
    tags: payments,
    summary: 'Pays an order from the balance, or starts a provider payment (answers the confirmation page)',
    description:
      'Requires the `Idempotency-Key` header (1–100 characters): the same key with the same body answers the first result again; ' +
      'the same key with another body is 409, and so is a duplicate sent while the first is still being answered for longer than a few seconds.',
    body: payInputSchema,
    response: okSchema(payResultSchema),
  },
  'payments.topUp': {
    access: 'user',
    tags: payments,
    summary: "Tops the caller's balance up through a provider (ADR 062): answers the provider's page; the money is credited when it arrives",
    description:
      'Requires the `Idempotency-Key` header (1–100 characters), as `POST /api/payments/pay`. A card is refused (409) where its provider holds card payments in a safe deal.',
    body: topUpInputSchema,
    response: okSchema(topUpResultSchema),
  },
  'payments.mine': { access: 'user', tags: payments, query: myPaymentsQuerySchema, response: keysetPageSchema(paymentSchema) },
  'payments.webhook': {
    access: 'public',
    tags: payments,
    summary:
      "A provider's event in its own shape, checked by its provider (ADR 048): the sandbox's by HMAC-SHA256 over `<timestamp>.<raw body>` (header X-Signature: t=…,v1=…), ЮKassa's by the sender's network and a re-read of the payment",
    params: webhookParams,
    body: z.record(z.string(), z.unknown()),
    response: okSchema(z.object({ received: z.boolean(), duplicate: z.boolean() })),
  },
  'payments.sandbox': {
    access: 'public',
    tags: payments,
    summary: "The sandbox provider's confirmation page data (the payment id is the link's secret)",
    params: sandboxParams,
    response: okSchema(
      z.object({
        _id: z.string(),
        status: z.string(),
        currency: z.enum(['RUB', 'USDT', 'BTC']),
        currency_amount: z.number().int(),
        /** The order it pays; null for a top-up of the balance. */
        order: z.object({ _id: z.string(), number: z.number().int(), title: z.string() }).nullable(),
        return_url: z.string(),
      }),
    ),
  },
  'payments.sandboxDecide': {
    access: 'public',
    tags: payments,
    summary: 'The sandbox page\'s "pay" or "decline": the sandbox sends its signed webhook (outbox job, retried)',
    params: sandboxDecisionParams,
    response: okSchema(z.object({ return_url: z.string() })),
  },
  'finance.balance': { access: 'user', tags: finance, response: okSchema(financeBalanceSchema) },
  'finance.entries': {
    access: 'user',
    tags: finance,
    summary: "The caller's ledger entries on the available and held balances, newest first, with the balance after each",
    query: financeEntriesQuerySchema,
    response: keysetPageSchema(financeEntrySchema),
  },
  'withdrawals.create': {
    access: 'confirmed',
    tags: finance,
    summary: 'A withdrawal request (a card by its payout-widget token, a ЮMoney wallet, a crypto address): the amount is held at once until an admin decides',
    body: withdrawalInputSchema,
    response: okSchema(withdrawalSchema),
  },
  'finance.selfEmployed': {
    access: 'user',
    tags: finance,
    summary: "The caller's self-employment for receipts in «Мой налог», its status read again from ЮKassa while pending",
    response: okSchema(selfEmployedSchema),
  },
  'finance.declareSelfEmployed': {
    access: 'confirmed',
    tags: finance,
    summary: 'Declares the caller self-employed by INN or phone: registered at ЮKassa, their payouts then carry a receipt',
    body: selfEmployedInputSchema,
    response: okSchema(selfEmployedSchema),
  },
  'withdrawals.details': {
    access: 'confirmed',
    tags: finance,
    summary: "The card or ЮMoney wallet a seller's share out of a safe deal goes to, when it waits for one (ADR 053): it is sent at once",
    params: idParams,
    body: payoutDetailsSchema,
    response: okSchema(withdrawalSchema),
  },
  'withdrawals.mine': { access: 'user', tags: finance, query: myWithdrawalsQuerySchema, response: keysetPageSchema(withdrawalSchema) },
  'admin.payments.list': { access: 'admin', tags: ['admin', 'payments'], query: adminPaymentsQuerySchema, response: keysetPageSchema(paymentSchema) },
  'admin.payments.provider': {
    access: 'admin',
    tags: ['admin', 'payments'],
    summary: "A payment as its provider has it now, in the provider's own words (its status, amount and object)",
    params: idParams,
    response: okSchema(providerViewSchema),
  },
  'admin.payments.differences': {
    access: 'admin',
    tags: ['admin', 'payments'],
    summary: 'What the daily reconciliation with the providers found: the unresolved differences first, then the latest resolved',
    query: differencesQuerySchema,
    response: okSchema(z.array(paymentDifferenceSchema)),
  },
  'admin.payments.resolveDifference': {
    access: 'admin',
    tags: ['admin', 'payments'],
    summary: "Marks a reconciliation difference resolved with the admin's note (audited)",
    params: idParams,
    body: resolveDifferenceSchema,
    response: okSchema(paymentDifferenceSchema),
  },
  'admin.payments.applyDifference': {
    access: 'admin',
    tags: ['admin', 'payments'],
    summary: "Applies the provider's outcome to a payment it says is paid (as its webhook would), then resolves the difference (audited)",
    params: idParams,
    response: okSchema(paymentDifferenceSchema),
  },
  'admin.withdrawals.list': { access: 'admin', tags: ['admin', 'finance'], query: adminWithdrawalsQuerySchema, response: keysetPageSchema(withdrawalSchema) },
  'admin.withdrawals.approve': { access: 'admin', tags: ['admin', 'finance'], params: idParams, response: okSchema(withdrawalSchema) },
  'admin.withdrawals.reject': {
    access: 'admin',
    tags: ['admin', 'finance'],
    params: idParams,
    body: withdrawalRejectSchema,
    response: okSchema(withdrawalSchema),
  },
});
