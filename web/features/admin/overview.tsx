import { useMemo } from 'react';
import type { Overview, OverviewPeriod } from '#contract/admin';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';
import type { OrderStatus } from '#contract/money';
import { AppLink } from '../../components/ui/app-link.tsx';
import { count, PERIOD_LABELS, PeriodSwitch, rubles, TimeChart, type ChartSeries } from '../dashboard/index.ts';
import { moneySummary, ordersSummary, OVERVIEW_SPANS, statusBars, withdrawalsHint } from './overview-format.ts';

// The admin home (/admin, ADR 036): the marketplace at a glance over a period, each figure a link to its list.

const COLORS = { paid: '#4f46e5', revenue: '#16a34a', orders: '#0ea5e9' } as const;

function Figure({ label, value, to, hint, testId }: { label: string; value: string; to: string; hint?: string; testId?: string }) {
  return (
    <div className="card dash-total admin-figure">
      <dt>
        <AppLink to={to} className="admin-figure__link">
          {label}
        </AppLink>
      </dt>
      <dd data-testid={testId}>{value}</dd>
      {hint && <dd className="dash-total__hint">{hint}</dd>}
    </div>
  );
}

export function OverviewView({ data, period }: { data: Overview; period: OverviewPeriod }) {
  const span = OVERVIEW_SPANS[period];
  const days = useMemo(() => data.days.map((d) => d.day), [data]);
  const money = useMemo<ChartSeries[]>(
    () => [
      { label: 'Оплачено', values: data.days.map((d) => d.paid_in), color: COLORS.paid, kind: 'bars', format: rubles },
      { label: 'Доход площадки', values: data.days.map((d) => d.revenue), color: COLORS.revenue, kind: 'line', format: rubles },
    ],
    [data],
  );
  const orders = useMemo<ChartSeries[]>(() => [{ label: 'Заказы', values: data.days.map((d) => d.orders), color: COLORS.orders, kind: 'bars', format: count }], [data]);
  const { totals, waiting } = data;

  return (
    <>
      <PeriodSwitch period={period} />
      <h2 className="visually-hidden">Ждут решения</h2>
      <dl className="dash-totals" aria-label="Ждут решения">
        <Figure label="Открытые споры" value={count(waiting.disputes)} to="/admin/disputes" testId="admin-open-disputes" />
        <Figure
          label="Заявки на вывод"
          value={count(waiting.withdrawals)}
          hint={withdrawalsHint(waiting)}
          to="/admin/payments"
          testId="admin-waiting-withdrawals"
        />
        <Figure label="Услуги на модерации" value={count(waiting.services)} hint="Новые и изменённые" to="/admin/services" testId="admin-waiting-services" />
      </dl>
      <h2 className="visually-hidden">Итоги {span}</h2>
      <dl className="dash-totals" aria-label={`Итоги ${span}`}>
        <Figure label="Оплачено заказов" value={rubles(totals.paid_in)} hint={span} to="/admin/payments?w=pending&p=succeeded" testId="admin-paid-in" />
        <Figure label="Доход площадки" value={rubles(totals.revenue)} hint="Комиссия за вычетом реферальных" to="/admin/orders?status=completed" testId="admin-revenue" />
        <Figure label="Новые заказы" value={count(totals.orders)} hint={span} to="/admin/orders" testId="admin-orders" />
        <Figure label="Новые пользователи" value={count(totals.new_users)} hint={span} to="/admin/users" testId="admin-new-users" />
      </dl>

      <div className="dash-charts">
        <TimeChart
          key={`money-${period}`}
          testId="admin-chart-money"
          title="Оборот по дням"
          summary={moneySummary(data.days, totals, span)}
          days={days}
          series={money}
        />
        <TimeChart
          key={`orders-${period}`}
          testId="admin-chart-orders"
          title="Новые заказы по дням"
          summary={ordersSummary(totals.orders, span)}
          days={days}
          series={orders}
        />
        <section className="card dash-status" aria-labelledby="admin-status-title">
          <h2 id="admin-status-title" className="dash-chart__title">
            Заказы по состоянию
          </h2>
          <p className="dash-chart__summary">Все заказы площадки, по их состоянию сейчас.</p>
          <ul className="dash-status__list">
            {statusBars(data.orders_by_status).map((s) => (
              <li key={s.status} className="dash-status__row">
                <AppLink to={`/admin/orders?status=${s.status}`} className="dash-status__label">
                  {ORDER_STATUS_LABELS[s.status as OrderStatus] ?? s.status}
                </AppLink>
                <span className="dash-status__bar" aria-hidden="true">
                  <span style={{ width: s.width }} />
                </span>
                <span className="dash-status__count">{count(s.count)}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className="muted">Период: {PERIOD_LABELS[period].toLowerCase()}, дни — по московскому времени.</p>
    </>
  );
}
