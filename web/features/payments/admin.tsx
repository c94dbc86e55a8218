import { useState, type FormEvent } from 'react';
import type { ApiError } from '#contract/api';
import type { PaymentRates, Withdrawal } from '#contract/payments';
import { rubles } from '#contract/payment-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Modal } from '../items/index.ts';
import { WithdrawalsTable } from './lists.tsx';

// /admin/payments: withdrawals to decide; the editor of the ways to pay, which /admin/settings shows.

export function AdminWithdrawals({ withdrawals, onChanged }: { withdrawals: Withdrawal[]; onChanged: () => void }) {
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function approve(w: Withdrawal) {
    setBusy(w._id);
    const res = await api.write('admin.withdrawals.approve', { params: { id: w._id } });
    setBusy(null);
    if (res.error) return void toast(res.error.message);
    toast(`Вывод ${rubles(w.amount)} одобрен`, { type: 'success' });
    onChanged();
  }

  async function reject(reason: string): Promise<ApiError | undefined> {
    if (!rejecting) return;
    const res = await api.write('admin.withdrawals.reject', { params: { id: rejecting._id }, body: { reason } });
    if (res.error) return res.error;
    toast('Заявка отклонена, деньги вернулись на баланс', { type: 'success' });
    setRejecting(null);
    onChanged();
  }

  return (
    <>
      <WithdrawalsTable
        withdrawals={withdrawals}
        actions={(w) => (
          <span className="fin-actions">
            <button type="button" className="btn btn--primary btn--sm" disabled={busy === w._id} onClick={() => approve(w)}>
              Одобрить
            </button>
            <button type="button" className="btn btn--ghost btn--sm" disabled={busy === w._id} onClick={() => setRejecting(w)}>
              Отклонить
            </button>
          </span>
        )}
      />
      <Modal open={rejecting !== null} title="Отклонить вывод" onClose={() => setRejecting(null)}>
        {rejecting && <RejectForm amount={rejecting.amount} onConfirm={reject} onClose={() => setRejecting(null)} />}
      </Modal>
    </>
  );
}

function RejectForm({ amount, onConfirm, onClose }: { amount: number; onConfirm: (reason: string) => Promise<ApiError | undefined>; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reason.trim().length < 3) return setError('Укажите причину отказа');
    setBusy(true);
    const problem = await onConfirm(reason.trim());
    setBusy(false);
    if (problem) setError(problem.errors?.reason?.[0] ?? problem.message);
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="modal__text">{rubles(amount)} вернутся на баланс пользователя, причину он получит в письме.</p>
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label className="field__label" htmlFor="reject-reason">
          Причина
        </label>
        <textarea
          id="reject-reason"
          className="input input--area"
          value={reason}
          maxLength={500}
          autoFocus
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          placeholder="Например: реквизиты принадлежат другому человеку"
        />
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>
          Отмена
        </button>
        <button type="submit" className="btn btn--danger" disabled={busy}>
          Отклонить
        </button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The ways to pay (setting payments.methods): fee in %, limits in rubles (stored in kopecks). The editor of
// /admin/settings (web/features/admin), kept here beside the payments it configures.

export type MethodDraft = { title: string; currency: string; fee: string; min: string; max: string };
export type MethodDrafts = Record<string, MethodDraft>;

const kopecksOf = (text: string): number => {
  const n = Number(text.replace(',', '.').trim());
  return text.trim() === '' || !Number.isFinite(n) ? Number.NaN : Math.round(n * 100);
};

/** The editor's rows from the stored methods. */
export const methodDrafts = (rates: PaymentRates): MethodDrafts =>
  Object.fromEntries(
    Object.entries(rates).map(([k, m]) => [k, { title: m.title, currency: m.currency, fee: String(m.fee), min: String(m.min / 100), max: String(m.max / 100) }]),
  );

/** The methods to store from the editor's rows, and the rows' own errors (keyed `payments.methods.<key>`). */
export function methodsFromDrafts(drafts: MethodDrafts): { rates: PaymentRates; errors: Record<string, string[]> } {
  const rates: PaymentRates = {};
  const errors: Record<string, string[]> = {};
  for (const [key, m] of Object.entries(drafts)) {
    const fee = Number(m.fee.replace(',', '.'));
    const min = kopecksOf(m.min);
    const max = kopecksOf(m.max);
    if (m.fee.trim() === '' || !Number.isFinite(fee) || Number.isNaN(min) || Number.isNaN(max)) errors[`payments.methods.${key}`] = ['Введите числа'];
    else if (min > max) errors[`payments.methods.${key}`] = ['Минимум больше максимума'];
    rates[key] = { title: m.title, currency: m.currency as 'RUB', fee, min, max };
  }
  return { rates, errors };
}

export function PaymentMethodsEditor({
  drafts,
  onChange,
  errorOf,
}: {
  drafts: MethodDrafts;
  onChange: (drafts: MethodDrafts) => void;
  errorOf: (key: string) => string | undefined;
}) {
  return (
    <table className="table money-methods">
      <thead>
        <tr>
          <th>Способ</th>
          <th>Комиссия, %</th>
          <th>Минимум заказа, руб.</th>
          <th>Максимум заказа, руб.</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(drafts).map(([key, m]) => {
          const error = errorOf(`payments.methods.${key}`) ?? errorOf('payments.methods');
          const set = (field: keyof MethodDraft) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...drafts, [key]: { ...drafts[key]!, [field]: e.target.value } });
          return (
            <tr key={key}>
              <td data-label="Способ">
                {m.title} <span className="muted">({m.currency})</span>
                {error && <p className="field__error">{error}</p>}
              </td>
              <td data-label="Комиссия, %">
                <input className="input" inputMode="decimal" aria-label={`${m.title}: комиссия, %`} value={m.fee} onChange={set('fee')} />
              </td>
              <td data-label="Минимум, руб.">
                <input className="input" inputMode="decimal" aria-label={`${m.title}: минимум, руб.`} value={m.min} onChange={set('min')} />
              </td>
              <td data-label="Максимум, руб.">
                <input className="input" inputMode="decimal" aria-label={`${m.title}: максимум, руб.`} value={m.max} onChange={set('max')} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
