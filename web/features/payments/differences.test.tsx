import { describe, expect, it } from 'vitest';
import { formatCurrency } from '#contract/money-format';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Payment } from '#contract/payments';
import { DIFFERENCE_TEXTS, type PaymentDifference } from '#contract/payment-differences';
import { PaymentDifferences, ProviderState } from './differences.tsx';

const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>).replace(/<!-- -->/g, '');

const difference = (over: Partial<PaymentDifference> = {}): PaymentDifference => ({
  _id: 'd1',
  provider: 'yookassa',
  day: '2026-03-10',
  kind: 'unsettled',
  provider_ref: '2f-000f-5000',
  payment_id: 'p1',
  details: { provider_status: 'succeeded', provider_amount: 150_000, provider_currency: 'RUB', our_status: 'pending', our_received: null, currency: 'RUB' },
  can_apply: true,
  found_at: '2026-03-11T03:00:00.000Z',
  resolved_at: null,
  resolution: null,
  ...over,
});

describe('the reconciliation differences on /admin/payments', () => {
  it('say there are none when none is open', () => {
    const html = render(<PaymentDifferences differences={[]} onChanged={() => {}} />);
    expect(html).toContain('Расхождения с платёжными системами');
    expect(html).toContain('Расхождений нет');
  });

  it('say a payout’s two sides in words: its state at the provider and our withdrawal’s', () => {
    const payout = difference({
      kind: 'payout_unsettled',
      provider: 'btcpay',
      payment_id: null,
      details: { provider_state: 'Completed', provider_amount: 55_555, provider_currency: 'BTC', withdrawal_id: 'w1', our_status: 'sending' },
    });
    const html = render(<PaymentDifferences differences={[payout]} onChanged={() => {}} />);
    expect(html).toContain(`выплата у провайдера: выполнена, ${formatCurrency(55_555, 'BTC')}; вывод у нас: отправляется`);
    expect(html).toContain(DIFFERENCE_TEXTS.payout_unsettled.title);
    expect(html).toContain('Применить результат провайдера');
  });

  it('show each open one with the provider, its id, both sides, what to do and its actions', () => {
    const html = render(
      <PaymentDifferences
        differences={[difference(), difference({ _id: 'd2', kind: 'not_at_provider', can_apply: false, provider: 'btcpay' }), difference({ _id: 'd3', resolved_at: '2026-03-11T05:00:00.000Z', resolution: 'Проверено' })]}
        onChanged={() => {}}
      />,
    );
    expect(html).not.toContain('Расхождений нет');
    expect(html).toContain(DIFFERENCE_TEXTS.unsettled.title);
    expect(html).toContain(DIFFERENCE_TEXTS.unsettled.todo);
    expect(html).toContain('ЮKassa · за 2026-03-10 · № у провайдера <code>2f-000f-5000</code>');
    expect(html).toContain(`у провайдера: оплачен, ${formatCurrency(150_000, 'RUB')}; у нас: ожидает оплаты, получено —`);
    expect(html).toContain('fin-difference fin-difference--serious');
    // Only the one the provider's outcome can fix offers it; both can be resolved by hand.
    expect(html.match(/Применить результат провайдера<\/button>/g)).toHaveLength(1);
    expect(html.match(/Отметить решённым<\/button>/g)).toHaveLength(2);
    expect(html).toContain('Решённые (1)');
    expect(html).toContain('Проверено');
  });

  it('show a payment’s provider id with the button that asks the provider', () => {
    const payment = { _id: 'p1', provider: 'yookassa', provider_ref: '2f-000f' } as Payment;
    expect(render(<ProviderState payment={payment} />)).toBe('ЮKassa: <code>2f-000f</code> <button type="button" class="btn btn--quiet btn--sm">Состояние у провайдера</button>');
    expect(render(<ProviderState payment={{ ...payment, provider: null, provider_ref: null }} />)).toBe('—');
  });
});
