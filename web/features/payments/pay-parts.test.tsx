import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { OrderPayMethod, Quote } from '#contract/payments';
import { MethodOption, PayDone, PayWait, QuoteBox } from './pay-parts.tsx';

const _ = '\u00a0';
const noop = () => {};
/** The visible text of some markup, React's text-node separators left out. */
const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/<[^<>]*>/g, '|').replace(/\|+/g, '|');

const usdt: OrderPayMethod = {
  method: 'usdt',
  title: 'USDT (TRC-20)',
  currency: 'USDT',
  fee_percent: 1,
  fee: 1_500,
  amount: 1_595,
  rate: 95,
  min: 100_000,
  max: 100_000_000,
  usable: true,
  reason: null,
};

const quote: Quote = {
  _id: 'q1',
  order_id: 'o1',
  method: 'usdt',
  currency: 'USDT',
  amount: 151_500,
  fee: 1_500,
  currency_amount: 1_595,
  rate: 94.87,
  quote_expires_at: '2026-11-24T10:15:00Z',
};

describe('MethodOption', () => {
  it('shows the way, its fee and its estimated crypto amount, and can be chosen', () => {
    const html = renderToStaticMarkup(<MethodOption m={usdt} checked onChoose={noop} />);
    expect(html).toContain('class="pay-method pay-method--on"');
    expect(text(html)).toContain(`|USDT (TRC-20)|Комиссия 1${_}% — 15${_}руб.|≈ 15,95${_}USDT|`);
    expect(html).toMatch(/<input type="radio" name="method" checked="" value="usdt"\/>/);
  });

  it('greys out and disables a way that cannot be used, saying why', () => {
    const html = renderToStaticMarkup(<MethodOption m={{ ...usdt, usable: false, reason: 'Сумма меньше минимальной' }} checked={false} onChoose={noop} />);
    expect(html).toContain('class="pay-method pay-method--off"');
    expect(html).toContain('disabled=""');
    expect(text(html)).toContain('Сумма меньше минимальной');
  });
});

describe('QuoteBox', () => {
  const box = (q: Quote | null, left: number, busy = false) =>
    renderToStaticMarkup(<QuoteBox quote={q} left={left} currency="USDT" quoteMinutes={15} busy={busy} onQuote={noop} />);

  it('offers to compute the amount until there is a quote', () => {
    const html = text(box(null, 0));
    expect(html).toContain('Рассчитать сумму в USDT');
    expect(html).toContain(`Курс фиксируется на 15${_}минут.`);
    expect(html).not.toContain('К оплате');
  });

  it('shows a held quote’s amount, rate in rubles and time left, with no button', () => {
    const html = box(quote, 61_000);
    expect(text(html)).toContain(`К оплате: |15,95${_}USDT`);
    expect(text(html)).toContain(`Курс: 1 USDT = 94,87${_}руб.`);
    expect(text(html)).toContain('Курс зафиксирован ещё 1:01');
    expect(html).not.toContain('<button');
  });

  it('says a stale quote is stale and offers to renew it, not while busy', () => {
    const html = box(quote, 0);
    expect(text(html)).toContain('Курс устарел, получите новый расчёт');
    expect(text(html)).toContain('Обновить курс');
    expect(html).not.toContain('Курс зафиксирован');
    expect(box(quote, -1, true)).toMatch(/<button[^>]*disabled=""[^>]*>Обновить курс/);
  });
});

describe('PayDone and PayWait', () => {
  it('lead a paid order to its chat and to the payments', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <PayDone note="Деньги зарезервированы" chatId="c1" />
      </MemoryRouter>,
    );
    expect(html).toContain('Заказ оплачен');
    expect(html).toContain('Деньги зарезервированы');
    expect(html).toContain('href="/profile/messages?tab=orders&amp;chat=c1"');
    expect(html).toContain('href="/profile/payments"');
  });

  it('name the waiting payment’s way, and disable «Проверить ещё раз» while checking', () => {
    const waiting = renderToStaticMarkup(<PayWait method="card" checking onCheck={noop} onOtherWay={noop} />);
    expect(text(waiting)).toContain('Банковская карта: ждём подтверждения от платёжной системы.');
    expect(waiting).toMatch(/<button[^>]*disabled=""[^>]*>Проверить ещё раз/);
    expect(waiting).toContain('Выбрать другой способ');
    const idle = renderToStaticMarkup(<PayWait method="sbp" checking={false} onCheck={noop} onOtherWay={noop} />);
    expect(text(idle)).toContain('sbp: ждём подтверждения');
    expect(idle).not.toContain('disabled');
  });
});
