import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Dispute } from '#contract/disputes';
import { MESSAGES } from '#contract/messages';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { useShell } from '../../lib/use-shell.ts';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { DisputeCard } from './dispute-card.tsx';
import { useMyDisputes } from './use-my-disputes.ts';

// The «Споры» tab of /profile/disputes (issue 14): the disputes the person opened or answers, each with its chat.
// Live: new_dispute replaces a dispute's chat and refreshes the list; get_counters carries a dispute's unseen
// count (SPEC §4). ?dispute={id} (the link of a dispute's letters and notifications) opens that dispute's chat.

export function MyDisputes() {
  const { user } = useShell();
  const me = user?._id ?? '';
  const { list, setList, total, loaded, failed, more, showMore } = useMyDisputes(me);
  const [params] = useSearchParams();
  const asked = params.get('dispute');
  const [openId, setOpenId] = useState<string | null>(asked);
  const [cancelling, setCancelling] = useState<Dispute | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(d: Dispute) {
    setBusy(true);
    const { data, error } = await api.write('disputes.cancel', { params: { id: d._id } });
    setBusy(false);
    setCancelling(null);
    if (error) {
      toast(error.message);
      return;
    }
    toast(MESSAGES.disputeCancelled, { type: 'success' });
    setList((l) => l.map((x) => (x._id === d._id ? data.result : x)));
  }

  // The dispute a link asked for: open (also when a notification asks while the page is open), and in view once
  // the list shows it.
  const [askedBefore, setAskedBefore] = useState(asked);
  if (asked !== askedBefore) {
    setAskedBefore(asked);
    if (asked) setOpenId(asked);
  }
  useEffect(() => {
    if (!asked || !loaded) return;
    document.querySelector(`[data-dispute="${CSS.escape(asked)}"]`)?.scrollIntoView({ block: 'start' });
  }, [asked, loaded]);

  if (!loaded) return <div className="skeleton" style={{ height: 160 }} aria-busy="true" />;
  if (failed)
    return (
      <p className="empty-state" role="alert">
        Не удалось загрузить споры.
      </p>
    );
  if (list.length === 0)
    return <p className="empty-state">Споров нет. Открыть спор можно в карточке оплаченного заказа, в разделе «Сообщения» → «Заказы».</p>;

  return (
    <div className="disputes">
      <p className="field__hint">Всего: {total}</p>
      <ul className="disputes__list">
        {list.map((d) => (
          <DisputeCard
            key={d._id}
            dispute={d}
            me={me}
            open={openId === d._id}
            onToggle={() => setOpenId(openId === d._id ? null : d._id)}
            onCancel={() => setCancelling(d)}
          />
        ))}
      </ul>
      {list.length < total && (
        <div className="listing__more">
          <button type="button" className="btn btn--ghost" onClick={() => void showMore()} disabled={more}>
            {more ? 'Загружаем…' : 'Показать ещё'}
          </button>
          <p className="listing__shown">
            Показано {list.length} из {total}
          </p>
        </div>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title="Отменить заявку?"
        text="Спор закроется без решения, заказ продолжится с того места, где остановился."
        confirmLabel="Отменить заявку"
        danger
        busy={busy}
        onConfirm={() => cancelling && void cancel(cancelling)}
        onClose={() => setCancelling(null)}
      />
    </div>
  );
}
