import { useState, type FormEvent } from 'react';
import type { FinanceBalance, FinanceEntry } from '#contract/payments';
import { FINANCE_KIND_TITLES } from '#contract/payment-constants';
import { formatRubles } from '#contract/money-format';
import { api } from '../../lib/api.ts';
import { formatDate } from '../../lib/dates.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Field } from '../../components/ui/form.tsx';
import { DESTINATION_HINTS } from './labels.ts';
import { ShowMore } from '../../components/ui/show-more.tsx';
import {
  checkWithdraw,
  commissionText,
  DIRECTION_CLASSES,
  entryAmountText,
  entryBalanceText,
  heldNote,
  withdrawHint,
  type WithdrawMethod,
} from './withdraw-rules.ts';

// /profile/finance: the balances, every movement with the balance after it, and the withdraw form.

export function Balances({ balance }: { balance: FinanceBalance }) {
  return (
    <div className="fin-balances">
      <div className="card fin-balance">
        <p className="fin-balance__label">Доступно</p>
        <p className="fin-balance__value" data-testid="balance-available">
          {formatRubles(balance.available)}
        </p>
      </div>
      <div className="card fin-balance">
        <p className="fin-balance__label">На выводе</p>
        <p className="fin-balance__value">{formatRubles(balance.held)}</p>
      </div>
    </div>
  );
}

export function EntriesTable({ entries, next, onMore }: { entries: FinanceEntry[]; next: string | null; onMore: () => void }) {
  if (!entries.length) return <p className="page__empty">Движений по балансу пока нет.</p>;
  return (
    <>
      <table className="table fin-entries">
        <thead>
          <tr>
            <th>Дата</th>
            <th>Операция</th>
            <th>Сумма</th>
            <th>Баланс после</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.seq}>
              <td data-label="Дата">{formatDate(e.created_at)}</td>
              <td data-label="Операция">
                {FINANCE_KIND_TITLES[e.kind]}
                {heldNote(e) && <span className="muted"> ({heldNote(e)})</span>}
                {e.order && (
                  <>
                    {' · '}
                    <AppLink to={`/payments/${e.order._id}`}>
                      Заказ №{e.order.number}
                    </AppLink>
                  </>
                )}
                {e.settlement && <Settlement {...e.settlement} />}
              </td>
              <td data-label="Сумма" className={DIRECTION_CLASSES[e.direction]}>
                {entryAmountText(e)}
              </td>
              <td data-label="Баланс после">{entryBalanceText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next && (
        <ShowMore onClick={onMore} />
      )}
    </>
  );
}

/** The seller's payment for an order, as the ledger settled it: price, the service's commission, what they got. */
function Settlement({ price, commission, net }: NonNullable<FinanceEntry['settlement']>) {
  return (
    <dl className="fin-settlement" data-testid="fin-settlement">
      <div>
        <dt>Цена заказа</dt>
        <dd>{formatRubles(price)}</dd>
      </div>
      <div>
        <dt>Комиссия сервиса</dt>
        <dd>{commissionText(commission)}</dd>
      </div>
      <div>
        <dt>Вам</dt>
        <dd>{formatRubles(net)}</dd>
      </div>
    </dl>
  );
}

export function WithdrawForm({ balance, emailConfirmed, onDone }: { balance: FinanceBalance; emailConfirmed: boolean; onDone: () => void }) {
  const [method, setMethod] = useState<WithdrawMethod>('card');
  const [destination, setDestination] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hint = DESTINATION_HINTS[method];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { kopecks, errors: local } = checkWithdraw({ amount, destination }, balance);
    setErrors(local);
    setProblem(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await api.write('withdrawals.create', { body: { amount: kopecks, method, destination } });
    setBusy(false);
    if (res.error) {
      if (res.error.errors && Object.keys(res.error.errors).length) setErrors(res.error.errors);
      else setProblem(res.error.message);
      return;
    }
    toast('Заявка на вывод отправлена', { type: 'success' });
    setAmount('');
    setDestination('');
    onDone();
  }

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
              setErrors({});
            }}
            {...a11y}
          >
            <option value="card">Банковская карта</option>
            <option value="usdt">USDT (TRC-20)</option>
            <option value="btc">Bitcoin</option>
          </select>
        )}
      </Field>
      <Field label={hint.label} error={errors.destination}>
        {(a11y) => (
          <input
            className="input"
            value={destination}
            inputMode={method === 'card' ? 'numeric' : 'text'}
            autoComplete="off"
            placeholder={hint.placeholder}
            maxLength={120}
            onChange={(e) => setDestination(e.target.value)}
            {...a11y}
          />
        )}
      </Field>
      <Field label="Сумма, руб." error={errors.amount} hint={withdrawHint(balance)}>
        {(a11y) => <input className="input" value={amount} inputMode="decimal" placeholder="500" onChange={(e) => setAmount(e.target.value)} {...a11y} />}
      </Field>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy || !emailConfirmed}>
          {busy ? 'Отправка…' : 'Вывести'}
        </button>
      </div>
    </form>
  );
}
