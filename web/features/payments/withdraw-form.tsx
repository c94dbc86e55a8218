import { useCallback, useState, type FormEvent } from 'react';
import type { FinanceBalance } from '#contract/payments';
import { api } from '../../lib/api.ts';
import { withStepUp } from '../two-factor/index.ts';
import { toast } from '../../lib/toast-store.ts';
import { Field } from '../../components/ui/form.tsx';
import { CardWidget } from './card-widget.tsx';
import { DESTINATION_HINTS } from './labels.ts';
import { cardLabel, checkWithdraw, withdrawBody, withdrawHint, type WidgetCard, type WithdrawMethod } from './withdraw-rules.ts';

// The withdraw form of /profile/finance (ADR 050): a card is entered in ЮKassa's payout widget (the number never
// reaches this page's code or our server), and a card or ЮMoney wallet used before is offered again; a crypto
// address or a wallet is typed.

const savedCardOf = (balance: FinanceBalance): WidgetCard | null => (balance.saved_method?.method === 'card' ? balance.saved_method : null);
const savedWalletOf = (balance: FinanceBalance): string => (balance.saved_method?.method === 'yoomoney' ? balance.saved_method.destination : '');

export function WithdrawForm({ balance, emailConfirmed, onDone }: { balance: FinanceBalance; emailConfirmed: boolean; onDone: () => void }) {
  const [method, setMethod] = useState<WithdrawMethod>(balance.saved_method?.method ?? 'card');
  const [card, setCard] = useState<WidgetCard | null>(() => savedCardOf(balance));
  const [destination, setDestination] = useState(() => savedWalletOf(balance));
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onCard = useCallback((next: WidgetCard) => {
    setCard(next);
    setErrors((e) => ({ ...e, card: [] }));
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { kopecks, errors: local } = checkWithdraw({ amount, destination, method, card }, balance);
    setErrors(local);
    setProblem(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await withStepUp(() => api.write('withdrawals.create', { body: withdrawBody(method, kopecks, destination, card) }));
    setBusy(false);
    if (res.error) {
      if (res.error.errors && Object.keys(res.error.errors).length) setErrors(res.error.errors);
      else setProblem(res.error.message);
      return;
    }
    toast('Заявка на вывод отправлена', { type: 'success' });
    setAmount('');
    if (method !== 'yoomoney') setDestination('');
    onDone();
  }

  const cardErrors = [...(errors.card ?? []), ...(errors.payout_token ?? []), ...(errors['card.first6'] ?? []), ...(errors['card.last4'] ?? [])];
  return (
    <form className="form form--card fin-withdraw" onSubmit={submit} noValidate>
      <h2 className="fin-withdraw__title">Вывод средств</h2>
      {!emailConfirmed && <p className="notice">Чтобы выводить деньги, подтвердите email.</p>}
      <Field label="Способ">
        {(a11y) => (
          <select
            className="input"
            value={method}
            onChange={(e) => {
              setMethod(e.target.value as WithdrawMethod);
              setDestination(e.target.value === 'yoomoney' ? savedWalletOf(balance) : '');
              setErrors({});
            }}
            {...a11y}
          >
            <option value="card">Банковская карта</option>
            <option value="yoomoney">Кошелёк ЮMoney</option>
            <option value="usdt">USDT (TRC-20)</option>
            <option value="btc">Bitcoin</option>
          </select>
        )}
      </Field>
      {method === 'card' ? (
        <CardChoice widget={balance.card_widget} card={card} onCard={onCard} onOther={() => setCard(null)} errors={cardErrors} />
      ) : (
        <Field label={DESTINATION_HINTS[method].label} error={errors.destination}>
          {(a11y) => (
            <input
              className="input"
              value={destination}
              inputMode={method === 'yoomoney' ? 'numeric' : 'text'}
              autoComplete="off"
              placeholder={DESTINATION_HINTS[method].placeholder}
              maxLength={120}
              onChange={(e) => setDestination(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      )}
      <Field label="Сумма, руб." error={errors.amount} hint={withdrawHint(balance)}>
        {(a11y) => <input className="input" value={amount} inputMode="decimal" placeholder="500" onChange={(e) => setAmount(e.target.value)} {...a11y} />}
      </Field>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy || !emailConfirmed || (method === 'card' && !balance.card_widget && !card)}>
          {busy ? 'Отправка…' : 'Вывести'}
        </button>
      </div>
    </form>
  );
}

/** The card: the one chosen («Карта 220220 •• 1234», «Другая карта»), or the widget to enter one. */
function CardChoice({
  widget,
  card,
  onCard,
  onOther,
  errors,
}: {
  widget: FinanceBalance['card_widget'];
  card: WidgetCard | null;
  onCard: (card: WidgetCard) => void;
  onOther: () => void;
  errors: string[];
}) {
  const error = errors.length ? (
    <p className="form-error" role="alert">
      {errors[0]}
    </p>
  ) : null;
  if (card) {
    return (
      <div className="fin-card-chosen">
        <p className="fin-card-chosen__label" data-testid="payout-card">
          {cardLabel(card)}
          {card.card_type ? <span className="muted"> · {card.card_type}</span> : null}
        </p>
        {widget && (
          <button type="button" className="btn btn--quiet btn--sm" onClick={onOther}>
            Другая карта
          </button>
        )}
        {error}
      </div>
    );
  }
  if (!widget) return <p className="notice">Вывод на карту сейчас недоступен — выберите другой способ.</p>;
  return (
    <div className="fin-card-entry">
      <p className="fin-card-entry__label">Карта для вывода</p>
      <CardWidget widget={widget} onCard={onCard} />
      {error}
    </div>
  );
}
