import { useState, type FormEvent } from 'react';
import type { Payment, TopUpMethod } from '#contract/payments';
import { formatCurrency, formatRubles } from '#contract/money-format';
import { Field } from '../../components/ui/form.tsx';
import { formatDate } from '../../lib/dates.ts';
import { METHOD_LABELS, PAYMENT_STATUS_LABELS, statusTone } from './labels.ts';
import { newIdempotencyKey, topUpOnce } from './pay-request.ts';
import { typedRubles } from './withdraw-rules.ts';

// The finance page's «Пополнить баланс» (ADR 062): an amount and a way the operator's providers serve; the customer
// pays on the provider's page and comes back to /profile/finance, where the top-ups are listed with their state.
// Only the methods the server offers are shown: under ЮKassa's safe deal the card is not among them.

/** The form's own check: kopecks within the method's range, or the error to show. */
export function checkTopUp(amount: string, method: TopUpMethod | undefined): { kopecks: number; error: string | null } {
  const rub = typedRubles(amount);
  const kopecks = Math.round(rub * 100);
  if (!method) return { kopecks, error: 'Выберите способ' };
  if (!Number.isFinite(rub) || rub <= 0) return { kopecks, error: 'Укажите сумму' };
  if (kopecks < method.min) return { kopecks, error: `Этим способом можно пополнить баланс от ${formatRubles(method.min)}` };
  if (kopecks > method.max) return { kopecks, error: `Этим способом можно пополнить баланс до ${formatRubles(method.max)}` };
  return { kopecks, error: null };
}

export function TopUpForm({ methods }: { methods: TopUpMethod[] }) {
  const [method, setMethod] = useState(methods[0]?.method ?? 'card');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per attempt (amount and method): a retry after a lost answer is the same top-up, never a second one.
  const [attempt, setAttempt] = useState<{ of: string; key: string } | null>(null);
  if (!methods.length) return null;
  const chosen = methods.find((m) => m.method === method);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkTopUp(amount, chosen);
    setError(checked.error);
    setProblem(null);
    if (checked.error) return;
    const of = `${method}:${checked.kopecks}`;
    const key = attempt?.of === of ? attempt.key : newIdempotencyKey();
    setAttempt({ of, key });
    setBusy(true);
    const res = await topUpOnce({ amount: checked.kopecks, method }, key);
    if (res.error) {
      setBusy(false);
      if (res.error.errors?.amount?.length) setError(res.error.errors.amount[0]!);
      else setProblem(res.error.message);
      return;
    }
    window.location.assign(res.data.result.redirect_url);
  }

  const hint = chosen && `От ${formatRubles(chosen.min)} до ${formatRubles(chosen.max)}${chosen.fee_percent > 0 ? `, комиссия способа ${String(chosen.fee_percent).replace('.', ',')} % сверху` : ''}`;
  return (
    <form className="form form--card fin-withdraw fin-top-up" onSubmit={submit} noValidate aria-labelledby="top-up-title">
      <h2 className="fin-withdraw__title" id="top-up-title">
        Пополнить баланс
      </h2>
      <p className="muted fin-top-up__note">Деньги на балансе можно потратить на оплату заказов.</p>
      <Field label="Способ пополнения">
        {(a11y) => (
          <select
            className="input"
            value={method}
            onChange={(e) => {
              setMethod(e.target.value as TopUpMethod['method']);
              setError(null);
            }}
            {...a11y}
          >
            {methods.map((m) => (
              <option key={m.method} value={m.method}>
                {m.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Сумма пополнения, руб." error={error ? [error] : undefined} hint={hint}>
        {(a11y) => <input className="input" name="top-up-amount" value={amount} inputMode="decimal" placeholder="1000" onChange={(e) => setAmount(e.target.value)} {...a11y} />}
      </Field>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Переходим к оплате…' : 'Пополнить'}
        </button>
      </div>
    </form>
  );
}

/** The person's top-ups with their state (the newest first); the one just returned from is marked. */
export function TopUpsList({ topUps, current }: { topUps: Payment[]; current: string | null }) {
  if (!topUps.length) return null;
  return (
    <div className="fin-top-ups">
      <h2 className="finance__subtitle">Пополнения</h2>
      <ul className="fin-top-ups__list">
        {topUps.map((p) => (
          <li key={p._id} className={`card fin-top-ups__item${p._id === current ? ' fin-top-ups__item--current' : ''}`} data-testid="top-up">
            <span className="fin-top-ups__amount">{formatRubles(p.amount)}</span>
            <span className="muted">
              {METHOD_LABELS[p.method]}
              {p.currency !== 'RUB' && ` · ${formatCurrency(p.currency_amount, p.currency)}`} · {formatDate(p.created_at)}
            </span>
            <span className={statusTone(p.status)}>{p.status === 'succeeded' ? 'Зачислено' : PAYMENT_STATUS_LABELS[p.status]}</span>
            {p.failure_reason && <span className="muted fin-top-ups__reason">{p.failure_reason}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
