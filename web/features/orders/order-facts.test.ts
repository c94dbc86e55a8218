import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '#contract/money';
import type { Order } from '#contract/orders';
import { formatDateTime } from '../../lib/dates.ts';
import {
  adminDeadlineText,
  cancelNote,
  foundText,
  messageAuthor,
  orderChatPath,
  orderComplaintPath,
  orderCountdown,
  orderRowPath,
  partyName,
  proposalText,
  reviewTargetName,
  sellerEarnings,
} from './order-facts.ts';

const _ = '\u00a0';
const person = (id: string, name: string, surname = '', user_name = `user_${id}`) => ({ _id: id, name, surname, user_name, avatar: null });
const customer = person('c1', 'Анна', 'Иванова');
const seller = person('s1', 'Пётр', '');

describe('partyName', () => {
  it.each([
    [{ name: 'Анна', surname: 'Иванова', user_name: 'anna' }, 'Анна Иванова'],
    [{ name: 'Пётр', surname: '', user_name: 'petr' }, 'Пётр'],
    [{ name: '', surname: 'Сидоров', user_name: 'sid' }, 'Сидоров'],
    [{ name: '', surname: '', user_name: 'ghost' }, 'ghost'],
    [{ name: ' ', surname: ' ', user_name: 'spaces' }, 'spaces'],
  ])('%j is called %j', (p, name) => {
    expect(partyName(p)).toBe(name);
  });

  it('names the person a pending review is about', () => {
    expect(reviewTargetName({ target: customer })).toBe('Анна Иванова');
    expect(reviewTargetName({ target: person('x', '', '', 'nick') })).toBe('nick');
  });
});

describe('where an order leads', () => {
  it('goes to its chat once it has one', () => {
    expect(orderChatPath({ chat_id: 'ch1' })).toBe('/profile/messages?tab=orders&chat=ch1');
    expect(orderChatPath({ chat_id: null })).toBe('/profile/messages?tab=orders');
    expect(orderRowPath({ _id: 'o1', chat_id: 'ch1', actions: ['pay'] })).toBe('/profile/messages?tab=orders&chat=ch1');
  });

  it('goes to the payment page of a draft it may pay, and nowhere from a draft that expired', () => {
    expect(orderRowPath({ _id: 'o1', chat_id: null, actions: ['pay', 'cancel'] })).toBe('/payments/o1');
    expect(orderRowPath({ _id: 'o1', chat_id: null, actions: [] })).toBeNull();
    expect(orderRowPath({ _id: 'o1', chat_id: null, actions: ['cancel'] })).toBeNull();
  });

  it('takes a complaint to the appeals tab with the order as its object', () => {
    expect(orderComplaintPath({ _id: 'o1' })).toBe('/profile/disputes?tab=appeals&subject=order&object=o1');
  });
});

describe('orderCountdown', () => {
  const at = { deadline_at: '2026-11-30T10:00:00Z', auto_accept_at: '2026-12-03T10:00:00Z' };
  it.each(ORDER_STATUSES.map((s) => [s] as const))('%s', (status) => {
    const expected =
      status === 'in_progress'
        ? { to: at.deadline_at, prefix: 'до срока' }
        : status === 'delivered'
          ? { to: at.auto_accept_at, prefix: 'автоприёмка через' }
          : null;
    expect(orderCountdown({ status, ...at })).toEqual(expected);
  });

  it('passes on a missing date for the countdown to leave out', () => {
    expect(orderCountdown({ status: 'in_progress', deadline_at: null, auto_accept_at: null })).toEqual({ to: null, prefix: 'до срока' });
  });
});

describe('sellerEarnings', () => {
  const order = (over: Partial<Order>) =>
    ({ settlement: null, role: 'seller', status: 'in_progress', price: 450_000, commission: 67_500, ...over }) as Pick<
      Order,
      'settlement' | 'role' | 'status' | 'price' | 'commission'
    >;

  it('writes a settled order’s amounts to the kopeck', () => {
    expect(sellerEarnings(order({ status: 'completed', settlement: { price: 123_457, commission: 18_519, net: 104_938 } }))).toEqual({
      kind: 'settled',
      text: `Цена заказа 1${_}234,57${_}руб. · Комиссия сервиса 185,19${_}руб. · Вам 1${_}049,38${_}руб.`,
    });
  });

  it('shows a settlement to whoever the server sends it to', () => {
    expect(sellerEarnings(order({ role: 'customer', settlement: { price: 100, commission: 0, net: 100 } }))?.kind).toBe('settled');
  });

  it.each([
    ['awaiting_payment', 382_500],
    ['in_progress', 382_500],
    ['delivered', 382_500],
    ['disputed', 382_500],
    ['completed', null],
    ['cancelled', null],
  ] as const)('tells the seller of a %s order what they will get: %s', (status, kopecks) => {
    expect(sellerEarnings(order({ status }))).toEqual(kopecks === null ? null : { kind: 'expected', kopecks });
  });

  it('tells the customer and an admin nothing before the settlement', () => {
    expect(sellerEarnings(order({ role: 'customer' }))).toBeNull();
    expect(sellerEarnings(order({ role: null }))).toBeNull();
  });

  it('gives the whole price when there is no commission', () => {
    expect(sellerEarnings(order({ commission: 0 }))).toEqual({ kind: 'expected', kopecks: 450_000 });
  });
});

describe('proposalText', () => {
  const proposal = (by: string) => ({ by, at: '2026-11-24T10:00:00Z', reason: 'Сроки сорваны' });
  const base = { customer, seller };

  it('says nothing without a proposal', () => {
    expect(proposalText({ ...base, role: 'customer', cancel_proposal: null })).toBeNull();
  });

  it.each([
    ['customer', 'c1', 'Вы предложили отменить заказ. Причина: Сроки сорваны'],
    ['customer', 's1', 'Вам предлагают отменить заказ. Причина: Сроки сорваны'],
    ['seller', 's1', 'Вы предложили отменить заказ. Причина: Сроки сорваны'],
    ['seller', 'c1', 'Вам предлагают отменить заказ. Причина: Сроки сорваны'],
  ] as const)('to the %s, of a proposal by %s', (role, by, text) => {
    expect(proposalText({ ...base, role, cancel_proposal: proposal(by) })).toBe(text);
  });
});

describe('cancelNote', () => {
  const againstSeller = 'Отмена по вашей инициативе учитывается в статистике исполнителя не в вашу пользу.';
  it.each([
    ['in_progress', 'customer', 'Деньги вернутся на ваш баланс.'],
    ['delivered', 'customer', 'Деньги вернутся на ваш баланс.'],
    ['awaiting_payment', 'customer', undefined],
    ['in_progress', 'seller', `Деньги вернутся заказчику. ${againstSeller}`],
    ['delivered', 'seller', `Деньги вернутся заказчику. ${againstSeller}`],
    ['awaiting_payment', 'seller', againstSeller],
    ['in_progress', null, 'Деньги вернутся на ваш баланс.'],
  ] as const)('cancelling a %s order as %s', (status, role, note) => {
    expect(cancelNote({ status, role })).toBe(note);
  });
});

describe('the admin’s order', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  const deadline = '2026-11-26T15:30:00Z';

  it('gives the deadline’s date, with the time left while the work is in progress', () => {
    expect(adminDeadlineText({ status: 'in_progress', deadline_at: deadline }, now)).toBe(`${formatDateTime(deadline)}, осталось 2${_}дня 5 ч`);
    expect(adminDeadlineText({ status: 'in_progress', deadline_at: '2026-11-24T09:00:00Z' }, now)).toBe(
      `${formatDateTime('2026-11-24T09:00:00Z')}, осталось срок прошёл`,
    );
  });

  it.each(['delivered', 'completed', 'cancelled', 'disputed', 'awaiting_payment'] as const)('gives a %s order’s deadline without the time left', (status) => {
    expect(adminDeadlineText({ status, deadline_at: deadline }, now)).toBe(formatDateTime(deadline));
  });

  it('says there is no deadline before payment', () => {
    expect(adminDeadlineText({ status: 'awaiting_payment', deadline_at: null }, now)).toBe('—');
  });

  it.each([
    ['text', 'Анна Иванова'],
    ['delivery', 'Сдача работы'],
    ['system', 'Система'],
  ] as const)('signs a %s message «%s»', (kind, author) => {
    expect(messageAuthor({ kind, sender: { ...customer, _id: 'c1' } } as never)).toBe(author);
  });

  it.each([
    [0, '0'],
    [10_000, '10000'],
    [10_001, 'больше 10 000'],
  ])('counts %s found as %j', (total, text) => {
    expect(foundText(total)).toBe(text);
  });
});
