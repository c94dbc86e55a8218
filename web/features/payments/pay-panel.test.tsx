import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import type { OrderPayMethod, OrderPaymentPage } from '#contract/payments';
import { PayPanel } from './pay-panel.tsx';

// The payment page as it first shows: the paid order, a payment being confirmed, or the ways to pay.

const _ = '\u00a0';

function render(page: OrderPaymentPage, returned: string | null = null, stage = false) {
  const Stub = createRoutesStub([{ path: '/payments/o1', Component: () => <PayPanel page={page} returnedPayment={returned} stage={stage} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={['/payments/o1']} />).replace(/<!-- -->/g, '');
}

const way = (method: OrderPayMethod['method'], over: Partial<OrderPayMethod> = {}): OrderPayMethod => ({
  method,
  title: method,
  currency: method === 'usdt' ? 'USDT' : method === 'btc' ? 'BTC' : 'RUB',
  fee_percent: 0,
  fee: 0,
  amount: 150_000,
  rate: null,
  min: 0,
  max: 100_000_000,
  usable: true,
  reason: null,
  ...over,
});

const page = (over: Partial<OrderPaymentPage> = {}): OrderPaymentPage => ({
  order: { _id: 'o1', number: 42, title: 'Логотип', package: null, extras: [], price: 150_000, status: 'awaiting_payment', seller: { _id: 's1', name: 'Пётр' } },
  balance: { available: 20_000 },
  methods: [way('balance', { usable: false, reason: 'Недостаточно средств' }), way('card'), way('usdt', { amount: 1_600, fee: 1_500, fee_percent: 1 })],
  quote_minutes: 15,
  chat_id: 'ch1',
  rates_updated_at: null,
  last_payment: null,
  ...over,
});

describe('PayPanel', () => {
  it('chooses the first usable way and names its amount on the button', () => {
    const html = render(page());
    expect(html).toMatch(/<input type="radio" name="method" checked="" value="card"\/>/);
    expect(html).toContain(`Оплатить 1${_}500${_}руб.</button>`);
    expect(html).toContain('<span class="pay-method__note">Недостаточно средств</span>');
    expect(html).toContain(`≈ 16,00${_}USDT`);
    expect(html).not.toContain('pay-quote');
  });

  it('asks for a quote first when crypto is the first usable way, the button disabled until then', () => {
    const html = render(page({ methods: [way('usdt', { amount: 1_600 }), way('card', { usable: false, reason: 'Выше максимума' })] }));
    expect(html).toContain('Рассчитать сумму в USDT');
    expect(html).toContain(`Курс фиксируется на 15${_}минут.`);
    expect(html).toMatch(/<button type="button" class="btn btn--primary btn--block pay__submit" disabled="">Оплатить 16,00\u00a0USDT<\/button>/);
  });

  it('tells how much a usable balance holds', () => {
    expect(render(page({ methods: [way('balance'), way('card')] }))).toContain(`<span class="pay-method__note">Доступно 200${_}руб.</span>`);
  });

  it('says above the form why the payment it came back from failed', () => {
    const html = render(page({ last_payment: { _id: 'p9', method: 'card', status: 'failed', failure_reason: 'Карта отклонена' } }), 'p9');
    expect(html).toContain('<p class="form-error" role="alert">Карта отклонена. Попробуйте ещё раз или выберите другой способ.</p>');
  });

  it('tells as a notice, not an error, that what came in short is on the balance, and offers the ways to pay again', () => {
    const reason = 'Оплата пришла не полностью — полученная сумма зачислена на ваш баланс';
    const html = render(page({ last_payment: { _id: 'p9', method: 'btc', status: 'credited', failure_reason: reason } }), 'p9');
    expect(html).toContain(
      `<p class="notice pay__notice" role="status">${reason}. На балансе сейчас 200${_}руб. Оплатите заказ ещё раз или выберите другой способ.</p>`,
    );
    expect(html).not.toContain('form-error');
    expect(html).toContain('pay__methods');
  });

  it('waits for a provider’s payment being confirmed instead of a second form', () => {
    const html = render(page({ last_payment: { _id: 'p9', method: 'usdt', status: 'pending', failure_reason: null } }), 'p9');
    expect(html).toContain('Платёж ждёт подтверждения');
    expect(html).toContain('USDT (TRC-20): ждём подтверждения');
    expect(html).not.toContain('pay__methods');
  });

  it('shows a paid order as paid, with its chat', () => {
    const paid = page({ order: { ...page().order, status: 'in_progress' }, last_payment: { _id: 'p9', method: 'card', status: 'credited', failure_reason: null } });
    const html = render(paid, 'p9');
    expect(html).toContain('Заказ оплачен');
    expect(html).toContain('Заказ уже был оплачен раньше — деньги зачислены на ваш баланс.');
    expect(html).toContain('href="/profile/messages?tab=orders&amp;chat=ch1"');
  });
});

describe('PayPanel of a stage (ADR 065)', () => {
  it('says the stage is paid and leads back to its head’s chat', () => {
    const html = render(page({ order: { ...page().order, status: 'in_progress' }, chat_id: 'head-chat' }), null, true);
    expect(html).toContain('<h2 class="pay-done__title">Этап оплачен</h2>');
    expect(html).toContain('href="/profile/messages?tab=orders&amp;chat=head-chat"');
    expect(render(page({ order: { ...page().order, status: 'in_progress' } }))).toContain('<h2 class="pay-done__title">Заказ оплачен</h2>');
  });
});
