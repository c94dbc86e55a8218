import type { FinanceBalance, FinanceEntry } from '#contract/payments';
import { FINANCE_KIND_TITLES, TOP_UP_TITLE } from '#contract/payment-constants';
import { formatRubles } from '#contract/money-format';
import { AppLink } from '../../components/ui/app-link.tsx';
import { ShowMore } from '../../components/ui/show-more.tsx';
import { commissionText, DIRECTION_CLASSES, entryAmountText, entryBalanceText, heldNote } from './withdraw-rules.ts';
import { DateCell } from '../../components/ui/date-cell.tsx';

// /profile/finance: the balances and every movement with the balance after it (the withdraw form: withdraw-form.tsx).

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
              <DateCell label="Дата" date={e.created_at} />
              <td data-label="Операция">
                {/* Money in that pays no order is a top-up of the balance (ADR 062). */}
                {e.kind === 'payment' && !e.order ? TOP_UP_TITLE : FINANCE_KIND_TITLES[e.kind]}
                {heldNote(e) && <span className="muted"> ({heldNote(e)})</span>}
                {e.order && (
                  <>
                    {' · '}
                    {/* A stage names its head's number and itself (ADR 065). */}
                    <AppLink to={`/payments/${e.order._id}`}>{e.order.stage ? e.order.label : `Заказ №${e.order.number}`}</AppLink>
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
