import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Bid } from '#contract/bids';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { priceText } from '../../components/ui/price.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { daysText } from '../catalog/index.ts';
import { displayName } from '../../lib/people.ts';

/** «Принять» with its confirmation; on success the customer goes to pay the new order (/payments/{orderId}). */
export function AcceptButton({ bid, onDone }: { bid: Bid; onDone?: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const accept = async () => {
    setBusy(true);
    const { data, error } = await api.write('bids.accept', {
      params: { id: bid._id },
      body: { price: bid.price, days: bid.days },
    });
    setBusy(false);
    setOpen(false);
    if (error) {
      toast(error.message, { type: 'error' });
      onDone?.();
      return;
    }
    api.clearCache();
    toast('Исполнитель выбран. Оплатите заказ, чтобы он приступил к работе.', { type: 'success' });
    navigate(`/payments/${data.result.order_id}`);
  };
  return (
    <>
      <button type="button" className="btn btn--primary" onClick={() => setOpen(true)} data-testid="accept-bid">
        Принять
      </button>
      <ConfirmDialog
        open={open}
        title="Принять отклик?"
        text={`${displayName(bid.seller)} станет исполнителем: заказ на ${priceText(bid.price, 'RUB', null)} со сроком ${daysText(bid.days)}. Остальные отклики будут отклонены, проект перейдёт в работу.`}
        confirmLabel="Принять и перейти к оплате"
        busy={busy}
        onConfirm={accept}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
