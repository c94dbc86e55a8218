import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { FinanceBalance } from '#contract/payments';
import { WithdrawForm } from './withdraw-form.tsx';
import { SelfEmployedForm } from './self-employed.tsx';

// The withdraw form (ADR 050): a card through ЮKassa's payout widget, never a card number field of ours; the card
// or wallet used before offered again.

const _ = '\u00a0';
const noop = () => {};
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>).replace(/<!-- -->/g, '');
const widget = { script_url: 'https://yookassa.ru/payouts-data/3.1.0/widget.js', account_id: '505050' };
const balance = (over: Partial<FinanceBalance> = {}): FinanceBalance => ({
  available: 1_234_550,
  held: 50_000,
  min_withdrawal: 50_000,
  card_widget: widget,
  top_up: [],
  saved_method: null,
  ...over,
});

describe('WithdrawForm', () => {
  it('offers a card first, entered in the payout widget: no card number field of its own', () => {
    const html = render(<WithdrawForm balance={balance()} emailConfirmed onDone={noop} />);
    expect(html).toContain(`От 500${_}руб., доступно 12${_}345,50${_}руб.`);
    expect(html).toContain('<option value="card" selected="">Банковская карта</option>');
    expect(html).toMatch(/<div id="payout-widget-form-[\w-]+" data-testid="payout-widget"><\/div>/);
    expect(html).toContain('Загружаем защищённую форму ввода карты…');
    expect(html).not.toContain('Номер карты');
    expect(html).not.toContain('0000 0000 0000 0000');
    expect(html).not.toContain('подтвердите email');
    expect(html).toMatch(/<button type="submit" class="btn btn--primary">Вывести<\/button>/);
  });

  it('offers the card used before as «Карта 220220 •• 1234», with «Другая карта»', () => {
    const saved = { method: 'card' as const, payout_token: 'pt-1', first6: '220220', last4: '1234', card_type: 'MIR' };
    const html = render(<WithdrawForm balance={balance({ saved_method: saved })} emailConfirmed onDone={noop} />);
    expect(html).toContain('Карта 220220 •• 1234<span class="muted"> · MIR</span>');
    expect(html).toContain('>Другая карта</button>');
    expect(html).not.toContain('payout-widget-form');
  });

  it('says a card is not available when no widget is configured, the button disabled', () => {
    const html = render(<WithdrawForm balance={balance({ card_widget: null })} emailConfirmed onDone={noop} />);
    expect(html).toContain('Вывод на карту сейчас недоступен — выберите другой способ.');
    expect(html).toMatch(/<button type="submit" class="btn btn--primary" disabled="">Вывести<\/button>/);
  });

  it('offers the ЮMoney wallet used before, its number filled in', () => {
    const html = render(<WithdrawForm balance={balance({ saved_method: { method: 'yoomoney', destination: '410011758831136' } })} emailConfirmed onDone={noop} />);
    expect(html).toContain('<option value="yoomoney" selected="">Кошелёк ЮMoney</option>');
    expect(html).toContain('Номер кошелька ЮMoney');
    expect(html).toContain('value="410011758831136"');
    expect(html).toContain('inputMode="numeric"');
  });

  it('asks to confirm the email first, the button disabled until then', () => {
    const html = render(<WithdrawForm balance={balance()} emailConfirmed={false} onDone={noop} />);
    expect(html).toContain('Чтобы выводить деньги, подтвердите email.');
    expect(html).toMatch(/<button type="submit" class="btn btn--primary" disabled="">Вывести<\/button>/);
  });
});

describe('SelfEmployedForm', () => {
  it('invites a seller to give an INN or phone', () => {
    const html = render(<SelfEmployedForm initial={null} />);
    expect(html).toContain('укажите ИНН или телефон');
    expect(html).toContain('>Я самозанятый</button>');
  });

  it('says a pending registration waits for «Мой налог», with its link', () => {
    const html = render(<SelfEmployedForm initial={{ status: 'pending', itn: '500100732259', phone: null, confirmation_url: 'https://lknpd.nalog.ru/x' }} />);
    expect(html).toContain('Ожидает подтверждения');
    expect(html).toContain('href="https://lknpd.nalog.ru/x"');
    expect(html).toContain('value="500100732259"');
  });

  it('says a confirmed one registers receipts', () => {
    const html = render(<SelfEmployedForm initial={{ status: 'confirmed', itn: null, phone: '79001234567', confirmation_url: null }} />);
    expect(html).toContain('Подключено: чеки по выплатам регистрируются');
    expect(html).not.toContain('Открыть «Мой налог»');
  });
});
