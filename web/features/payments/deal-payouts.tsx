import { useCallback, useState, type FormEvent } from 'react';
import type { FinanceBalance, Withdrawal } from '#contract/payments';
import { formatRubles } from '#contract/money-format';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Field } from '../../components/ui/form.tsx';
import { withStepUp } from '../two-factor/index.ts';
import { CardWidget } from './card-widget.tsx';
import { DESTINATION_HINTS } from './labels.ts';
import type { WidgetCard } from './withdraw-rules.ts';

// A seller's share of a card-paid order waits in its safe deal for a card or ЮMoney wallet (ADR 053): the finance
// page asks for one here. The card is entered in ЮKassa's widget for the shop's account (a deal's payout is the
// shop's); the money goes at once.

type Widget = NonNullable<FinanceBalance['card_widget']>;

export function DealPayouts({ payouts, widget, onDone }: { payouts: Withdrawal[]; widget: FinanceBalance['card_widget']; onDone: () => void }) {
  if (!payouts.length) return null;
  return (
    <section className="form form--card fin-deal-payouts" aria-labelledby="deal-payouts-title">
      <h2 className="fin-withdraw__title" id="deal-payouts-title">
        Куда перевести оплату
      </h2>
      <p className="muted">Оплата картой хранится в безопасной сделке ЮKassa и переводится вам напрямую. Укажите карту или кошелёк ЮMoney — деньги уйдут сразу.</p>
      {payouts.map((p) => (
        <PayoutDetails key={p._id} payout={p} widget={widget} onDone={onDone} />
      ))}
    </section>
  );
}

function PayoutDetails({ payout, widget, onDone }: { payout: Withdrawal; widget: FinanceBalance['card_widget']; onDone: () => void }) {
  const [method, setMethod] = useState<'card' | 'yoomoney'>(widget ? 'card' : 'yoomoney');
  const [wallet, setWallet] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A deal's payout is the shop's: the widget tokenises the card for the shop's account.
  const dealWidget: Widget | null = widget ? { ...widget, account_id: widget.deal_account_id ?? widget.account_id } : null;

  const send = useCallback(
    async (body: { method: 'card'; payout_token: string; card: { first6: string; last4: string; card_type?: string } } | { method: 'yoomoney'; destination: string }) => {
      setBusy(true);
      setProblem(null);
      // New payout details need a fresh second factor when the person has one (ADR 054).
      const res = await withStepUp(() => api.write('withdrawals.details', { params: { id: payout._id }, body }));
      setBusy(false);
      if (res.error) {
        if (res.error.errors && Object.keys(res.error.errors).length) setErrors(res.error.errors);
        else setProblem(res.error.message);
        return;
      }
      toast('Реквизиты сохранены — выплата отправлена', { type: 'success' });
      onDone();
    },
    [payout._id, onDone],
  );
  const onCard = useCallback(
    (card: WidgetCard) => void send({ method: 'card', payout_token: card.payout_token, card: { first6: card.first6, last4: card.last4, ...(card.card_type ? { card_type: card.card_type } : {}) } }),
    [send],
  );

  function submitWallet(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send({ method: 'yoomoney', destination: wallet });
  }

  return (
    <div className="fin-deal-payout" data-testid="deal-payout">
      <p className="fin-deal-payout__head">
        <strong>{formatRubles(payout.amount)}</strong> за заказ №{payout.order_number}
      </p>
      {payout.reject_reason && (
        <p className="form-error" role="alert">
          {payout.reject_reason}
        </p>
      )}
      <div className="fin-deal-payout__switch" role="radiogroup" aria-label="Куда перевести">
        {dealWidget && (
          <label>
            <input type="radio" name={`deal-${payout._id}`} checked={method === 'card'} onChange={() => setMethod('card')} /> Банковская карта
          </label>
        )}
        <label>
          <input type="radio" name={`deal-${payout._id}`} checked={method === 'yoomoney'} onChange={() => setMethod('yoomoney')} /> Кошелёк ЮMoney
        </label>
      </div>
      {method === 'card' && dealWidget ? (
        <>
          <CardWidget widget={dealWidget} onCard={onCard} />
          {(errors.payout_token ?? errors.card)?.[0] && (
            <p className="form-error" role="alert">
              {(errors.payout_token ?? errors.card)![0]}
            </p>
          )}
        </>
      ) : (
        <form onSubmit={submitWallet} noValidate>
          <Field label={DESTINATION_HINTS.yoomoney.label} error={errors.destination}>
            {(a11y) => (
              <input
                className="input"
                value={wallet}
                inputMode="numeric"
                autoComplete="off"
                placeholder={DESTINATION_HINTS.yoomoney.placeholder}
                maxLength={120}
                onChange={(e) => setWallet(e.target.value)}
                {...a11y}
              />
            )}
          </Field>
          <div className="form__footer">
            <button type="submit" className="btn btn--primary" disabled={busy}>
              {busy ? 'Отправка…' : 'Перевести'}
            </button>
          </div>
        </form>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
