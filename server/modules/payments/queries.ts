import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import { paymentRefunds, payments, withdrawals, type PaymentRow } from './schema.ts';
import { people, type UserRow } from '../users/index.ts';
import { orderNames } from '../orders/index.ts';
import { cursorPosition, decodeCursor, keysetAfter, page, timestampKey, type SortKey } from '../../platform/listing/listing.ts';
import { balancesOf, statementOf } from '../ledger/index.ts';
import type { PaymentStatus, WithdrawalStatus } from '#contract/money';
import type { FinanceBalance, FinanceEntry, Payment, Withdrawal } from '#contract/payments';
import type { PaymentContext } from './deps.ts';
import { topUpMethods } from './commands/top-up.ts';
import { presentFinanceEntry, presentPayment, presentWithdrawal } from './presenter.ts';

// The lists of payments and withdrawals (the person's and the admin's), the balance and the finance entries.

type PageQuery = { cursor?: string; limit: number };

const customer = people('customer');
const owner = people('owner');
type Page<T> = { result: T[]; next: string | null };

const PAGE_KEYS = [
  { expr: payments.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: payments.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];
const WITHDRAWAL_KEYS = [
  { expr: withdrawals.createdAt, dir: 'desc', kind: 'timestamptz' },
  { expr: withdrawals.id, dir: 'desc', kind: 'uuid' },
] as const satisfies readonly SortKey[];

async function paymentPage(deps: PaymentContext, where: SQL | undefined, query: PageQuery, withCustomer: boolean): Promise<Page<Payment>> {
  const after = query.cursor ? keysetAfter(PAGE_KEYS, cursorPosition(query.cursor, 'payments', PAGE_KEYS)) : undefined;
  const rows = await deps.db
    .select({ payment: payments, customer: { id: customer.id, name: customer.name, email: customer.email }, createdKey: timestampKey(payments.createdAt) })
    .from(payments)
    .innerJoin(customer, eq(customer.id, payments.customerId))
    .where(and(where, after))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit + 1);
  const { rows: kept, next } = page(rows, query.limit, (r) => ['payments', r.createdKey, r.payment.id]);
  const orders = await orderNames(deps.db, kept.flatMap((r) => (r.payment.orderId ? [r.payment.orderId] : [])));
  const now = deps.clock.now();
  const refunds = await refundsOf(deps, kept.map((r) => r.payment.id));
  const result = kept.map((r) =>
    presentPayment({ ...r, order: r.payment.orderId ? orders.get(r.payment.orderId)! : null, customer: withCustomer ? r.customer : undefined, refund: refunds.get(r.payment.id) }, now),
  );
  return { result, next };
}

/** The refunds to the card of these payments (ADR 051): their kopecks summed, the latest one's state. */
async function refundsOf(deps: PaymentContext, paymentIds: string[]): Promise<Map<string, NonNullable<Payment['refund']>>> {
  const found = new Map<string, NonNullable<Payment['refund']>>();
  if (!paymentIds.length) return found;
  const rows = await deps.db
    .select({ paymentId: paymentRefunds.paymentId, amount: paymentRefunds.amount, status: paymentRefunds.status })
    .from(paymentRefunds)
    .where(inArray(paymentRefunds.paymentId, paymentIds))
    .orderBy(asc(paymentRefunds.createdAt));
  for (const r of rows) found.set(r.paymentId, { amount: (found.get(r.paymentId)?.amount ?? 0) + r.amount, status: r.status });
  return found;
}

export function myPayments(deps: PaymentContext, user: UserRow, query: PageQuery & { purpose?: 'order' | 'top_up' }) {
  const purpose = query.purpose === 'top_up' ? isNull(payments.orderId) : query.purpose === 'order' ? isNotNull(payments.orderId) : undefined;
  return paymentPage(deps, and(eq(payments.customerId, user.id), purpose), query, false);
}

export function adminPayments(deps: PaymentContext, query: PageQuery & { status?: PaymentStatus; method?: PaymentRow['method'] }) {
  return paymentPage(
    deps,
    and(query.status ? eq(payments.status, query.status) : undefined, query.method ? eq(payments.method, query.method) : undefined),
    query,
    true,
  );
}

export async function balance(deps: PaymentContext, user: UserRow): Promise<FinanceBalance> {
  return {
    ...(await balancesOf(deps.db, user.id)),
    min_withdrawal: await deps.settings.get('withdrawals.minAmount'),
    card_widget: deps.providers.cardWidget(),
    top_up: await topUpMethods(deps),
    saved_method: await savedPayoutMethod(deps.db, user.id, { forDeal: false, sharedTokens: deps.providers.payoutsFor('card')?.dealPayouts?.sharedTokens ?? true }),
  };
}

/**
 * The card (its widget token and mask) or the ЮMoney wallet the seller's last such withdrawal went to (ADR 050):
 * offered again on the finance page, and where a seller's share out of a safe deal goes (ADR 053). A card's token
 * serves the account whose widget made it: unless the payouts gateway is the shop, a deal's payout reuses only a
 * card given for a deal's payout, and a withdrawal from the balance only one given for such a withdrawal.
 */
export async function savedPayoutMethod(
  db: PaymentContext['db'],
  userId: string,
  use: { forDeal: boolean; sharedTokens: boolean } = { forDeal: false, sharedTokens: true },
): Promise<SavedPayoutMethod | null> {
  const sameAccount = use.sharedTokens ? undefined : use.forDeal ? isNotNull(withdrawals.dealRef) : isNull(withdrawals.dealRef);
  const [w] = await db
    .select({ method: withdrawals.method, destination: withdrawals.destination, payoutToken: withdrawals.payoutToken, cardType: withdrawals.cardType })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), or(and(eq(withdrawals.method, 'card'), isNotNull(withdrawals.payoutToken), sameAccount), eq(withdrawals.method, 'yoomoney'))))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(1);
  if (!w) return null;
  if (w.method === 'yoomoney') return { method: 'yoomoney', destination: w.destination };
  return { method: 'card', payout_token: w.payoutToken!, first6: w.destination.slice(0, 6), last4: w.destination.slice(-4), card_type: w.cardType };
}

export type SavedPayoutMethod = NonNullable<FinanceBalance['saved_method']>;

/** The person's entries on their available and held balances, newest first (keyset by the chain's seq). */
export async function entries(deps: PaymentContext, user: UserRow, query: PageQuery): Promise<Page<FinanceEntry>> {
  const beforeSeq = query.cursor ? Number(decodeCursor(query.cursor, ['text', 'int8'])[1]) : null;
  const lines = await statementOf(deps.db, user.id, { beforeSeq, limit: query.limit + 1 });
  const { rows: kept, next } = page(lines, query.limit, (r) => ['entries', r.seq]);
  const orders = await orderNames(deps.db, kept.flatMap((r) => (r.orderId ? [r.orderId] : [])));
  const result = kept.map(({ orderId, ...line }) => presentFinanceEntry({ ...line, order: (orderId && orders.get(orderId)) || null }, user.id));
  return { result, next };
}

async function withdrawalPage(deps: PaymentContext, where: SQL | undefined, query: PageQuery, admin: boolean): Promise<Page<Withdrawal>> {
  const after = query.cursor ? keysetAfter(WITHDRAWAL_KEYS, cursorPosition(query.cursor, 'withdrawals', WITHDRAWAL_KEYS)) : undefined;
  const rows = await deps.db
    .select({ w: withdrawals, user: { id: owner.id, name: owner.name, email: owner.email }, createdKey: timestampKey(withdrawals.createdAt) })
    .from(withdrawals)
    .innerJoin(owner, eq(owner.id, withdrawals.userId))
    .where(and(where, after))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(query.limit + 1);
  const { rows: kept, next } = page(rows, query.limit, (r) => ['withdrawals', r.createdKey, r.w.id]);
  return { result: kept.map((r) => (admin ? presentWithdrawal(r.w, r.user) : presentWithdrawal(r.w))), next };
}

export function myWithdrawals(deps: PaymentContext, user: UserRow, query: PageQuery & { status?: WithdrawalStatus }) {
  return withdrawalPage(deps, and(eq(withdrawals.userId, user.id), query.status ? eq(withdrawals.status, query.status) : undefined), query, false);
}

export function adminWithdrawals(deps: PaymentContext, query: PageQuery & { status?: WithdrawalStatus }) {
  return withdrawalPage(deps, query.status ? eq(withdrawals.status, query.status) : undefined, query, true);
}
