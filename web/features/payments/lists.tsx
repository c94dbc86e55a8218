import type { Payment, Withdrawal } from '#contract/payments';
import { formatCurrency, formatRubles } from '#contract/money-format';
import { TOP_UP_TITLE } from '#contract/payment-constants';
import { AppLink } from '../../components/ui/app-link.tsx';
import { METHOD_LABELS, PAYMENT_STATUS_LABELS, WITHDRAWAL_STATUS_LABELS, statusTone } from './labels.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// The payments and withdrawals tables (/profile/payments, /admin/payments); cards below 900 px.

/** Where a card payment's refund inside its safe deal stands (ADR 051). */
/** A payment's order: a stage by its head's number and itself (ADR 065), a whole order by its number and title. */
const paymentOrderText = (o: NonNullable<Payment['order']>) => (o.stage ? o.label : `№${o.number} ${o.title}`);

const REFUND_LABELS: Record<NonNullable<Payment['refund']>['status'], string> = {
  succeeded: 'Возвращено на карту',
  pending: 'Возвращается на карту',
  refused: 'Возврат на карту не прошёл — зачислено на баланс',
};

export function PaymentsTable({
  payments,
  admin = false,
  provider,
}: {
  payments: Payment[];
  admin?: boolean;
  /** The admin's «У провайдера» cell: the provider's id and its state there. */
  provider?: (p: Payment) => React.ReactNode;
}) {
  if (!payments.length) return <p className="page__empty">Платежей пока нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Дата</th>
          <th>Заказ</th>
          {admin && <th>Покупатель</th>}
          <th>Способ</th>
          <th>Сумма</th>
          <th>Статус</th>
          {provider && <th>У провайдера</th>}
        </tr>
      </thead>
      <tbody>
        {payments.map((p) => (
          <tr key={p._id}>
            <DateCell label="Дата" date={p.created_at} />
            <td data-label="Заказ">
              {!p.order ? (
                TOP_UP_TITLE
              ) : admin ? (
                paymentOrderText(p.order)
              ) : (
                <AppLink to={`/payments/${p.order._id}`}>{paymentOrderText(p.order)}</AppLink>
              )}
            </td>
            {admin && <PersonCell label="Покупатель" person={p.customer} />}
            <td data-label="Способ">{METHOD_LABELS[p.method]}</td>
            <td data-label="Сумма">
              {formatRubles(p.amount)}
              {p.currency !== 'RUB' && <span className="muted"> · {formatCurrency(p.currency_amount, p.currency)}</span>}
            </td>
            <td data-label="Статус">
              <span className={statusTone(p.status)}>{PAYMENT_STATUS_LABELS[p.status]}</span>
              {p.refund && (
                <span className="muted fin-refund">
                  {' '}
                  · {REFUND_LABELS[p.refund.status]}: {formatRubles(p.refund.amount)}
                </span>
              )}
            </td>
            {provider && (
              <td data-label="У провайдера" className="fin-destination">
                {provider(p)}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The admin's cell of who paid or withdraws: the name, and under it the email, which may break before its "@". */
function PersonCell({ label, person }: { label: string; person?: { name: string; email?: string } }) {
  const email = person?.email ?? '';
  const at = email.lastIndexOf('@');
  return (
    <td data-label={label} className="fin-person">
      {person?.name}
      {email && (
        <span className="fin-person__email muted">
          {at > 0 ? (
            <>
              {email.slice(0, at)}
              <wbr />
              {email.slice(at)}
            </>
          ) : (
            email
          )}
        </span>
      )}
    </td>
  );
}

export function WithdrawalsTable({
  withdrawals,
  actions,
}: {
  withdrawals: Withdrawal[];
  /** The admin's buttons of a pending request. */
  actions?: (w: Withdrawal) => React.ReactNode;
}) {
  if (!withdrawals.length) return <p className="page__empty">Заявок на вывод нет.</p>;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Дата</th>
          {actions && <th>Пользователь</th>}
          <th>Сумма</th>
          <th>Куда</th>
          <th>Статус</th>
          {actions && <th>Действия</th>}
        </tr>
      </thead>
      <tbody>
        {withdrawals.map((w) => (
          <tr key={w._id}>
            <DateCell label="Дата" date={w.created_at} />
            {actions && <PersonCell label="Пользователь" person={w.user} />}
            <td data-label="Сумма">{formatRubles(w.amount)}</td>
            <td data-label="Куда" className="fin-destination">
              {w.status === 'awaiting_details' ? (
                'Реквизиты не указаны'
              ) : (
                <>
                  {METHOD_LABELS[w.method]}: {w.method === 'card' ? <span className="fin-card-mask">{w.destination}</span> : w.destination}
                  {w.card_type ? ` (${w.card_type})` : ''}
                </>
              )}
              {w.order_number !== null && <span className="muted"> · оплата заказа №{w.order_number}</span>}
            </td>
            <td data-label="Статус">
              <span className={statusTone(w.status)}>{WITHDRAWAL_STATUS_LABELS[w.status]}</span>
              {w.reject_reason && <span className="muted"> — {w.reject_reason}</span>}
            </td>
            {actions && <td data-label="Действия">{w.status === 'pending' ? actions(w) : '—'}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
