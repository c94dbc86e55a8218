import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Dashboard } from '#contract/dashboard';
import { DashboardView, PERIOD_LABELS, PeriodSwitch } from './dashboard-view.tsx';

const _ = '\u00a0';
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>).replace(/<!-- -->/g, '');

const data = (over: Partial<Dashboard> = {}): Dashboard => ({
  role: 'seller',
  period: 7,
  from: '2026-11-18',
  to: '2026-11-24',
  days: [
    { day: '2026-11-23', amount: 382_500, orders: 1, views: 40 },
    { day: '2026-11-24', amount: 0, orders: 2, views: 10 },
  ],
  totals: { amount: 382_500, orders: 3, views: 50, service_orders: 2, conversion: 0.04 },
  by_status: [
    { status: 'completed', count: 1 },
    { status: 'in_progress', count: 2 },
  ],
  ...over,
});

describe('DashboardView', () => {
  it('gives a seller the earnings, views and conversion with their counts', () => {
    const html = render(<DashboardView data={data()} period="7" />);
    expect(html).toContain(`<dt>Заработано</dt><dd data-testid="dash-total-amount">3${_}825${_}руб.</dd>`);
    expect(html).toContain('<dt>Конверсия</dt><dd>4' + `${_}%</dd>`);
    expect(html).toContain('2 оплаченных заказа со страниц услуг на 50 просмотров');
    expect(html).toContain('data-testid="dash-chart-views"');
    expect(html).toContain(`3${_}825${_}руб. заработано за 7 дней; больше всего — 3${_}825${_}руб., 23 ноября.`);
    expect(html).toContain('href="/profile/orders?role=selling"');
  });

  it('gives a customer the spending and orders only, and a dash for a conversion without views', () => {
    const html = render(<DashboardView data={data({ role: 'customer', totals: { amount: 0, orders: 0, views: 0, service_orders: 0, conversion: null } })} period="30" />);
    expect(html).toContain('<dt>Потрачено</dt>');
    expect(html).not.toContain('Конверсия');
    expect(html).not.toContain('dash-chart-views');
    expect(html).toContain('Расходы по дням');
    expect(html).toContain('href="/profile/orders?role=buying"');
  });

  it('draws each state’s bar against the largest, and says when there were no orders', () => {
    const html = render(<DashboardView data={data()} period="7" />);
    expect(html).toContain('<span class="dash-status__label">Завершён</span><span class="dash-status__bar" aria-hidden="true"><span style="width:50%"></span>');
    expect(html).toContain('<span class="dash-status__label">В работе</span><span class="dash-status__bar" aria-hidden="true"><span style="width:100%"></span>');
    expect(render(<DashboardView data={data({ by_status: [] })} period="365" />)).toContain('<p class="muted">Заказов за год нет.</p>');
  });
});

describe('PeriodSwitch', () => {
  it('links every period, marking the current one', () => {
    const html = render(<PeriodSwitch period="30" />);
    for (const p of ['7', '30', '90', '365'] as const) expect(html).toContain(`href="/?period=${p}"`);
    expect(html.match(/aria-current="page"/g)).toHaveLength(1);
    expect(html).toMatch(/aria-current="page"[^>]*>30 дней</);
    expect(Object.values(PERIOD_LABELS)).toEqual(['7 дней', '30 дней', '90 дней', 'Год']);
  });
});
