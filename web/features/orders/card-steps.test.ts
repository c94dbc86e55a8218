import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type OrderStatus } from '#contract/money';
import { ORDER_ACTIONS, type OrderAction } from '#contract/order-constants';
import { canOpenDispute, cardSteps, type CardStep } from './card-steps.ts';
import { isOpenPaid } from '#contract/order-states';

// The order card's buttons: the server's actions for the member (from the orders' state table) in the card's own
// order, plus the dispute the card offers either party of a running order.

type Role = 'customer' | 'seller' | null;
const labels = (steps: CardStep[]) => steps.map((s) => s.label);
const steps = (status: OrderStatus, role: Role, actions: OrderAction[]) => labels(cardSteps({ status, role, actions }));

describe('cardSteps', () => {
  // The actions as the server gives them at each stage (server/modules/orders/orders.db.test.ts).
  it.each<[string, OrderStatus, Role, OrderAction[], string[]]>([
    ['a draft, to its customer', 'awaiting_payment', 'customer', ['pay', 'cancel'], ['Оплатить', 'Отменить заказ']],
    ['a draft, to its seller', 'awaiting_payment', 'seller', [], []],
    [
      'a paid order, to the customer',
      'in_progress',
      'customer',
      ['cancel', 'propose_cancel'],
      ['Предложить отмену', 'Отменить заказ', 'Открыть спор'],
    ],
    [
      'a paid order, to the seller',
      'in_progress',
      'seller',
      ['deliver', 'cancel', 'propose_cancel'],
      ['Сдать работу', 'Предложить отмену', 'Отменить заказ', 'Открыть спор'],
    ],
    [
      'a delivered order, to the customer',
      'delivered',
      'customer',
      ['accept', 'revision', 'propose_cancel'],
      ['Принять', 'Запросить доработку', 'Предложить отмену', 'Открыть спор'],
    ],
    ['a delivered order with no revisions left', 'delivered', 'customer', ['accept', 'propose_cancel'], ['Принять', 'Предложить отмену', 'Открыть спор']],
    ['a delivered order, to the seller', 'delivered', 'seller', ['cancel', 'propose_cancel'], ['Предложить отмену', 'Отменить заказ', 'Открыть спор']],
    [
      'a proposal to cancel, to the other side',
      'in_progress',
      'customer',
      ['answer_cancel'],
      ['Согласиться на отмену', 'Отклонить отмену', 'Открыть спор'],
    ],
    ['a completed order', 'completed', 'customer', [], []],
    ['a cancelled order', 'cancelled', 'seller', [], []],
    ['a disputed order', 'disputed', 'customer', [], []],
    ['a running order, to an admin who is no party', 'in_progress', null, [], []],
  ])('%s: %j', (_what, status, role, actions, shown) => {
    expect(steps(status, role, actions)).toEqual(shown);
  });

  it('shows every action in one fixed order, whatever order the server lists them in', () => {
    const all = [...ORDER_ACTIONS].reverse();
    expect(steps('awaiting_payment', 'customer', all)).toEqual([
      'Оплатить',
      'Сдать работу',
      'Принять',
      'Запросить доработку',
      'Согласиться на отмену',
      'Отклонить отмену',
      'Предложить отмену',
      'Отменить заказ',
    ]);
  });

  it('pays by a link, answers a proposal at once, and opens a dialog for every other step', () => {
    const shown = cardSteps({ status: 'in_progress', role: 'customer', actions: [...ORDER_ACTIONS] });
    expect(shown.filter((s) => s.kind === 'pay')).toHaveLength(1);
    expect(shown.filter((s) => s.kind === 'answer').map((s) => s.kind === 'answer' && s.accept)).toEqual([true, false]);
    expect(shown.flatMap((s) => (s.kind === 'dialog' ? [s.dialog] : []))).toEqual(['deliver', 'accept', 'revision', 'propose', 'cancel', 'dispute']);
  });

  it('colours the main step, the acceptance and the destructive ones apart', () => {
    const byLabel = Object.fromEntries(cardSteps({ status: 'delivered', role: 'seller', actions: [...ORDER_ACTIONS] }).map((s) => [s.label, s.className]));
    expect(byLabel).toEqual({
      Оплатить: 'btn btn--primary btn--sm',
      'Сдать работу': 'btn btn--primary btn--sm',
      Принять: 'btn btn--success btn--sm',
      'Запросить доработку': 'btn btn--ghost btn--sm',
      'Согласиться на отмену': 'btn btn--danger btn--sm',
      'Отклонить отмену': 'btn btn--ghost btn--sm',
      'Предложить отмену': 'btn btn--quiet btn--sm',
      'Отменить заказ': 'btn btn--danger-text btn--sm',
      'Открыть спор': 'btn btn--danger-text btn--sm',
    });
  });
});

describe('the dispute and a running order', () => {
  it.each(ORDER_STATUSES.map((s) => [s, s === 'in_progress' || s === 'delivered'] as const))('%s is running: %s', (status, running) => {
    expect(isOpenPaid({ status })).toBe(running);
    expect(canOpenDispute({ status, role: 'customer' })).toBe(running);
    expect(canOpenDispute({ status, role: 'seller' })).toBe(running);
    expect(canOpenDispute({ status, role: null })).toBe(false);
  });
});
