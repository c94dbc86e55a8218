import type { OutboxWriter } from '../../../platform/outbox.ts';
import type { Letters, ProjectDecision } from '../../../platform/letters/index.ts';
import type { ProjectRecord } from '../presenter.ts';

/** The customer's letter about a decision, queued in the decision's transaction (unless they switched it off). */
export function tellOwner(letters: Letters, outbox: OutboxWriter, record: ProjectRecord, decision: ProjectDecision, reason: string | null) {
  const path = `/projects/${record.category.slug}/${record.project.id}`;
  letters.notify(outbox, record.customer, 'project.decision', { title: record.project.title, decision, reason, path });
}
