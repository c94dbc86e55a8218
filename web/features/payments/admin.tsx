import { useState } from 'react';
import type { ApiError } from '#contract/api';
import type { Withdrawal } from '#contract/payments';
import { formatRubles } from '#contract/money-format';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Modal } from '../../components/ui/dialog.tsx';
import { NoteForm } from '../../components/ui/note-form.tsx';
import { WithdrawalsTable } from './lists.tsx';
import type { MethodDraft, MethodDrafts } from './method-drafts.ts';
import { rejectReasonError } from './withdraw-rules.ts';

// /admin/payments: withdrawals to decide; the editor of the ways to pay, which /admin/settings shows.

export function AdminWithdrawals({ withdrawals, onChanged }: { withdrawals: Withdrawal[]; onChanged: () => void }) {
  const [rejecting, setRejecting] = useState<Withdrawal | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function approve(w: Withdrawal) {
    setBusy(w._id);
    const res = await api.write('admin.withdrawals.approve', { params: { id: w._id } });
    setBusy(null);
    if (res.error) return void toast(res.error.message);
    toast(`Вывод ${formatRubles(w.amount)} одобрен`, { type: 'success' });
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
        {rejecting && (
          <NoteForm
            text={`${formatRubles(rejecting.amount)} вернутся на баланс пользователя, причину он получит в письме.`}
            label="Причина"
            placeholder="Например: реквизиты принадлежат другому человеку"
            maxLength={500}
            confirmLabel="Отклонить"
            tone="danger"
            check={rejectReasonError}
            onConfirm={async (reason) => {
              const problem = await reject(reason);
              return problem ? (problem.errors?.reason?.[0] ?? problem.message) : null;
            }}
            onClose={() => setRejecting(null)}
          />
        )}
      </Modal>
    </>
  );
}

/**
 * The ways to pay (setting payments.methods): fee in %, limits in rubles. The editor of /admin/settings
 * (web/features/admin), kept here beside the payments it configures.
 */
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
