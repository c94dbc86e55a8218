import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { OFFER_STATUS_LABELS, type Offer } from '#contract/offers';
import { formatRubles } from '#contract/money-format';
import { pluralWithCount } from '#contract/plural';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { Modal } from '../../components/ui/dialog.tsx';
import { TextAreaField } from '../../components/ui/form.tsx';
import { OfferForm } from './offer-form.tsx';

// The order chat's custom offer on its card (ADR 066): the latest offer with its terms and stages, and this member's
// steps — the customer accepts it (to the payment of the new order) or asks for a change; the seller edits it,
// withdraws it, or makes a new one. Read again whenever a message arrives in the chat (every step posts one).

const LIVE = new Set<Offer['status']>(['open', 'change_requested']);
const dayCount = (n: number) => pluralWithCount(n, 'день', 'дня', 'дней');

export function OfferPanel({
  orderId,
  chatId,
  role,
}: {
  orderId: string;
  chatId: string;
  role: 'customer' | 'seller';
}) {
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [dialog, setDialog] = useState<'form' | 'change' | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const load = useCallback(() => {
    api.read('offers.ofOrder', { params: { id: orderId } }, { fresh: true }).then(
      (res) => setOffers(res.result),
      () => undefined,
    );
  }, [orderId]);
  useEffect(() => {
    load();
    return onSocketEvent('new_message', (e) => {
      if (e.chat._id === chatId) load();
    });
  }, [chatId, load]);

  const latest = offers?.[0] ?? null;
  const live = latest && LIVE.has(latest.status) ? latest : null;
  const step = async (
    request: () => Promise<{ data?: { result: Offer }; error?: { message: string } }>,
    done: string,
  ) => {
    setBusy(true);
    const { data, error } = await request();
    setBusy(false);
    if (error) return void toast(error.message);
    setDialog(null);
    toast(done, { type: 'success' });
    load();
    return data?.result;
  };
  const accept = async () => {
    const offer = await step(
      () => api.write('offers.accept', { params: { id: live!._id } }),
      'Предложение принято: оплатите заказ',
    );
    if (offer?.pay_order_id) navigate(`/payments/${offer.pay_order_id}`);
  };

  if (!offers) return null;
  // Nothing to show the customer until an offer comes; the seller may always make one.
  if (!latest && role === 'customer') return null;
  return (
    // Idle (nothing waits for an answer), the panel folds with the card's rarer steps on a phone (orders.css).
    <section className={`offer${live ? '' : ' offer--idle'}`} aria-label="Предложение нового заказа" data-testid="offer">
      {latest && latest.status !== 'replaced' && latest.status !== 'withdrawn' && <OfferTerms offer={latest} />}
      <div className="offer__actions">
        {role === 'customer' && live && (
          <>
            <button type="button" className="btn btn--primary btn--sm" disabled={busy} onClick={() => void accept()}>
              Принять и перейти к оплате
            </button>
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              disabled={busy}
              onClick={() => setDialog('change')}
            >
              Попросить изменить
            </button>
          </>
        )}
        {role === 'customer' && latest?.status === 'accepted' && latest.pay_order_id && (
          <a className="btn btn--ghost btn--sm" href={`/payments/${latest.pay_order_id}`}>
            К оплате нового заказа
          </a>
        )}
        {role === 'seller' && (
          <>
            <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => setDialog('form')}>
              {live ? 'Изменить предложение' : 'Предложить новый заказ'}
            </button>
            {live && (
              <button
                type="button"
                className="btn btn--quiet btn--sm"
                disabled={busy}
                onClick={() =>
                  void step(() => api.write('offers.withdraw', { params: { id: live._id } }), 'Предложение отозвано')
                }
              >
                Отозвать
              </button>
            )}
          </>
        )}
      </div>
      <OfferDialogs
        orderId={orderId}
        live={live}
        dialog={dialog}
        busy={busy}
        close={() => setDialog(null)}
        saved={() => {
          setDialog(null);
          load();
        }}
        askChange={(comment) =>
          void step(() => api.write('offers.change', { params: { id: live!._id }, body: { comment } }), 'Просьба отправлена исполнителю')
        }
      />
    </section>
  );
}

/** What is offered: the title and state, price and term, the description and the stages. */
function OfferTerms({ offer }: { offer: Offer }) {
  return (
    <>
      <p className="offer__head">
        <span className="offer__title">Предложение: {offer.title}</span>
        <span className="badge status-badge">{OFFER_STATUS_LABELS[offer.status]}</span>
      </p>
      <p className="offer__terms">
        {formatRubles(offer.price)}, {dayCount(offer.days)}
        {offer.stages ? `, ${pluralWithCount(offer.stages.length, 'этап', 'этапа', 'этапов')}` : ''}
      </p>
      <p className="offer__text">{offer.description}</p>
      {offer.stages && (
        <ol className="offer__stages">
          {offer.stages.map((s, i) => (
            <li key={i}>
              {s.title} — {formatRubles(s.amount)}, {dayCount(s.days)}
            </li>
          ))}
        </ol>
      )}
      {offer.change_comment && offer.status === 'change_requested' && <p className="offer__note">Заказчик просит: {offer.change_comment}</p>}
    </>
  );
}

/** The seller's form of a new or edited offer, and the customer's request for a change. */
function OfferDialogs(props: {
  orderId: string;
  live: Offer | null;
  dialog: 'form' | 'change' | null;
  busy: boolean;
  close: () => void;
  saved: () => void;
  askChange: (comment: string) => void;
}) {
  const { live, dialog, busy, close } = props;
  const [comment, setComment] = useState('');
  return (
    <>
      <Modal open={dialog === 'form'} title={live ? 'Изменить предложение' : 'Предложить новый заказ'} onClose={close}>
        {dialog === 'form' && <OfferForm orderId={props.orderId} offer={live} onDone={props.saved} />}
      </Modal>
      <Modal open={dialog === 'change'} title="Что изменить в предложении?" onClose={close}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            props.askChange(comment);
          }}
        >
          <TextAreaField label="Что изменить" name="comment" rows={3} value={comment} onChange={(e) => setComment(e.target.value)} required />
          <button type="submit" className="btn btn--primary" disabled={busy || !comment.trim()}>
            Отправить
          </button>
        </form>
      </Modal>
    </>
  );
}
