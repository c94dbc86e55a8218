import { eq } from 'drizzle-orm';
import { withdrawals } from '../schema.ts';
import type { UserRow } from '../../users/index.ts';
import { notFound } from '../../../lib/http.ts';
import { isUuid } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import { audit } from '../../../platform/audit.ts';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { PaymentContext } from '../deps.ts';

/**
 * The full destination of a withdrawal, for the admin who pays a card by hand (ADR 046): lists show a card masked,
 * and each reveal is a command that leaves its trace in the audit log. Who may is the endpoint's guard (admin).
 */
export async function revealDestination(deps: PaymentContext, admin: UserRow, id: string): Promise<{ destination: string }> {
  if (!isUuid(id)) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
  return deps.platform.withTx(userActor(admin), async ({ tx }) => {
    const [w] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id));
    if (!w) throw notFound(PAYMENT_MESSAGES.withdrawalNotFound);
    await audit(tx, {
      actorId: admin.id,
      action: 'withdrawal.reveal',
      targetType: 'withdrawal',
      targetId: w.id,
      details: { method: w.method, amount: w.amount },
    });
    return { destination: w.destination };
  });
}
