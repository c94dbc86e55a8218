import { useState, type FormEvent } from 'react';
import type { ApiError } from '#contract/api';
import type { PaymentRates, Withdrawal } from '#contract/payments';
import type { Settings } from '#contract/settings';
import { rubles } from '#contract/payment-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Modal } from '../items/index.ts';
import { WithdrawalsTable } from './lists.tsx';

// /admin/payments: withdrawals to decide, and the money settings (percentages shown in %, stored in basis points;
// money shown in rubles, stored in kopecks).

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

type Kind = 'percentBp' | 'rubles' | 'int';
const FIELDS: { key: keyof Settings; label: string; kind: Kind; unit?: string }[] = [
  { key: 'orders.commissionBp', label: 'Комиссия площадки', kind: 'percentBp', unit: '%' },
  { key: 'orders.autoAcceptDays', label: 'Автоприёмка через', kind: 'int', unit: 'дн.' },
  { key: 'orders.cancelWindowMinutes', label: 'Отмена без причины в течение', kind: 'int', unit: 'мин' },
  { key: 'withdrawals.minAmount', label: 'Минимальный вывод', kind: 'rubles', unit: 'руб.' },
  { key: 'payments.quoteMinutes', label: 'Курс крипто-оплаты держится', kind: 'int', unit: 'мин' },
  { key: 'bids.perDay', label: 'Откликов в день на исполнителя', kind: 'int' },
  { key: 'bids.minComment', label: 'Минимальная длина отклика', kind: 'int', unit: 'симв.' },
  { key: 'referrals.buyerBp', label: 'Реферальная награда за покупателя', kind: 'percentBp', unit: '%' },
  { key: 'referrals.sellerBp', label: 'Реферальная награда за исполнителя', kind: 'percentBp', unit: '%' },
  { key: 'referrals.months', label: 'Срок реферальных выплат', kind: 'int', unit: 'мес.' },
  { key: 'reviews.blindDays', label: 'Срок отзывов (скрыты до обоих или до конца срока)', kind: 'int', unit: 'дн.' },
  { key: 'reviews.ratingMonths', label: 'Рейтинг — среднее отзывов за', kind: 'int', unit: 'мес.' },
  { key: 'reviews.minText', label: 'Минимальная длина отзыва', kind: 'int', unit: 'симв.' },
  // The letter about unread chat messages (ADR 030).
  { key: 'notifications.unreadLetterDelayMinutes', label: 'Письмо о непрочитанных сообщениях через', kind: 'int', unit: 'мин' },
  { key: 'notifications.unreadLetterIntervalMinutes', label: 'Не чаще одного письма о чате в', kind: 'int', unit: 'мин' },
];

const shown = (kind: Kind, value: number) => (kind === 'percentBp' ? String(value / 100) : kind === 'rubles' ? String(value / 100) : String(value));
const stored = (kind: Kind, text: string): number => {
  const n = Number(text.replace(',', '.').trim());
  if (text.trim() === '' || !Number.isFinite(n)) return Number.NaN;
  return kind === 'int' ? n : Math.round(n * 100);
};

type MethodDraft = { title: string; currency: string; fee: string; min: string; max: string };

export function MoneySettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map((f) => [f.key, shown(f.kind, settings[f.key] as number)])),
  );
  const [methods, setMethods] = useState<Record<string, MethodDraft>>(() =>
    Object.fromEntries(
      Object.entries(settings['payments.methods']).map(([k, m]) => [k, { title: m.title, currency: m.currency, fee: String(m.fee), min: String(m.min / 100), max: String(m.max / 100) }]),
    ),
  );
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const local: Record<string, string[]> = {};
    const patch: Record<string, unknown> = {};
    for (const f of FIELDS) {
      const v = stored(f.kind, values[f.key] ?? '');
      if (Number.isNaN(v)) local[f.key] = ['Введите число'];
      else patch[f.key] = v;
    }
    const rates: PaymentRates = {};
    for (const [key, m] of Object.entries(methods)) {
      const fee = Number(m.fee.replace(',', '.'));
      const min = stored('rubles', m.min);
      const max = stored('rubles', m.max);
      if (!Number.isFinite(fee) || Number.isNaN(min) || Number.isNaN(max)) local[`payments.methods.${key}`] = ['Введите числа'];
      else if (min > max) local[`payments.methods.${key}`] = ['Минимум больше максимума'];
      rates[key] = { title: m.title, currency: m.currency as 'RUB', fee, min, max };
    }
    patch['payments.methods'] = rates;
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await api.write('admin.settings.update', { body: patch as never });
    setBusy(false);
    if (res.error) {
      setErrors(res.error.errors ?? { _: [res.error.message] });
      return;
    }
    toast('Настройки сохранены', { type: 'success' });
    onSaved(res.data.result);
  }

  const errorOf = (key: string) => Object.entries(errors).find(([k]) => k === key || k.startsWith(`${key}.`))?.[1]?.[0];

  return (
    <form className="form form--card money-settings" onSubmit={submit} noValidate>
      <div className="money-settings__grid">
        {FIELDS.map((f) => {
          const error = errorOf(f.key);
          return (
            <div key={f.key} className={`field${error ? ' field--invalid' : ''}`}>
              <label className="field__label" htmlFor={`set-${f.key}`}>
                {f.label}
                {f.unit ? `, ${f.unit}` : ''}
              </label>
              <input
                id={`set-${f.key}`}
                className="input"
                inputMode="decimal"
                value={values[f.key]}
                aria-invalid={error ? true : undefined}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
              />
              {error && <p className="field__error">{error}</p>}
            </div>
          );
        })}
      </div>
      <h3 className="money-settings__subtitle">Способы оплаты</h3>
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
          {Object.entries(methods).map(([key, m]) => {
            const error = errorOf(`payments.methods.${key}`) ?? errorOf('payments.methods');
            const set = (field: keyof MethodDraft) => (e: React.ChangeEvent<HTMLInputElement>) =>
              setMethods((all) => ({ ...all, [key]: { ...all[key]!, [field]: e.target.value } }));
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
      {errors._ && (
        <p className="form-error" role="alert">
          {errors._[0]}
        </p>
      )}
      <div className="form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Сохранение…' : 'Сохранить настройки'}
        </button>
      </div>
    </form>
  );
}
