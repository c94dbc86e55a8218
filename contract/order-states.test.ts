import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from './money.ts';
import { isAwaitingPayment, isCancelled, isCompleted, isDelivered, isDisputed, isInProgress, isOpenPaid, isSettled } from './order-states.ts';

// One row per status: what each name says of it. The server's transition table (orders/state.ts) and the web's
// order card both read these names, so a status added to ORDER_STATUSES must be placed here first.
const EXPECTED = {
  awaiting_payment: { awaiting: true, openPaid: false, settled: false },
  in_progress: { awaiting: false, openPaid: true, settled: false },
  delivered: { awaiting: false, openPaid: true, settled: false },
  disputed: { awaiting: false, openPaid: false, settled: false },
  completed: { awaiting: false, openPaid: false, settled: true },
  cancelled: { awaiting: false, openPaid: false, settled: true },
} as const;

describe('order states', () => {
  it('names every status', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it.each(ORDER_STATUSES)('%s', (status) => {
    const o = { status };
    expect({ awaiting: isAwaitingPayment(o), openPaid: isOpenPaid(o), settled: isSettled(o) }).toEqual(EXPECTED[status]);
    const exactly = [isAwaitingPayment, isInProgress, isDelivered, isDisputed, isCompleted, isCancelled].filter((is) => is(o));
    expect(exactly, 'one single-status name holds').toHaveLength(1);
  });
});
