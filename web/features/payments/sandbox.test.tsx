import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { SandboxPage, type SandboxPayment } from './sandbox.tsx';

const _ = '\u00a0';
const payment = (over: Partial<SandboxPayment> = {}): SandboxPayment => ({
  _id: 'p1',
  status: 'pending',
  currency: 'BTC',
  currency_amount: 16_920,
  order: { _id: 'o1', number: 42, title: 'Логотип' },
  return_url: '/payments/o1?payment=p1',
  ...over,
});
const render = (p: SandboxPayment) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SandboxPage payment={p} />
    </MemoryRouter>,
  ).replace(/<!-- -->/g, '');

describe('SandboxPage', () => {
  it('offers to pay or decline a pending payment, in its currency, saying no money moves', () => {
    const html = render(payment());
    expect(html).toContain('Песочница · деньги не списываются');
    expect(html).toContain('Заказ №42 · Логотип');
    expect(html).toContain(`<p class="sandbox__amount">0,0001692${_}BTC</p>`);
    expect(html).toContain('>Оплатить</button>');
    expect(html).toContain('>Отклонить</button>');
    expect(html).not.toContain('Вернуться к заказу');
  });

  it.each([
    ['expired', 'Курс устарел, получите новый расчёт.'],
    ['succeeded', 'Этот платёж уже обработан.'],
    ['failed', 'Этот платёж уже обработан.'],
  ])('for a %s payment says why and leads back to the order', (status, note) => {
    const html = render(payment({ status, currency: 'RUB', currency_amount: 150_000 }));
    expect(html).toContain(note);
    expect(html).toContain('href="/payments/o1?payment=p1"');
    expect(html).not.toContain('<button');
    expect(html).toContain(`1${_}500${_}руб.`);
  });
});
