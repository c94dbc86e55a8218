import { useMemo } from 'react';
import type { Dashboard, DashboardPeriod } from '#contract/dashboard';
import { DASHBOARD_PERIODS } from '#contract/dashboard';
import { ORDER_STATUS_LABELS } from '#contract/order-constants';
import { AppLink } from '../../components/ui/app-link.tsx';
import { TimeChart, type ChartSeries } from './chart.tsx';
import { count, ordersWord, paidOrdersWord, percent, rubles, viewsWord } from './format.ts';
import { PERIOD_SPANS, statusBarWidths, summaryOf } from './chart-data.ts';

// /profile/dashboard: the person's figures of a period, as a seller or as a customer (their active role).

export const PERIOD_LABELS: Record<DashboardPeriod, string> = { '7': '7 дней', '30': '30 дней', '90': '90 дней', '365': 'Год' };

const COLORS = { money: '#4f46e5', orders: '#0ea5e9', views: '#16a34a' } as const;

export function PeriodSwitch({ period }: { period: DashboardPeriod }) {
  return (
    <nav className="tabs dash-periods" aria-label="Период">
      <ul>
        {DASHBOARD_PERIODS.map((p) => (
          <li key={p}>
            <AppLink to={`?period=${p}`} className="tabs__link" aria-current={p === period ? 'page' : undefined} preventScrollReset>
              {PERIOD_LABELS[p]}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function DashboardView({ data, period }: { data: Dashboard; period: DashboardPeriod }) {
  const seller = data.role === 'seller';
  const span = PERIOD_SPANS[period];
  const days = useMemo(() => data.days.map((d) => d.day), [data]);
  const money = useMemo<ChartSeries[]>(
    () => [{ label: seller ? 'Заработок' : 'Расходы', values: data.days.map((d) => d.amount), color: COLORS.money, kind: 'bars', format: rubles }],
    [data, seller],
  );
  const orders = useMemo<ChartSeries[]>(
    () => [{ label: 'Заказы', values: data.days.map((d) => d.orders), color: COLORS.orders, kind: 'bars', format: count }],
    [data],
  );
  const views = useMemo<ChartSeries[]>(
    () => [{ label: 'Просмотры', values: data.days.map((d) => d.views), color: COLORS.views, kind: 'line', format: count }],
    [data],
  );
  const { totals } = data;

  return (
    <>
      <dl className="dash-totals">
        <div className="card dash-total">
          <dt>{seller ? 'Заработано' : 'Потрачено'}</dt>
          <dd data-testid="dash-total-amount">{rubles(totals.amount)}</dd>
        </div>
        <div className="card dash-total">
          <dt>Заказов</dt>
          <dd>{count(totals.orders)}</dd>
        </div>
        {seller && (
          <>
            <div className="card dash-total">
              <dt>Просмотров услуг</dt>
              <dd>{count(totals.views)}</dd>
            </div>
            <div className="card dash-total">
              <dt>Конверсия</dt>
              <dd>{totals.conversion === null ? '—' : percent(totals.conversion)}</dd>
              <dd className="dash-total__hint">
                {count(totals.service_orders)} {paidOrdersWord(totals.service_orders)} со страниц услуг на {count(totals.views)} {viewsWord(totals.views)}
              </dd>
            </div>
          </>
        )}
      </dl>

      <div className="dash-charts">
        <TimeChart
          key={`money-${period}`}
          testId="dash-chart-money"
          title={seller ? 'Заработок по дням' : 'Расходы по дням'}
          summary={summaryOf(data.days, (d) => d.amount, rubles, seller ? `заработано ${span}` : `потрачено ${span}`, seller ? `Заработка ${span} нет.` : `Расходов ${span} нет.`)}
          days={days}
          series={money}
        />
        <TimeChart
          key={`orders-${period}`}
          testId="dash-chart-orders"
          title="Заказы по дням"
          summary={summaryOf(data.days, (d) => d.orders, (n) => `${count(n)} ${ordersWord(n)}`, span, `Заказов ${span} нет.`)}
          days={days}
          series={orders}
        />
        {seller && (
          <TimeChart
            key={`views-${period}`}
            testId="dash-chart-views"
            title="Просмотры услуг по дням"
            summary={summaryOf(data.days, (d) => d.views, (n) => `${count(n)} ${viewsWord(n)}`, span, `Просмотров ${span} нет.`)}
            days={days}
            series={views}
          />
        )}
        <section className="card dash-status" aria-labelledby="dash-status-title">
          <h2 id="dash-status-title" className="dash-chart__title">
            Заказы по состоянию
          </h2>
          <p className="dash-chart__summary">Заказы, сделанные {span}, по их состоянию сейчас.</p>
          {data.by_status.length ? (
            <ul className="dash-status__list">
              {statusBarWidths(data.by_status).map((s) => (
                <li key={s.status} className="dash-status__row">
                  <span className="dash-status__label">{ORDER_STATUS_LABELS[s.status]}</span>
                  <span className="dash-status__bar" aria-hidden="true">
                    <span style={{ width: s.width }} />
                  </span>
                  <span className="dash-status__count">{count(s.count)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Заказов {span} нет.</p>
          )}
          <AppLink to={`/profile/orders?role=${seller ? 'selling' : 'buying'}`} className="dash-status__more">
            Все заказы
          </AppLink>
        </section>
      </div>
    </>
  );
}
