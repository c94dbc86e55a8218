import type { OrderStatus } from '#contract/money';
import { STATUS_TONES, statusLabel } from './format.ts';

/** An order's state as a coloured badge. */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const tone = STATUS_TONES[status];
  return <span className={`badge status-badge${tone ? ` status-badge--${tone}` : ''}`}>{statusLabel(status)}</span>;
}
