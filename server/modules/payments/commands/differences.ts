import { asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { UserRow } from '../../users/index.ts';
import { HttpError, notFound } from '../../../lib/http.ts';
import { isUuid } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { PaymentDifference, ProviderViewAnswer } from '#contract/payment-differences';
import { paymentDifferences, payments, withdrawals, type PaymentDifferenceRow } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import { ProviderUnavailable } from '../providers/provider.ts';
import { applyEvent } from './webhook.ts';
import { payoutNews } from './payout.ts';
import { SETTLED } from './reconcile.ts';

// The admin's side of reconciliation (issue 27): the differences found, unresolved first; resolving one with a
// note; applying the provider's outcome to a payment it says is paid; and a payment in its provider's own words.

const MESSAGES = {
  notFound: 'Расхождение не найдено',
  resolved: 'Расхождение уже отмечено решённым',
  notApplicable: 'Это расхождение нельзя исправить результатом провайдера — разберитесь и отметьте решённым',
  notPaid: 'Провайдер сейчас не подтверждает оплату — применить нечего',
  unchanged: 'Результат провайдера не изменил платёж — разберитесь вручную и отметьте решённым',
  noView: 'Этот провайдер не показывает платежи',
  unknownAtProvider: 'Провайдер не знает этот платёж',
} as const;

/** Whether applying the provider's outcome can settle it: a payment the provider has more of than we do. */
function canApply(d: PaymentDifferenceRow): boolean {
  if (d.resolvedAt) return false;
  if (d.kind === 'payout_unsettled') return typeof d.details.withdrawal_id === 'string';
  if (!d.paymentId) return false;
  if (d.kind === 'unsettled') return true;
  return d.kind === 'amount' && Number(d.details.provider_amount ?? 0) > Number(d.details.our_received ?? 0);
}

export function presentDifference(d: PaymentDifferenceRow): PaymentDifference {
  return {
    _id: d.id,
    provider: d.provider,
    day: d.day,
    kind: d.kind,
    provider_ref: d.providerRef,
    payment_id: d.paymentId,
    details: d.details,
    can_apply: canApply(d),
    found_at: d.foundAt.toISOString(),
    resolved_at: d.resolvedAt?.toISOString() ?? null,
    resolution: d.resolution,
  };
}

/** The unresolved differences, oldest day first, then the latest resolved ones, up to `limit` in all. */
export async function listDifferences(deps: PaymentContext, limit: number): Promise<PaymentDifference[]> {
  const open = await deps.db
    .select()
    .from(paymentDifferences)
    .where(isNull(paymentDifferences.resolvedAt))
    .orderBy(asc(paymentDifferences.day), asc(paymentDifferences.foundAt), asc(paymentDifferences.id))
    .limit(limit);
  const done =
    open.length < limit
      ? await deps.db
          .select()
          .from(paymentDifferences)
          .where(isNotNull(paymentDifferences.resolvedAt))
          .orderBy(desc(paymentDifferences.resolvedAt), desc(paymentDifferences.id))
          .limit(limit - open.length)
      : [];
  return [...open, ...done].map(presentDifference);
}

/** Marks a difference resolved with the admin's note, audited; once. */
export async function resolveDifference(deps: PaymentContext, admin: UserRow, id: string, note: string, action: 'resolve' | 'apply' = 'resolve'): Promise<PaymentDifference> {
  if (!isUuid(id)) throw notFound(MESSAGES.notFound);
  return deps.platform.withTx(userActor(admin), async ({ tx, clock }) => {
    const [d] = await tx.select().from(paymentDifferences).where(eq(paymentDifferences.id, id)).for('update');
    if (!d) throw notFound(MESSAGES.notFound);
    if (d.resolvedAt) throw new HttpError(409, MESSAGES.resolved);
    const [row] = await tx
      .update(paymentDifferences)
      .set({ resolvedAt: clock.now(), resolvedBy: admin.id, resolution: note })
      .where(eq(paymentDifferences.id, d.id))
      .returning();
    await audit(tx, {
      actorId: admin.id,
      action: action === 'apply' ? 'payment_difference.apply' : 'payment_difference.resolve',
      targetType: 'payment_difference',
      targetId: d.id,
      details: { provider: d.provider, kind: d.kind, provider_ref: d.providerRef, reason: note },
    });
    return presentDifference(row!);
  });
}

/**
 * The provider's outcome applied as its webhook would have been (applyEvent: once by its event id, in one
 * transaction), then the difference resolved when the payment now has what the provider says arrived.
 */
export async function applyDifference(deps: PaymentContext, admin: UserRow, id: string): Promise<PaymentDifference> {
  if (!isUuid(id)) throw notFound(MESSAGES.notFound);
  const [d] = await deps.db.select().from(paymentDifferences).where(eq(paymentDifferences.id, id));
  if (!d) throw notFound(MESSAGES.notFound);
  if (d.resolvedAt) throw new HttpError(409, MESSAGES.resolved);
  if (!canApply(d)) throw new HttpError(409, MESSAGES.notApplicable);
  if (d.kind === 'payout_unsettled') return applyPayout(deps, admin, d);
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, d.paymentId!));
  const provider = payment?.provider ? deps.providers.byName(payment.provider) : null;
  if (!payment?.providerRef || !provider?.checkPayment) throw new HttpError(409, MESSAGES.notApplicable);
  const event = await unavailableAs503(() => provider.checkPayment!(payment.providerRef!));
  if (!event || event.type !== 'payment.succeeded') throw new HttpError(409, MESSAGES.notPaid);
  await applyEvent(deps, provider.name, event);
  const [after] = await deps.db.select().from(payments).where(eq(payments.id, payment.id));
  if (!after || !SETTLED.includes(after.status) || after.receivedAmount !== event.amount) throw new HttpError(409, MESSAGES.unchanged);
  return resolveDifference(deps, admin, id, `Применён результат провайдера: поступило ${event.amount} (${event.currency}, мин. ед.)`, 'apply');
}

/** A payout the provider made while our withdrawal still says «Отправляется»: the provider is asked, as the poll does. */
async function applyPayout(deps: PaymentContext, admin: UserRow, d: PaymentDifferenceRow): Promise<PaymentDifference> {
  await unavailableAs503(() => payoutNews(deps, d.provider, d.providerRef));
  const [w] = await deps.db.select({ status: withdrawals.status }).from(withdrawals).where(eq(withdrawals.id, String(d.details.withdrawal_id)));
  if (w?.status !== 'approved') throw new HttpError(409, MESSAGES.unchanged);
  return resolveDifference(deps, admin, d.id, 'Применён результат провайдера: выплата выполнена, вывод закрыт', 'apply');
}

/** A payment as its provider has it now, in the provider's words (for the admin's «Состояние у провайдера»). */
export async function providerView(deps: PaymentContext, paymentId: string): Promise<ProviderViewAnswer> {
  if (!isUuid(paymentId)) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  const [payment] = await deps.db
    .select({ provider: payments.provider, ref: payments.providerRef })
    .from(payments)
    .where(eq(payments.id, sql`${paymentId}::uuid`));
  if (!payment) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  const provider = payment.provider ? deps.providers.byName(payment.provider) : null;
  if (!provider?.describePayment || !payment.ref) throw notFound(MESSAGES.noView);
  const view = await unavailableAs503(() => provider.describePayment!(payment.ref!));
  if (!view) throw notFound(MESSAGES.unknownAtProvider);
  return { provider: provider.name, provider_ref: payment.ref, ...view };
}

async function unavailableAs503<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderUnavailable) throw new HttpError(503, PAYMENT_MESSAGES.providerUnavailable);
    throw error;
  }
}
