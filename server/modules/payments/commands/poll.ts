import { and, asc, eq, gt, isNotNull, lt } from 'drizzle-orm';
import { payments } from '../schema.ts';
import type { PaymentContext } from '../deps.ts';
import { ProviderUnavailable } from '../providers/provider.ts';
import { providerPayment, recordCreated } from './pay-provider.ts';
import { applyEvent } from './webhook.ts';

// The payments a provider may hold whose end we have not heard (ADR 048): its webhook never came, or a crash lost
// its answer to our create. Each is asked for again under the same idempotency key (the provider answers the
// payment it made rather than a second one) and its outcome is applied as its webhook would have been.

/** A webhook gets this long to come before the provider is asked. */
export const POLL_AFTER_MS = 60_000;
/** Older than this the provider's idempotency keys are gone (ЮKassa keeps them 24 hours): reconciliation's part. */
export const POLL_WINDOW_MS = 24 * 60 * 60_000;
const BATCH = 100;

export async function pollProviderPayments(deps: PaymentContext): Promise<{ asked: number; settled: number }> {
  const now = deps.clock.now().getTime();
  const open = await deps.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        isNotNull(payments.provider),
        lt(payments.createdAt, new Date(now - POLL_AFTER_MS)),
        gt(payments.createdAt, new Date(now - POLL_WINDOW_MS)),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(BATCH);
  let asked = 0;
  let settled = 0;
  for (const payment of open) {
    const provider = deps.providers.byName(payment.provider!);
    if (!provider?.checkPayment) continue; // The sandbox always calls back (its outbox job retries).
    try {
      let ref = payment.providerRef;
      // A crypto quote the customer never went on to pay has no provider id either: it is not asked for.
      if (!ref && payment.quoteExpiresAt) continue;
      asked++;
      if (!ref) {
        // Made at the provider, perhaps, and the answer lost: the same key finds it.
        // A top-up (ADR 062) has no order: it is described as one.
        const order = payment.orderId ? await deps.orders.find(deps.db, payment.orderId) : null;
        if (payment.orderId && !order) continue;
        const created = await provider.createPayment(providerPayment(deps, payment, order));
        await recordCreated(deps, payment, created);
        ref = created.providerRef;
      }
      const event = await provider.checkPayment(ref);
      if (event) {
        await applyEvent(deps, provider.name, event);
        settled++;
      }
    } catch (error) {
      // One payment the provider will not answer for must not hold up the others: it is asked again next time,
      // and a refusal (a 4xx) is the operator's to see (reconciliation lists what the provider has).
      if (error instanceof ProviderUnavailable) deps.log.warn({ err: error, payment: payment.id }, 'payment provider unavailable: asked again next time');
      else deps.log.error({ err: error, payment: payment.id }, 'payment provider refused the poll of a payment');
    }
  }
  return { asked, settled };
}
