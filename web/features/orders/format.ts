import type { OrderStatus } from '#contract/money';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';
import { pluralWithCount } from '#contract/plural';

// Orders as the pages show them: the state's badge, the countdown to a deadline.

export const STATUS_TONES: Record<OrderStatus, 'success' | 'warning' | 'danger' | 'muted' | ''> = {
  awaiting_payment: 'warning',
  in_progress: '',
  delivered: 'warning',
  completed: 'success',
  cancelled: 'muted',
  disputed: 'danger',
};

export const statusLabel = (status: OrderStatus) => ORDER_STATUS_LABELS[status];

/** "2 дн. 5 ч", "3 ч 10 мин", "12 мин" left until `to`; "срок прошёл" once it has. */
export function countdown(to: string | null, now: number = Date.now()): string | null {
  if (!to) return null;
  const ms = Date.parse(to) - now;
  if (ms <= 0) return 'срок прошёл';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${pluralWithCount(days, 'день', 'дня', 'дней')} ${hours} ч`;
  if (hours > 0) return `${hours} ч ${minutes % 60} мин`;
  return `${Math.max(1, minutes)} мин`;
}

export const overdue = (to: string | null, now: number = Date.now()) => !!to && Date.parse(to) <= now;
