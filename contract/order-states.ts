import type { OrderStatus } from './money.ts';

// Where an order stands, named once for the server (orders/state.ts, its jobs, disputes, reviews) and the web (the
// order card's clocks, panels and notes), so that neither compares `status` itself (ADR 039). Which step a party may
// take stays the server's transition table, sent to the card as `allowed_actions`.

// A plain string too: the payment page carries the status untyped.
type StatusOf = { status: string };

/** Paid and not settled: the escrow holds the price and the work is on. */
export const PAID_STATUSES = ['in_progress', 'delivered'] as const satisfies readonly OrderStatus[];

export const isAwaitingPayment = (o: StatusOf) => o.status === 'awaiting_payment';
export const isInProgress = (o: StatusOf) => o.status === 'in_progress';
export const isDelivered = (o: StatusOf) => o.status === 'delivered';
export const isDisputed = (o: StatusOf) => o.status === 'disputed';
export const isCompleted = (o: StatusOf) => o.status === 'completed';
export const isCancelled = (o: StatusOf) => o.status === 'cancelled';

/** Paid and not settled (PAID_STATUSES). */
export const isOpenPaid = (o: StatusOf) => (PAID_STATUSES as readonly string[]).includes(o.status);

/** Settled one way or the other: nothing more will move. */
export const isSettled = (o: StatusOf) => isCompleted(o) || isCancelled(o);
