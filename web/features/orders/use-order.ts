import { useCallback, useEffect, useState } from 'react';
import type { OrderDetail } from '#contract/orders';
import type { PendingReview } from '#contract/reviews';
import { api } from '../../lib/api.ts';
import { onSocketEvent, onSocketReconnect } from '../../lib/socket.ts';

/**
 * The order of an order chat, read afresh whenever a message arrives in the chat (every step posts one) or the
 * order changes.
 */
export function useLiveOrder(orderId: string, chatId: string) {
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    api.read('orders.get', { params: { id: orderId } }, { fresh: true }).then(
      (res) => {
        setOrder(res.result);
        setFailed(false);
      },
      () => setFailed(true),
    );
  }, [orderId]);

  useEffect(() => {
    load();
    const offMessage = onSocketEvent('new_message', (e) => {
      if (e.chat._id === chatId) load();
    });
    const offOrder = onSocketEvent('order_updated', (e) => {
      if (e._id === orderId) load();
    });
    // Back after a gap (issue 29), or first connected after the order was read: what changed meanwhile is read again.
    const offReconnect = onSocketReconnect(load, { firstConnect: true });
    return () => {
      offMessage();
      offOrder();
      offReconnect();
    };
  }, [chatId, orderId, load]);

  return { order, setOrder, failed, load };
}

/** A completed order the member has not reviewed yet (ADR 029): the card offers «Оставить отзыв». */
export function usePendingReview(orderId: string, completed: boolean) {
  const [pendingReview, setPendingReview] = useState<PendingReview | null>(null);
  useEffect(() => {
    if (!completed) return;
    let live = true;
    api.read('reviews.pending', {}, { fresh: true }).then(
      (res) => live && setPendingReview(res.result.find((p) => p.order_id === orderId) ?? null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [completed, orderId]);
  return [pendingReview, setPendingReview] as const;
}
