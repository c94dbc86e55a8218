import { describe, expect, it } from 'vitest';
import type { Dispute } from '#contract/disputes';
import { DISPUTE_OUTCOMES } from '#contract/dispute-constants';
import {
  appealPath,
  badgeCount,
  decisionConfirmText,
  decisionOf,
  disputeFieldErrors,
  mergePages,
  openerText,
  resolveBody,
  withChat,
  withUnseen,
} from './rules.ts';

const _ = '\u00a0';

describe('disputeFieldErrors', () => {
  it('puts each field’s first error by it', () => {
    expect(
      disputeFieldErrors({ errors: { reason: ['Выберите причину спора', 'ещё'], description: ['Опишите ситуацию подробнее'] } }),
    ).toEqual({ reason: 'Выберите причину спора', description: 'Опишите ситуацию подробнее' });
  });

  it('puts an error of a field’s part (a file) by the field, preferring the field’s own', () => {
    expect(disputeFieldErrors({ errors: { 'files.2': ['Файл не найден'] } })).toEqual({ files: 'Файл не найден' });
    expect(disputeFieldErrors({ errors: { 'files.0': ['Первый'], files: ['Не больше 10 файлов'] } })).toEqual({ files: 'Не больше 10 файлов' });
  });

  it('leaves out errors of no field of the form, and empty lists', () => {
    expect(disputeFieldErrors({ errors: { order_id: ['Неверный идентификатор заказа'], reason: [] } })).toEqual({});
    expect(disputeFieldErrors({ errors: { reasons: ['not a field'], descriptionX: ['no'] } })).toEqual({});
    expect(disputeFieldErrors({})).toEqual({});
  });
});

describe('decisionOf', () => {
  const order = { price: 150_000, commission_bp: 1_500 };

  it('gives everything back to the customer on a refund, whatever percent is typed', () => {
    expect(decisionOf('refund', '70', order)).toEqual({ percent: 0, valid: true, split: { customer: 150_000, seller: 0, commission: 0, sellerNet: 0 } });
    expect(decisionOf('refund', '', order).valid).toBe(true);
  });

  it('pays everything to the seller, less the commission, on a release', () => {
    expect(decisionOf('release', 'abc', order)).toEqual({
      percent: 100,
      valid: true,
      split: { customer: 0, seller: 150_000, commission: 22_500, sellerNet: 127_500 },
    });
  });

  it.each([
    ['0', 0],
    ['50', 50],
    ['100', 100],
    [' 40 ', 40],
  ])('splits by the typed seller share %j', (typed, percent) => {
    const d = decisionOf('split', typed, order);
    expect(d).toMatchObject({ percent, valid: true });
    expect(d.split.customer + d.split.seller).toBe(order.price);
    expect(d.split.seller).toBe((order.price * percent) / 100);
  });

  it.each(['', '  ', '101', '-1', '50.5', '50,5', 'половина'])('refuses the share %j, previewing nothing to the seller', (typed) => {
    const d = decisionOf('split', typed, order);
    expect(d.valid).toBe(false);
    expect(d.split).toEqual({ customer: 150_000, seller: 0, commission: 0, sellerNet: 0 });
  });

  it('rounds the seller’s part to the kopeck, the customer getting the rest', () => {
    const { split } = decisionOf('split', '33', { price: 123_457, commission_bp: 0 });
    expect(split).toEqual({ customer: 82_716, seller: 40_741, commission: 0, sellerNet: 40_741 });
  });

  it('sends a seller share for a split only', () => {
    expect(resolveBody('split', 40, 'Поровну не вышло')).toEqual({ outcome: 'split', seller_percent: 40, comment: 'Поровну не вышло' });
    expect(resolveBody('refund', 0, '')).toEqual({ outcome: 'refund', comment: '' });
    expect(resolveBody('release', 100, 'ok')).toEqual({ outcome: 'release', comment: 'ok' });
    for (const outcome of DISPUTE_OUTCOMES) expect(resolveBody(outcome, 0, '').outcome).toBe(outcome);
  });

  // The amounts end in «руб.», which ends the sentence: one full stop, not «510 руб.. Изменить».
  it('says before confirming what each side will receive', () => {
    expect(decisionConfirmText(decisionOf('split', '40', order).split)).toMatch(
      new RegExp(`^Заказчику вернётся 900${_}руб\\., исполнителю будет зачислено 510${_}руб\\. Изменить решение будет нельзя\\.$`),
    );
    expect(decisionConfirmText({ customer: 12_345, sellerNet: 0 })).toContain(`вернётся 123,45${_}руб., исполнителю будет зачислено 0${_}руб.`);
  });
});

describe('a person’s disputes', () => {
  const party = (id: string, name: string) => ({ _id: id, name, surname: '', user_name: id, avatar: null });
  const dispute = (id: string, chat: string, unseen = 0) =>
    ({ _id: id, unseen_messages: unseen, chat: { _id: chat, unseen_messages: unseen, title: 'chat' } }) as unknown as Dispute;

  it.each([
    [0, '0'],
    [7, '7'],
    [99, '99'],
    [100, '99+'],
    [12_345, '99+'],
  ])('counts %s unseen messages on the badge as %j', (n, text) => {
    expect(badgeCount(n)).toBe(text);
  });

  it('says who opened the dispute, from the reader’s side', () => {
    const name = (p: { name: string }) => p.name;
    expect(openerText({ role: 'opener', opened_by: party('a', 'Анна') }, name)).toBe('Вы открыли спор');
    expect(openerText({ role: 'respondent', opened_by: party('a', 'Анна') }, name)).toBe('Спор открыла другая сторона: Анна');
  });

  it('leads an appeal to the appeals tab with the dispute, its id encoded', () => {
    expect(appealPath({ _id: 'd1' })).toBe('/profile/disputes?tab=appeals&subject=dispute&object=d1');
    expect(appealPath({ _id: 'a&b c' })).toBe('/profile/disputes?tab=appeals&subject=dispute&object=a%26b%20c');
  });

  it('merges pages read again into one list, a dispute that moved between pages shown once, first place kept', () => {
    expect(mergePages([[{ _id: 'a' }, { _id: 'b' }], [{ _id: 'b' }, { _id: 'c' }], []]).map((d) => d._id)).toEqual(['a', 'b', 'c']);
    expect(mergePages([])).toEqual([]);
  });

  it('takes a dispute’s chat from an event, with its unseen count, leaving the others as they are', () => {
    const list = [dispute('d1', 'c1'), dispute('d2', 'c2', 3)];
    const chat = { ...list[0]!.chat, unseen_messages: 5 };
    const next = withChat(list, chat);
    expect(next[0]).toMatchObject({ _id: 'd1', unseen_messages: 5, chat: { _id: 'c1', unseen_messages: 5 } });
    expect(next[1]).toBe(list[1]);
    expect(list[0]!.unseen_messages).toBe(0);
  });

  it('takes a dispute’s unseen count from the counters, on the dispute and its chat', () => {
    const list = [dispute('d1', 'c1', 4), dispute('d2', 'c2', 3)];
    const next = withUnseen(list, 'd2', 0);
    expect(next[1]).toMatchObject({ unseen_messages: 0, chat: { _id: 'c2', unseen_messages: 0 } });
    expect(next[0]).toBe(list[0]);
    expect(withUnseen(list, 'missing', 9)).toEqual(list);
  });
});
