import { useCallback, useEffect, useState } from 'react';
import type { Bid } from '#contract/bids';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { AcceptButton } from './accept.tsx';
import { BidCard } from './bid-card.tsx';
import { BidForm } from './bid-form.tsx';
import { liveBids } from './bid-queries.ts';
import '../../styles/bids.css';

// The project page's bid section for signed-in people, loaded lazily (a guest's page never carries it): the
// customer's received bids with «Принять», or the seller's form and their own bid.

export interface ProjectBidsProps {
  projectId: string;
  /** The project is open for bids. */
  open: boolean;
  /** The viewer is the project's customer. */
  own: boolean;
}

export default function ProjectBids(props: ProjectBidsProps) {
  return props.own ? <ReceivedBids {...props} /> : <SellerBid {...props} />;
}

function ReceivedBids({ projectId, open }: ProjectBidsProps) {
  const [bids, setBids] = useState<Bid[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const read = useCallback(
    (cursor?: string) =>
      api.read('bids.ofProject', { params: { id: projectId }, query: { limit: 20, ...(cursor ? { cursor } : {}) } }, { fresh: true }),
    [projectId],
  );
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let alive = true;
    read().then(
      (answer) => {
        if (!alive) return;
        setBids(answer.result);
        setNext(answer.next);
        setFailed(false);
      },
      () => alive && setFailed(true),
    );
    return () => {
      alive = false;
    };
  }, [read, version]);
  const more = async () => {
    if (!next || !bids) return;
    try {
      const answer = await read(next);
      setBids([...bids, ...answer.result]);
      setNext(answer.next);
    } catch {
      toast('Не удалось загрузить отклики');
    }
  };

  if (failed) return <p role="alert">Не удалось загрузить отклики. Обновите страницу.</p>;
  if (!bids) return <div className="skeleton" style={{ height: 120 }} aria-busy="true" />;
  const live = liveBids(bids);
  if (live.length === 0) return <p>Откликов пока нет. Исполнители увидят проект на бирже — мы сообщим о первом отклике.</p>;
  return (
    <div className="bid-list" data-testid="received-bids">
      {live.map((bid) => (
        <BidCard key={bid._id} bid={bid} show="seller" actions={open && bid.status === 'active' ? <AcceptButton bid={bid} onDone={() => setVersion((v) => v + 1)} /> : undefined} />
      ))}
      {next && (
        <button type="button" className="btn btn--ghost" onClick={() => void more()}>
          Показать ещё
        </button>
      )}
    </div>
  );
}

function SellerBid({ projectId, open }: ProjectBidsProps) {
  const [bid, setBid] = useState<Bid | null | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let alive = true;
    api.read('users.myBid', { params: { id: projectId } }, { fresh: true }).then(
      (answer) => alive && setBid(answer.result),
      () => alive && setBid(null),
    );
    return () => {
      alive = false;
    };
  }, [projectId]);

  const withdraw = async () => {
    if (!bid) return;
    setBusy(true);
    const { error } = await api.write('bids.withdraw', { params: { id: bid._id } });
    setBusy(false);
    setConfirm(false);
    if (error) return void toast(error.message);
    toast('Отклик отозван', { type: 'success' });
    setBid(null);
  };

  if (bid === undefined) return <div className="skeleton" style={{ height: 120 }} aria-busy="true" />;
  if (!bid) {
    if (!open) return <p>Отклики на этот проект закрыты.</p>;
    return (
      <>
        <p>Предложите заказчику цену и срок и расскажите, как выполните задачу.</p>
        <BidForm projectId={projectId} onSaved={setBid} />
      </>
    );
  }
  if (editing) return <BidForm projectId={projectId} bid={bid} onSaved={(b) => (setBid(b), setEditing(false))} onCancel={() => setEditing(false)} />;
  const changeable = open && bid.status === 'active';
  return (
    <>
      <p>Ваш отклик{bid.status === 'active' ? ' отправлен заказчику.' : '.'}</p>
      <BidCard
        bid={bid}
        show="seller"
        actions={
          changeable ? (
            <>
              <button type="button" className="btn btn--ghost" onClick={() => setEditing(true)}>
                Изменить
              </button>
              <button type="button" className="btn btn--ghost btn--danger-text" onClick={() => setConfirm(true)}>
                Отозвать
              </button>
            </>
          ) : undefined
        }
      />
      <ConfirmDialog
        open={confirm}
        title="Отозвать отклик?"
        text="Заказчик больше не увидит ваш отклик. Вы сможете откликнуться снова, пока проект открыт."
        confirmLabel="Отозвать"
        danger
        busy={busy}
        onConfirm={withdraw}
        onClose={() => setConfirm(false)}
      />
    </>
  );
}
