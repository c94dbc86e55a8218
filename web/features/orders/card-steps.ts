import type { Order } from '#contract/orders';
import { isOpenPaid } from '#contract/order-states';

// The steps an order card offers a member now (PRODUCT.md: the order's workspace is its chat). The server says
// which of its actions the member may take (`order.actions`, from the orders' state table); the card adds the
// dispute, which either party of a paid order in progress or delivered may open (ADR 034), and puts them in the
// one order the card shows them in: paying first, then the work, then cancelling, the dispute last.

export type CardDialog = 'deliver' | 'revision' | 'cancel' | 'propose' | 'accept' | 'review' | 'dispute';

export type CardStep =
  /** A link to the payment page. */
  | { kind: 'pay'; label: string; className: string }
  /** A button that opens the step's dialog. */
  | { kind: 'dialog'; dialog: CardDialog; label: string; className: string }
  /** An answer to the other side's proposal to cancel, sent at once. */
  | { kind: 'answer'; accept: boolean; label: string; className: string };

type StepOrder = Pick<Order, 'actions' | 'role' | 'status'> & Partial<Pick<Order, 'stage' | 'stage_count'>>;

/**
 * Either party of a running order may open a dispute (ADR 034); an admin who is not a party may not. A head's
 * dispute is opened on one of its stages (ADR 065), never on the head.
 */
export const canOpenDispute = (order: Pick<Order, 'role' | 'status'> & Partial<Pick<Order, 'stage_count'>>) =>
  order.role !== null && isOpenPaid(order) && !order.stage_count;

/** A stage's buttons say «этап» (ADR 065); an unfunded stage is dropped rather than cancelled. */
const STAGE_LABELS: Record<string, string> = {
  pay: 'Оплатить этап',
  deliver: 'Сдать этап',
  accept: 'Принять этап',
  cancel: 'Отменить этап',
  dispute: 'Открыть спор по этапу',
};

/** The card's buttons, in the order shown. */
export function cardSteps(order: StepOrder): CardStep[] {
  const can = (action: Order['actions'][number]) => order.actions.includes(action);
  const steps: CardStep[] = [];
  if (can('pay')) steps.push({ kind: 'pay', label: 'Оплатить', className: 'btn btn--primary btn--sm' });
  if (can('deliver')) steps.push({ kind: 'dialog', dialog: 'deliver', label: 'Сдать работу', className: 'btn btn--primary btn--sm' });
  if (can('accept')) steps.push({ kind: 'dialog', dialog: 'accept', label: 'Принять', className: 'btn btn--success btn--sm' });
  if (can('revision')) steps.push({ kind: 'dialog', dialog: 'revision', label: 'Запросить доработку', className: 'btn btn--ghost btn--sm' });
  if (can('answer_cancel')) {
    steps.push({ kind: 'answer', accept: true, label: 'Согласиться на отмену', className: 'btn btn--danger btn--sm' });
    steps.push({ kind: 'answer', accept: false, label: 'Отклонить отмену', className: 'btn btn--ghost btn--sm' });
  }
  if (can('propose_cancel')) steps.push({ kind: 'dialog', dialog: 'propose', label: 'Предложить отмену', className: 'btn btn--quiet btn--sm' });
  if (can('cancel')) steps.push({ kind: 'dialog', dialog: 'cancel', label: 'Отменить заказ', className: 'btn btn--danger-text btn--sm' });
  if (canOpenDispute(order)) steps.push({ kind: 'dialog', dialog: 'dispute', label: 'Открыть спор', className: 'btn btn--danger-text btn--sm' });
  if (!order.stage) return steps;
  const stage = order.stage;
  return steps.map((step) => {
    const key = step.kind === 'dialog' ? step.dialog : step.kind;
    if (key === 'cancel' && stage.funds === 'unfunded') return { ...step, label: 'Снять этап' };
    return STAGE_LABELS[key] ? { ...step, label: STAGE_LABELS[key] } : step;
  });
}
