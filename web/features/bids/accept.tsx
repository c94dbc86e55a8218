import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Bid } from '#contract/bids';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { priceText } from '../../components/ui/price.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { daysText } from '../catalog/index.ts';
import { displayName } from '../../lib/people.ts';
import { pluralWithCount } from '#contract/plural';

/** «3 этапа» after «в». */
const stagesText = (n: number) => pluralWithCount(n, 'этап', 'этапа', 'этапов');

/**
 * Where the customer pays after accepting: the order, or the first stage of an order in stages (ADR 065: a head is
 * never paid); its chat should the head not be read.
 */
async function payPath(orderId: string, inStages: boolean): Promise<string> {
  if (!inStages) return `/payments/${orderId}`;
  try {
    const head = await api.read('orders.get', { params: { id: orderId } }, { fresh: true });
    const first = head.result.stages?.find((s) => s.actions.includes('pay'));
    if (first) return `/payments/${first._id}`;
    return head.result.chat_id ? `/profile/messages?tab=orders&chat=${head.result.chat_id}` : '/profile/orders';
  } catch {
    return '/profile/orders';
  }
}

/** «Принять» with its confirmation; on success the customer goes to pay the new order (/payments/{orderId}). */
export function AcceptButton({ bid, onDone }: { bid: Bid; onDone?: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const accept = async () => {
    setBusy(true);
    const { data, error } = await api.write('bids.accept', {
      params: { id: bid._id },
      // The stages seen too: a seller's edit meanwhile makes the server refuse (409).
      body: { price: bid.price, days: bid.days, stages: bid.stages },
    });
    setBusy(false);
    setOpen(false);
    if (error) {
      toast(error.message, { type: 'error' });
      onDone?.();
      return;
    }
    api.clearCache();
    toast(bid.stages ? 'Исполнитель выбран. Оплатите первый этап, чтобы он приступил к работе.' : 'Исполнитель выбран. Оплатите заказ, чтобы он приступил к работе.', {
      type: 'success',
    });
    navigate(await payPath(data.result.order_id, !!bid.stages));
  };
  return (
    <>
      <button type="button" className="btn btn--primary" onClick={() => setOpen(true)} data-testid="accept-bid">
        Принять
      </button>
      <ConfirmDialog
        open={open}
        title="Принять отклик?"
        text={`${displayName(bid.seller)} станет исполнителем: заказ на ${priceText(bid.price, 'RUB', null)} со сроком ${daysText(bid.days)}${bid.stages ? ` в ${stagesText(bid.stages.length)}, каждый оплачивается перед его началом` : ''}. Остальные отклики будут отклонены, проект перейдёт в работу.`}
        confirmLabel="Принять и перейти к оплате"
        busy={busy}
        onConfirm={accept}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
