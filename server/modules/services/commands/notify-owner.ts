import type { ServiceDecision } from '../../../platform/letters/index.ts';
import type { OutboxWriter } from '../../../platform/outbox.ts';
import type { ServiceCatalogDeps } from '../deps.ts';
import type { ServiceJoined } from '../presenter.ts';

/** The owner's letter about a moderator's decision, queued in the decision's transaction (unless they switched it off). */
export function notifyOwner(
  { letters }: Pick<ServiceCatalogDeps, 'letters'>,
  outbox: OutboxWriter,
  row: ServiceJoined,
  decision: ServiceDecision,
  reason: string | null,
) {
  letters.notify(outbox, row.seller, 'service.decision', { id: row.service.id, title: row.service.title, decision, reason });
}
