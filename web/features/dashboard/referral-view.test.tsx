import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReferralPage } from '#contract/dashboard';
import { ReferralView, referralLink } from './referral-view.tsx';

const _ = '\u00a0';
const render = (data: ReferralPage) => renderToStaticMarkup(<ReferralView data={data} link="https://podryad.example/?referralCode=AB12" />).replace(/<!-- -->/g, '');

const page = (over: Partial<ReferralPage> = {}): ReferralPage => ({
  code: 'AB12',
  terms: { buyer_bp: 150, seller_bp: 350, months: 12 },
  people: [
    { _id: 'u1', name: 'Анна И.', avatar: null, role: 'customer', joined_at: '2026-01-10T10:00:00Z', rewards_until: '2027-01-10T10:00:00Z', earned: 4_500 },
  ],
  earnings: [
    {
      seq: 7,
      created_at: '2026-11-20T10:00:00Z',
      order_number: 1042,
      price: 300_000,
      rate_bp: 150,
      amount: 4_500,
      person: { _id: 'u1', name: 'Анна И.' },
      side: 'customer',
    },
  ],
  totals: { people: 1, orders: 1, amount: 4_500, month: 4_500 },
  ...over,
});

describe('ReferralView', () => {
  it('states the terms with Russian percents and agreed months', () => {
    const html = render(page());
    expect(html).toContain(`вы получаете 1,5${_}% от суммы, если они покупатель, и 3,5${_}%, если продавец, — 12 месяцев с их регистрации`);
    expect(render(page({ terms: { buyer_bp: 100, seller_bp: 200, months: 1 } }))).toContain('— 1 месяц с их регистрации');
  });

  it('shows the totals, the people by side and the rewards with their order and rate', () => {
    const html = render(page());
    expect(html).toContain('<dt>Приглашено</dt><dd>1 человек</dd>');
    expect(html).toContain(`data-testid="referral-total">45${_}руб.</dd>`);
    expect(html).toContain('<td data-label="Роль">Покупатель</td>');
    expect(html).toContain('<td data-label="Заказ">№1042</td>');
    expect(html).toContain('Анна И. <span class="muted">(покупатель)</span>');
    expect(html).toContain(`<td data-label="Ставка">1,5${_}%</td>`);
    expect(html).toContain(`<td data-label="Вознаграждение" class="fin-plus">+45${_}руб.</td>`);
    expect(html).not.toContain('Показаны последние');
  });

  it('says when only the latest people are listed', () => {
    expect(render(page({ totals: { people: 250, orders: 1, amount: 4_500, month: 0 } }))).toContain('Показаны последние 1 из 250.');
  });

  it('says when nobody came yet and nothing was earned', () => {
    const html = render(page({ people: [], earnings: [], totals: { people: 0, orders: 0, amount: 0, month: 0 } }));
    expect(html).toContain('По вашей ссылке пока никто не зарегистрировался.');
    expect(html).toContain('Вознаграждений пока нет');
    expect(html).toContain('<dt>Приглашено</dt><dd>0 человек</dd>');
    expect(html).not.toContain('referral-people');
  });

  it('puts the link in a read-only field to copy', () => {
    const input = /<input id="referral-link"[^>]*>/.exec(render(page()))?.[0];
    expect(input).toContain('readOnly=""');
    expect(input).toContain('value="https://podryad.example/?referralCode=AB12"');
  });

  it('encodes the code in the link', () => {
    expect(referralLink('https://podryad.example', 'a b&c')).toBe('https://podryad.example/?referralCode=a%20b%26c');
  });
});
