import type { Notification } from '#contract/notifications';
import { pluralWithCount } from '#contract/plural';

// The notifications list's changes and words (ADR 030): what arrives live, a next page, read marks, the counts.

/** A notification arriving live goes on top, unless the list has it already (the socket may repeat it): then the
 * list itself comes back, so nothing re-renders. */
export const withArrival = (list: Notification[], n: Notification): Notification[] =>
  list.some((m) => m._id === n._id) ? list : [n, ...list];

/** The next page below the list, without those the list has (new ones shifted the pages meanwhile). */
export const withPage = (list: readonly Notification[], page: readonly Notification[]): Notification[] => [
  ...list,
  ...page.filter((n) => !list.some((m) => m._id === n._id)),
];

/** One notification read. */
export const markRead = (list: readonly Notification[], id: string): Notification[] =>
  list.map((m) => (m._id === id ? { ...m, read: true } : m));

/** Every notification read. */
export const markAllRead = (list: readonly Notification[]): Notification[] => list.map((n) => ({ ...n, read: true }));

/** The count after one was opened here: one fewer, never below zero (another tab may have read it first). */
export const unreadAfterOpen = (unread: number) => Math.max(0, unread - 1);

export const unreadText = (n: number) =>
  pluralWithCount(n, 'непрочитанное уведомление', 'непрочитанных уведомления', 'непрочитанных уведомлений');

/** The line above the list. */
export const countLine = (unread: number) => (unread > 0 ? unreadText(unread) : 'Все уведомления прочитаны');

/** The bell's badge: the count, "99+" past 99. */
export const badgeCount = (unread: number) => (unread > 99 ? '99+' : String(unread));

/** A click the page handles itself: the main button with no key held (others open a tab or a window). */
export const isPlainClick = (e: { metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) =>
  !(e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0);
