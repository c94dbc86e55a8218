import { useCallback, useEffect, useRef, useState } from 'react';
import type { Dispute } from '#contract/disputes';
import { DISPUTE_REASON_LABELS } from '#contract/dispute-constants';
import { MESSAGES } from '#contract/messages';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { toast } from '../../lib/toast-store.ts';
import { useShell } from '../../lib/use-shell.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { ConfirmDialog } from '../items/index.ts';
import { unseenText } from '../chat/index.ts';
import { DecisionSummary, DisputeStatusBadge, disputeTitle, personName } from './dispute-parts.tsx';
import { DisputeThread } from './dispute-thread.tsx';

// The «Споры» tab of /profile/disputes (issue 14): the disputes the person opened or answers, each with its chat.
// Live: new_dispute replaces a dispute's chat and refreshes the list; get_counters carries a dispute's unseen
// count (SPEC §4).

const PAGE_SIZE = 50;

export function MyDisputes() {
  const { user } = useShell();
  const me = user?._id ?? '';
  const [list, setList] = useState<Dispute[]>([]);
  const [total, setTotal] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<Dispute | null>(null);
  const [busy, setBusy] = useState(false);

  // The pages shown so far: a live refresh reloads them all, so that «Показать ещё» is not undone by an event.
  const pages = useRef(1);
  const [more, setMore] = useState(false);

  const load = useCallback(
    (n = pages.current) =>
      Promise.all(
        Array.from({ length: n }, (_, i) => api.read('disputes.mine', { query: { limit: PAGE_SIZE, page: i + 1 } }, { fresh: true })),
      ).then(
        (answers) => {
          const seen = new Set<string>();
          setList(answers.flatMap((a) => a.result).filter((d) => !seen.has(d._id) && !!seen.add(d._id)));
          setTotal(answers[0]!.total);
          pages.current = n;
          setFailed(false);
          setLoaded(true);
        },
        () => {
          // A failed «Показать ещё» keeps what is shown.
          if (n > pages.current) toast('Не удалось загрузить споры. Попробуйте ещё раз.');
          else setFailed(true);
          setLoaded(true);
        },
      ),
    [],
  );

  async function showMore() {
    setMore(true);
    await load(pages.current + 1);
    setMore(false);
  }

  useEffect(() => {
    void load();
    const offDispute = onSocketEvent('new_dispute', ({ chat }) => {
      setList((l) => l.map((d) => (d.chat._id === chat._id ? { ...d, chat } : d)));
      void load();
    });
    const offCounters = onSocketEvent('get_counters', (e) => {
      const n = e.chatTotalUnseen[me];
      if (!e.dispute_id || typeof n !== 'number') return;
      setList((l) => l.map((d) => (d._id === e.dispute_id ? { ...d, chat: { ...d.chat, unseen_messages: n } } : d)));
    });
    return () => {
      offDispute();
      offCounters();
    };
  }, [load, me]);

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
        {list.map((d) => {
          const open = openId === d._id;
          const unseen = d.chat.unseen_messages;
          return (
            <li key={d._id} className="dispute-card" data-testid="dispute" data-dispute={d._id}>
              <div className="dispute-card__head">
                <p className="dispute-card__title">{disputeTitle(d)}</p>
                <DisputeStatusBadge status={d.status} />
              </div>
              <p className="dispute-card__reason">Причина: {DISPUTE_REASON_LABELS[d.reason]}</p>
              <p className="muted dispute-card__meta">
                {d.role === 'opener' ? 'Вы открыли спор' : `Спор открыл(а) ${personName(d.opened_by)}`} · {formatDate(d.created_at)}
              </p>
              <p className="dispute-card__text">{d.description}</p>
              {d.decision && (
                <>
                  <DecisionSummary decision={d.decision} />
                  <AppLink className="dispute-card__appeal" to={`/profile/disputes?tab=appeals&subject=dispute&object=${encodeURIComponent(d._id)}`}>
                    Обжаловать решение
                  </AppLink>
                </>
              )}
              <div className="dispute-card__actions">
                <button type="button" className="btn btn--ghost btn--sm" aria-expanded={open} onClick={() => setOpenId(open ? null : d._id)}>
                  {open ? 'Скрыть переписку' : 'Переписка'}
                  {unseen > 0 && (
                    <span className="unseen-badge" data-testid="dispute-unseen">
                      <span aria-hidden>{unseen > 99 ? '99+' : unseen}</span>
                      <span className="visually-hidden">, {unseenText(unseen)}</span>
                    </span>
                  )}
                </button>
                {d.can_cancel && (
                  <button type="button" className="btn btn--danger-text btn--sm" onClick={() => setCancelling(d)}>
                    Отменить заявку
                  </button>
                )}
              </div>
              {open && me && <DisputeThread key={d.chat._id} chatId={d.chat._id} me={me} />}
            </li>
          );
        })}
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
