import { and, eq, gte, inArray, isNull, lt, notInArray } from 'drizzle-orm';
import type { WebhookEvent } from '#contract/payments';
import { DEAL_WATCH_KINDS, type DifferenceKind } from '#contract/payment-differences';
import { paymentArrivals } from '../../ledger/index.ts';
import { paymentDifferences, payments, type PaymentRow } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import { ProviderUnavailable, type PaymentProvider, type ProviderRecord } from '../providers/provider.ts';
import { comparePayouts } from './reconcile-payouts.ts';
import { compareRefunds } from './reconcile-refunds.ts';

// The daily reconciliation with the providers (issue 27): a UTC day's payments as each provider lists them, matched
// with our payments and the ledger's arrivals. What differs is kept in payment_differences, once per (provider,
// kind, provider's id), for the admin page and the command; what a later run no longer finds is resolved by it.
// The provider's payouts are compared with our withdrawals in reconcile-payouts.ts.
//
//   provider says        we have                                kind
//   succeeded            pending, failed, expired, or nothing    unsettled (the poll may be behind; can be applied)
//   failed, pending      succeeded or credited                   not_at_provider (money in the ledger it lacks)
//   succeeded, amount a  settled, received b ≠ a                 amount
//   succeeded            no payment of ours by ref or metadata   unknown
//   succeeded = ours     ledger arrivals ≠ what arrived          ledger

export const SETTLED: readonly PaymentRow['status'][] = ['succeeded', 'credited'];
const DAY_MS = 86_400_000;
/** What a later run writes on a difference it no longer finds. */
export const GONE_NOTE = 'Больше не находится при сверке';

export interface Found {
  kind: DifferenceKind;
  providerRef: string;
  paymentId: string | null;
  details: Record<string, unknown>;
}

export interface ProviderReport {
  provider: string;
  /** Null when the provider could not be read (it is tried again on the next run). */
  listed: number | null;
  found: Found[];
  error?: string;
}

/** A YYYY-MM-DD day's bounds in UTC, or null for anything else. */
export function dayBounds(day: string): { from: Date; to: Date } | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const from = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day) return null;
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/** The UTC day before `now`, YYYY-MM-DD (the daily job's: a whole day, finished). */
export const yesterday = (now: Date) => new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);

/** The kopecks `received` minor units bring at the payment's price, as webhook.ts credits them. */
export const kopecksOf = (p: PaymentRow, received: number) => Number((BigInt(received) * BigInt(p.amount)) / BigInt(p.currencyAmount));

/** Reconciles one day with every configured provider that can list its payments. */
export async function reconcileDay(deps: PaymentContext, day: string): Promise<ProviderReport[]> {
  const bounds = dayBounds(day);
  if (!bounds) throw new Error(`not a day: ${day}`);
  const reports: ProviderReport[] = [];
  for (const provider of deps.providers.all()) {
    if (!provider.listPayments) continue;
    try {
      const found = await compare(deps, provider, bounds.from, bounds.to);
      // Its payouts too, when it sends withdrawals: stored with its payments, so that neither resolves the other's.
      const payouts = deps.providers.payoutsByName(provider.name);
      const sent = payouts?.listPayouts ? await comparePayouts(deps, payouts, bounds.from, bounds.to) : { listed: 0, found: [] };
      // And its refunds inside safe deals (ADR 051).
      const refunded = provider.refunds ? await compareRefunds(deps, provider.name, provider.refunds, bounds.from, bounds.to) : { listed: 0, found: [] };
      const all = [...found.found, ...sent.found, ...refunded.found];
      await store(deps, provider.name, day, all);
      reports.push({ provider: provider.name, listed: found.listed + sent.listed + refunded.listed, found: all });
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      deps.log.warn({ err: error, provider: provider.name, day }, 'reconciliation: provider unavailable');
      reports.push({ provider: provider.name, listed: null, found: [], error: 'провайдер не ответил' });
    }
  }
  return reports;
}

/** The provider's records of the window against ours; our settled payments it did not list are asked one by one. */
async function compare(deps: PaymentContext, provider: PaymentProvider, from: Date, to: Date): Promise<{ listed: number; found: Found[] }> {
  const records = await provider.listPayments!(from, to);
  const ours = await ourPayments(deps, provider.name, records, from, to);
  const byRef = new Map(ours.filter((p) => p.providerRef).map((p) => [p.providerRef!, p]));
  const byId = new Map(ours.map((p) => [p.id, p]));
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const payment = byRef.get(record.ref) ?? (record.paymentId ? byId.get(record.paymentId) : undefined);
    if (payment) seen.add(payment.id);
    found.push(...judge(record, payment));
  }
  // Settled here in the window, not in the provider's list (made there just across midnight, or not at all).
  for (const payment of ours) {
    if (seen.has(payment.id) || !SETTLED.includes(payment.status)) continue;
    const event = payment.providerRef ? await provider.checkPayment?.(payment.providerRef) : null;
    found.push(...judge(recordOfEvent(payment, event ?? null), payment));
  }
  const settled = ours.filter((p) => SETTLED.includes(p.status) && !found.some((f) => f.paymentId === p.id));
  const arrivals = await paymentArrivals(deps.db, settled);
  for (const payment of settled) {
    const expected = kopecksOf(payment, payment.receivedAmount ?? payment.currencyAmount);
    const booked = arrivals.get(payment.id) ?? 0;
    if (booked !== expected) found.push(difference('ledger', payment.providerRef ?? payment.id, payment, { expected_kopecks: expected, ledger_kopecks: booked }));
  }
  return { listed: records.length, found };
}

/** Our payments at this provider: made in the window, or named by its records (by its id or by our metadata). */
async function ourPayments(deps: PaymentContext, providerName: string, records: ProviderRecord[], from: Date, to: Date): Promise<PaymentRow[]> {
  const inWindow = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, providerName), gte(payments.createdAt, from), lt(payments.createdAt, to)));
  const known = new Set(inWindow.map((p) => p.id));
  const refs = records.map((r) => r.ref);
  const ids = records.flatMap((r) => (r.paymentId && /^[0-9a-f-]{36}$/i.test(r.paymentId) ? [r.paymentId] : []));
  const more: PaymentRow[] = [];
  for (let i = 0; i < Math.max(refs.length, ids.length); i += 500) {
    const byRef = refs.slice(i, i + 500);
    const byId = ids.slice(i, i + 500);
    if (byRef.length) more.push(...(await deps.db.select().from(payments).where(and(eq(payments.provider, providerName), inArray(payments.providerRef, byRef)))));
    if (byId.length) more.push(...(await deps.db.select().from(payments).where(and(eq(payments.provider, providerName), inArray(payments.id, byId)))));
  }
  for (const p of more) {
    if (known.has(p.id)) continue;
    known.add(p.id);
    inWindow.push(p);
  }
  return inWindow;
}

function recordOfEvent(payment: PaymentRow, event: WebhookEvent | null): ProviderRecord {
  return {
    ref: payment.providerRef ?? payment.id,
    paymentId: payment.id,
    status: event ? (event.type === 'payment.succeeded' ? 'succeeded' : 'failed') : 'pending',
    currency: event?.currency ?? payment.currency,
    amount: event?.amount ?? 0,
    createdAt: payment.createdAt,
  };
}

function difference(kind: DifferenceKind, providerRef: string, payment: PaymentRow | undefined, details: Record<string, unknown>): Found {
  const ours = payment ? { our_status: payment.status, our_received: payment.receivedAmount, our_amount: payment.currencyAmount, currency: payment.currency } : {};
  return { kind, providerRef, paymentId: payment?.id ?? null, details: { ...ours, ...details } };
}

/** What one of the provider's records says against our payment (none: not ours). */
function judge(record: ProviderRecord, payment: PaymentRow | undefined): Found[] {
  const theirs = { provider_status: record.status, provider_amount: record.amount, provider_currency: record.currency };
  if (!payment) return record.status === 'succeeded' ? [difference('unknown', record.ref, undefined, { ...theirs, provider_payment_id: record.paymentId })] : [];
  const settled = SETTLED.includes(payment.status);
  if (record.status !== 'succeeded') return settled ? [difference('not_at_provider', record.ref, payment, theirs)] : [];
  if (!settled) return [difference('unsettled', record.ref, payment, theirs)];
  if (record.currency !== payment.currency || record.amount !== (payment.receivedAmount ?? payment.currencyAmount)) return [difference('amount', record.ref, payment, theirs)];
  return [];
}

/** Keeps what was found (a difference already kept is only brought up to date) and resolves what is gone. */
async function store(deps: PaymentContext, provider: string, day: string, found: Found[]): Promise<void> {
  const now = deps.clock.now();
  for (const f of found) {
    await deps.db
      .insert(paymentDifferences)
      .values({ provider, day, kind: f.kind, providerRef: f.providerRef, paymentId: f.paymentId, details: f.details, foundAt: now })
      .onConflictDoUpdate({
        target: [paymentDifferences.provider, paymentDifferences.kind, paymentDifferences.providerRef],
        set: { details: f.details },
        setWhere: isNull(paymentDifferences.resolvedAt),
      });
  }
  const still = new Set(found.map((f) => `${f.kind}\u0000${f.providerRef}`));
  const open = await deps.db
    .select({ id: paymentDifferences.id, kind: paymentDifferences.kind, ref: paymentDifferences.providerRef })
    .from(paymentDifferences)
    .where(and(eq(paymentDifferences.provider, provider), eq(paymentDifferences.day, day), isNull(paymentDifferences.resolvedAt), notInArray(paymentDifferences.kind, [...DEAL_WATCH_KINDS])));
  const gone = open.filter((d) => !still.has(`${d.kind}\u0000${d.ref}`)).map((d) => d.id);
  if (gone.length) {
    await deps.db
      .update(paymentDifferences)
      .set({ resolvedAt: now, resolution: GONE_NOTE })
      .where(and(inArray(paymentDifferences.id, gone), isNull(paymentDifferences.resolvedAt)));
  }
}
