import { describe, expect, it } from 'vitest';
import { headState, type StageFacts } from './stages.ts';

// ADR 065's roll-up table, row by row: the head's status and dates from its stages.

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 10));

function stage(status: StageFacts['status'], facts: Partial<StageFacts> = {}): StageFacts {
  return {
    stage: 0,
    status,
    paidAt: null,
    deadlineAt: null,
    deliveredAt: null,
    completedAt: null,
    cancelledAt: null,
    cancelledBy: null,
    cancelReason: null,
    ...facts,
  };
}
/** Stages numbered 1.. in the order given. */
const stages = (...rows: Array<() => StageFacts>) => rows.map((make, i) => ({ ...make(), stage: i + 1 }));
const s =
  (status: StageFacts['status'], facts: Partial<StageFacts> = {}) =>
  () =>
    stage(status, facts);

const completed = (day: number) =>
  s('completed', { paidAt: at(day), deadlineAt: at(day + 3), deliveredAt: at(day + 1), completedAt: at(day + 2) });
const cancelledUnpaid = (day: number, reason = 'Этап снят до оплаты') =>
  s('cancelled', { cancelledAt: at(day), cancelReason: reason });

describe('headState (ADR 065)', () => {
  it('every stage cancelled → cancelled, dated by the last cancellation', () => {
    const head = headState(stages(cancelledUnpaid(3, 'первый'), cancelledUnpaid(5, 'второй')));
    expect(head).toMatchObject({
      status: 'cancelled',
      cancelledAt: at(5),
      cancelReason: 'второй',
      completedAt: null,
      paidAt: null,
    });
  });

  it('every stage completed or cancelled, one completed at least → completed, dated by the last completion', () => {
    const head = headState(stages(completed(1), completed(5), cancelledUnpaid(9)));
    expect(head).toMatchObject({ status: 'completed', completedAt: at(7), paidAt: at(1), cancelledAt: null });
  });

  it('any stage disputed → disputed, even with a later stage delivered', () => {
    const head = headState(
      stages(
        s('disputed', { paidAt: at(1), deadlineAt: at(4) }),
        s('delivered', { paidAt: at(2), deliveredAt: at(3) }),
      ),
    );
    expect(head).toMatchObject({ status: 'disputed', paidAt: at(1), deadlineAt: at(4) });
  });

  it('the current stage delivered → delivered, with its delivery and deadline', () => {
    const head = headState(
      stages(
        completed(1),
        s('delivered', { paidAt: at(4), deadlineAt: at(8), deliveredAt: at(6) }),
        s('awaiting_payment'),
      ),
    );
    expect(head).toMatchObject({
      status: 'delivered',
      paidAt: at(1),
      deliveredAt: at(6),
      deadlineAt: at(8),
      completedAt: null,
    });
  });

  it('a later stage delivered ahead of the current one in progress → in_progress', () => {
    const head = headState(
      stages(
        s('in_progress', { paidAt: at(1), deadlineAt: at(4) }),
        s('delivered', { paidAt: at(2), deliveredAt: at(3) }),
      ),
    );
    expect(head).toMatchObject({ status: 'in_progress', deadlineAt: at(4), deliveredAt: null });
  });

  it('stage 1 completed, stage 2 unfunded → in_progress (waiting for the next funding)', () => {
    const head = headState(stages(completed(1), s('awaiting_payment')));
    expect(head).toMatchObject({
      status: 'in_progress',
      paidAt: at(1),
      deadlineAt: null,
      deliveredAt: null,
      completedAt: null,
    });
  });

  it('stage 1 in progress → in_progress, with its deadline', () => {
    const head = headState(stages(s('in_progress', { paidAt: at(2), deadlineAt: at(5) }), s('awaiting_payment')));
    expect(head).toMatchObject({ status: 'in_progress', paidAt: at(2), deadlineAt: at(5) });
  });

  it('nothing ever funded → awaiting_payment, a dropped unfunded stage included', () => {
    expect(headState(stages(s('awaiting_payment'), s('awaiting_payment'))).status).toBe('awaiting_payment');
    expect(headState(stages(cancelledUnpaid(2), s('awaiting_payment'))).status).toBe('awaiting_payment');
  });

  it('a funded stage cancelled and the next unfunded → in_progress (something was funded)', () => {
    const head = headState(stages(s('cancelled', { paidAt: at(1), cancelledAt: at(2) }), s('awaiting_payment')));
    expect(head).toMatchObject({ status: 'in_progress', paidAt: at(1), cancelledAt: null });
  });

  it('reads the stages by their numbers, whatever order they come in', () => {
    const [a, b] = stages(completed(1), s('delivered', { paidAt: at(4), deliveredAt: at(6) }));
    expect(headState([b!, a!]).status).toBe('delivered');
  });
});
