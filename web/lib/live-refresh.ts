import { useEffect, useRef } from 'react';
import { useRevalidator } from 'react-router';
import { onSocketEvent, onSocketReconnect } from './socket.ts';

// Pages that show the state an event changes refresh themselves when its in-app notification arrives (issue 25,
// ADR 044): the bell already hears of a moderation decision, an order's step, a bid or an appeal's answer through
// the socket's `notifications` event (ADR 030), so the open page asks for its data again instead of waiting for
// a reload. Keyed by the notification kinds of server/platform/letters/notify.ts (LETTER_KINDS).

/** Notification kinds that change what a page shows, by page. */
export const LIVE_KINDS = {
  /** /profile/items: a service's status, a project's status and bid count. */
  items: ['service.decision', 'project.decision', 'bid.new'],
  /** /profile/finance: orders pay, release and refund; withdrawals are decided; disputes are resolved. */
  finance: ['order.event', 'withdrawal.decision', 'dispute.event', 'payout.detailsNeeded', 'deal.ended'],
  /** /profile/bids: a new bid (the customer), a bid accepted or declined (the seller). */
  bids: ['bid.new', 'bid.accepted', 'bid.rejected'],
  /** The appeals tab of /profile/disputes: the administration's answer. */
  appeals: ['appeal.answered'],
} as const satisfies Record<string, readonly string[]>;

/** Calls `fn` when a notification of one of these kinds arrives for the signed-in person. */
export function useOnNotification(kinds: readonly string[], fn: () => void): void {
  const latest = useRef(fn);
  useEffect(() => {
    latest.current = fn;
  });
  const key = kinds.join(' ');
  useEffect(() => {
    const wanted = new Set(key.split(' '));
    return onSocketEvent('notifications', ({ notification }) => {
      if (notification && wanted.has(notification.kind)) latest.current();
    });
  }, [key]);
}

/**
 * Runs the page's loaders again when a notification of one of these kinds arrives: the page shows the new state —
 * and when the socket comes back after a gap, in which such notifications may have been missed (issue 29), or
 * first connects after the page was read (a slow connection would otherwise leave an early event unseen).
 */
export function useRevalidateOn(kinds: readonly string[]): void {
  const { revalidate } = useRevalidator();
  useOnNotification(kinds, () => void revalidate());
  const latest = useRef(revalidate);
  useEffect(() => {
    latest.current = revalidate;
  });
  useEffect(() => onSocketReconnect(() => void latest.current(), { firstConnect: true }), []);
}
