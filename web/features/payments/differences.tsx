import { useState } from 'react';
import type { Payment } from '#contract/payments';
import type { PaymentStatus, WithdrawalStatus } from '#contract/money';
import { formatCurrency } from '#contract/money-format';
import { PAYMENT_STATUS_LABELS, WITHDRAWAL_STATUS_LABELS } from './labels.ts';
import { DIFFERENCE_TEXTS, type PaymentDifference, type ProviderViewAnswer } from '#contract/payment-differences';
import { formatDate } from '../../lib/dates.ts';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Modal } from '../../components/ui/dialog.tsx';
import { NoteForm } from '../../components/ui/note-form.tsx';

// /admin/payments: what the daily reconciliation with the providers found (issue 27), each with what to do, and a
// payment's state in its provider's own words.

const PROVIDER_NAMES: Record<string, string> = { yookassa: 'ЮKassa', btcpay: 'BTCPay Server', sandbox: 'Песочница' };
const providerName = (name: string) => PROVIDER_NAMES[name] ?? name;

/** BTCPay's states of a payout, in ours. */
const PAYOUT_STATE: Record<string, string> = { AwaitingApproval: 'ждёт одобрения', AwaitingPayment: 'ждёт отправки', InProgress: 'отправляется', Completed: 'выполнена', Cancelled: 'отменена' };
/** A provider's word for a payment, in ours. */
const PROVIDER_STATUS: Record<string, string> = { pending: 'ожидает оплаты', succeeded: 'оплачен', failed: 'не оплачен' };
const ours = (status: unknown) => (PAYMENT_STATUS_LABELS[status as PaymentStatus] ?? String(status)).toLowerCase();
const money = (minor: unknown, currency: unknown) =>
  typeof minor === 'number' && (currency === 'RUB' || currency === 'USDT' || currency === 'BTC') ? formatCurrency(minor, currency) : '—';

/** The two sides as found, in words: «у провайдера: оплачен, 1 500 руб.; у нас: ожидает оплаты, получено —». */
function sides(d: PaymentDifference): string {
  const x = d.details;
  const parts: string[] = [];
  if (x.provider_state !== undefined) {
    // A payout: its state at the provider, and our withdrawal's.
    parts.push(`выплата у провайдера: ${PAYOUT_STATE[String(x.provider_state)] ?? String(x.provider_state)}, ${money(x.provider_amount, x.provider_currency)}`);
    if (x.our_status !== undefined) parts.push(`вывод у нас: ${(WITHDRAWAL_STATUS_LABELS[x.our_status as WithdrawalStatus] ?? String(x.our_status)).toLowerCase()}`);
    return parts.join('; ');
  }
  if (x.provider_status !== undefined) parts.push(`у провайдера: ${PROVIDER_STATUS[String(x.provider_status)] ?? String(x.provider_status)}, ${money(x.provider_amount, x.provider_currency ?? x.currency)}`);
  if (x.our_status !== undefined) parts.push(`у нас: ${ours(x.our_status)}, получено ${x.our_received === null ? '—' : money(x.our_received, x.currency)}`);
  if (x.ledger_kopecks !== undefined) parts.push(`в учёте ${money(x.ledger_kopecks, 'RUB')} вместо ${money(x.expected_kopecks, 'RUB')}`);
  return parts.join('; ');
}

export function PaymentDifferences({ differences, onChanged }: { differences: PaymentDifference[]; onChanged: () => void }) {
  const [resolving, setResolving] = useState<PaymentDifference | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const open = differences.filter((d) => !d.resolved_at);
  const done = differences.filter((d) => d.resolved_at);

  async function apply(d: PaymentDifference) {
    setBusy(d._id);
    const res = await api.write('admin.payments.applyDifference', { params: { id: d._id } });
    setBusy(null);
    if (res.error) return void toast(res.error.message);
    toast('Результат провайдера применён, расхождение решено', { type: 'success' });
    onChanged();
  }

  return (
    <>
      <h2 className="finance__subtitle">Расхождения с платёжными системами</h2>
      {!open.length && <p className="page__empty">Расхождений нет: платежи у провайдеров сходятся с нашими и с учётом.</p>}
      {open.length > 0 && (
        <ul className="fin-differences">
          {open.map((d) => (
            <li key={d._id} className={`fin-difference${DIFFERENCE_TEXTS[d.kind].serious ? ' fin-difference--serious' : ''}`}>
              <p className="fin-difference__title">
                <strong>{DIFFERENCE_TEXTS[d.kind].title}</strong>
                <span className="muted">
                  {' '}
                  · {providerName(d.provider)} · за {d.day} · № у провайдера <code>{d.provider_ref}</code>
                </span>
              </p>
              {sides(d) && <p className="muted">{sides(d)}</p>}
              <p>
                <strong>Что делать: </strong>
                {DIFFERENCE_TEXTS[d.kind].todo}
              </p>
              <span className="fin-actions">
                {d.can_apply && (
                  <button type="button" className="btn btn--primary btn--sm" disabled={busy === d._id} onClick={() => void apply(d)}>
                    Применить результат провайдера
                  </button>
                )}
                <button type="button" className="btn btn--ghost btn--sm" disabled={busy === d._id} onClick={() => setResolving(d)}>
                  Отметить решённым
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {done.length > 0 && (
        <details className="fin-differences__done">
          <summary>Решённые ({done.length})</summary>
          <ul className="fin-differences">
            {done.map((d) => (
              <li key={d._id} className="fin-difference">
                {DIFFERENCE_TEXTS[d.kind].title} · {providerName(d.provider)} · <code>{d.provider_ref}</code> — {formatDate(d.resolved_at!)}: {d.resolution}
              </li>
            ))}
          </ul>
        </details>
      )}
      <Modal open={resolving !== null} title="Отметить решённым" onClose={() => setResolving(null)}>
        {resolving && (
          <NoteForm
            text={`${DIFFERENCE_TEXTS[resolving.kind].title}. Запись попадёт в журнал действий.`}
            label="Что сделано"
            placeholder="Например: проверено в кабинете ЮKassa, деньги возвращены покупателю"
            maxLength={1000}
            confirmLabel="Отметить решённым"
            tone="primary"
            check={(note) => (note.trim().length < 3 ? 'Опишите, что сделано (от 3 символов)' : null)}
            onConfirm={async (note) => {
              const res = await api.write('admin.payments.resolveDifference', { params: { id: resolving._id }, body: { note } });
              if (res.error) return res.error.errors?.note?.[0] ?? res.error.message;
              toast('Расхождение отмечено решённым', { type: 'success' });
              setResolving(null);
              onChanged();
              return null;
            }}
            onClose={() => setResolving(null)}
          />
        )}
      </Modal>
    </>
  );
}


/** A payment's provider id, and «Состояние у провайдера»: its status in the provider's own words, asked now. */
export function ProviderState({ payment }: { payment: Payment }) {
  const [view, setView] = useState<ProviderViewAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  if (!payment.provider) return <>—</>;
  async function ask() {
    setBusy(true);
    try {
      setView((await api.read('admin.payments.provider', { params: { id: payment._id } }, { fresh: true })).result);
    } catch (err) {
      toast((err as { message?: string }).message ?? 'Не удалось спросить провайдера');
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      {providerName(payment.provider)}
      {payment.provider_ref && (
        <>
          : <code>{payment.provider_ref}</code>
        </>
      )}{' '}
      {view ? (
        <span className="muted">
          — {view.status}, {view.amount} {view.currency}
        </span>
      ) : (
        <button type="button" className="btn btn--quiet btn--sm" disabled={busy} onClick={() => void ask()}>
          Состояние у провайдера
        </button>
      )}
    </>
  );
}
