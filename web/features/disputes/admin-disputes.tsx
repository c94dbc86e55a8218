import { useCallback, useEffect, useState } from 'react';
import { useRevalidator, useSearchParams } from 'react-router';
import type { AdminDisputeRow, Dispute } from '#contract/disputes';
import { DISPUTE_REASON_LABELS } from '#contract/dispute-constants';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { toast } from '../../lib/toast-store.ts';
import { useShell } from '../../lib/use-shell.ts';
import { Price } from '../../components/ui/price.tsx';
import { ListSearch, StateTabs, NextPage, useListLink } from '../../components/ui/list-controls.tsx';
import { Modal } from '../../components/ui/dialog.tsx';
import { DecisionSummary, DisputeStatusBadge, disputeTitle, personName } from './dispute-parts.tsx';
import { DecisionForm } from './decision-form.tsx';
import { DisputeThread } from './dispute-thread.tsx';

// /admin/disputes (issue 14): the queue (oldest first), by state, the flag of disputes waiting longer than
// disputes.flagDays, an order's number; one opens with its order, parties, chat (the admin joins to write) and the
// decision form. New disputes and changes arrive live (new_dispute).

export const ADMIN_DISPUTE_TABS = [
  { value: 'open', label: 'Открытые' },
  { value: 'flagged', label: 'Просроченные' },
  { value: 'resolved', label: 'Решённые' },
  { value: 'cancelled', label: 'Отменённые' },
  { value: 'all', label: 'Все' },
] as const;

export function AdminDisputes({ disputes, total, next, failed }: { disputes: AdminDisputeRow[]; total: number; next: string | null; failed: boolean }) {
  const [params] = useSearchParams();
  const tab = params.get('status') ?? 'open';
  const q = params.get('q') ?? '';
  const [openId, setOpenId] = useState<string | null>(null);
  const link = useListLink('/admin/disputes', 'open');
  const { revalidate } = useRevalidator();

  // A dispute opened, taken or closed anywhere: the queue reads itself again.
  useEffect(() => onSocketEvent('new_dispute', () => void revalidate()), [revalidate]);

  return (
    <section className="page admin-disputes">
      <h1 className="page__title">Споры</h1>
      <StateTabs tabs={ADMIN_DISPUTE_TABS} current={tab} link={link} />
      <ListSearch q={q} status={tab === 'open' ? null : tab} placeholder="Номер заказа" resetTo={link({ q: null })} />
      {failed ? (
        <p className="empty-state" role="alert">
          Не удалось загрузить споры.
        </p>
      ) : disputes.length === 0 ? (
        <p className="empty-state">Споров не нашлось.</p>
      ) : (
        <>
          <p className="field__hint">Найдено: {total > 10_000 ? 'больше 10 000' : total}</p>
          <table className="table admin-disputes__table">
            <thead>
              <tr>
                <th scope="col">Заказ</th>
                <th scope="col">Стороны</th>
                <th scope="col">Сумма</th>
                <th scope="col">Причина</th>
                <th scope="col">Открыт</th>
                <th scope="col">Состояние</th>
              </tr>
            </thead>
            <tbody>
              {disputes.map((d) => (
                <tr key={d._id} data-testid="admin-dispute" data-dispute={d._id}>
                  <td>
                    <button type="button" className="admin-orders__open" onClick={() => setOpenId(d._id)}>
                      {disputeTitle(d)}
                    </button>
                    {d.unseen_messages > 0 && (
                      <span className="unseen-badge" title="Непрочитанные сообщения">
                        {d.unseen_messages}
                      </span>
                    )}
                  </td>
                  <td data-label="Стороны">
                    {personName(d.opened_by)} → {personName(d.respondent)}
                  </td>
                  <td data-label="Сумма">
                    <Price kopecks={d.order.price} />
                  </td>
                  <td data-label="Причина">{DISPUTE_REASON_LABELS[d.reason]}</td>
                  <td data-label="Открыт">
                    {formatDate(d.created_at)}
                    {d.flagged && (
                      <span className="badge status-badge status-badge--danger admin-disputes__flag" data-testid="dispute-flag">
                        Долго без решения
                      </span>
                    )}
                  </td>
                  <td data-label="Состояние">
                    <DisputeStatusBadge status={d.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <NextPage next={next} link={link} />
        </>
      )}
      <Modal open={openId !== null} title="Спор" onClose={() => setOpenId(null)}>
        {openId && <AdminDisputeDetail id={openId} onChanged={() => void revalidate()} />}
      </Modal>
    </section>
  );
}

function AdminDisputeDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const { user } = useShell();
  const me = user?._id ?? '';
  const [dispute, setDispute] = useState<Dispute | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    api.read('admin.disputes.get', { params: { id } }, { fresh: true }).then(
      (res) => setDispute(res.result),
      () => setFailed(true),
    );
  }, [id]);
  useEffect(() => {
    load();
    return onSocketEvent('new_dispute', (e) => {
      if (e.dispute_id === id) load();
    });
  }, [id, load]);

  async function take() {
    setBusy(true);
    const { data, error } = await api.write('admin.disputes.take', { params: { id } });
    setBusy(false);
    if (error) {
      toast(error.message);
      return;
    }
    setDispute(data.result);
    onChanged();
  }

  if (failed) return <p role="alert">Не удалось загрузить спор.</p>;
  if (!dispute) return <div className="skeleton" style={{ height: 200 }} aria-busy="true" />;
  const member = dispute.chat.members.some((m) => m._id === me);
  return (
    <div className="admin-order admin-dispute" data-testid="admin-dispute-detail">
      <p className="admin-order__title">
        {disputeTitle(dispute)} <DisputeStatusBadge status={dispute.status} />
      </p>
      <dl className="admin-order__facts">
        <dt>Заказчик</dt>
        <dd>{personName(dispute.order.customer)}</dd>
        <dt>Исполнитель</dt>
        <dd>{personName(dispute.order.seller)}</dd>
        <dt>Инициатор спора</dt>
        <dd>
          {personName(dispute.opened_by)}, {formatDate(dispute.created_at)}
        </dd>
        <dt>Сумма в резерве</dt>
        <dd>
          <Price kopecks={dispute.order.price} />
        </dd>
        <dt>Причина</dt>
        <dd>{DISPUTE_REASON_LABELS[dispute.reason]}</dd>
        <dt>Арбитр</dt>
        <dd>{dispute.admin ? personName(dispute.admin) : 'ещё не назначен'}</dd>
      </dl>
      <p className="dispute-card__text">{dispute.description}</p>
      {dispute.decision && <DecisionSummary decision={dispute.decision} />}
      <h3 className="admin-order__sub">Переписка спора</h3>
      {!member && dispute.status === 'open' && (
        <p>
          <button type="button" className="btn btn--primary btn--sm" disabled={busy} onClick={() => void take()}>
            Взять спор и писать в чат
          </button>
        </p>
      )}
      <DisputeThread key={`${dispute.chat._id}:${member ? 'member' : 'reader'}`} chatId={dispute.chat._id} me={me} readOnly={!member} />
      {dispute.status === 'open' && (
        <DecisionForm
          dispute={dispute}
          onDone={(d) => {
            setDispute(d);
            onChanged();
          }}
        />
      )}
    </div>
  );
}
