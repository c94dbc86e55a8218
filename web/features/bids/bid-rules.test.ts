import { describe, expect, it } from 'vitest';
import { BID_COMMENT_MAX, BID_COMMENT_MIN_DEFAULT } from '#contract/bid-constants';
import { checkBid, commentCounter } from './bid-rules.ts';

const _ = '\u00a0';
const comment = 'Сделаю за три дня: опыт в айдентике семь лет, покажу похожие работы.';
const bid = (over: Partial<{ price: string; days: string; comment: string }> = {}) => checkBid({ price: '5000', days: '3', comment, ...over });

describe('checkBid', () => {
  it('sends the price in kopecks, the days and the trimmed comment', () => {
    expect(bid({ price: '5 000,50', comment: `  ${comment}  ` })).toEqual({ errors: {}, body: { price: 500_050, days: 3, comment } });
  });

  it.each([
    ['', 'Укажите цену в рублях'],
    ['   ', 'Укажите цену в рублях'],
    ['пять тысяч', 'Укажите цену в рублях'],
    ['-500', 'Укажите цену в рублях'],
    ['500,555', 'Укажите цену в рублях'],
    ['499,99', `Цена — от 500${_}руб.`],
    ['0', `Цена — от 500${_}руб.`],
    ['1000000,01', 'Слишком большая сумма'],
  ])('refuses the price %j: «%s»', (price, error) => {
    expect(bid({ price }).errors).toEqual({ price: [error] });
  });

  it.each(['500', '1000000', '1 000 000,00'])('takes the price %j at the limits', (price) => {
    expect(bid({ price }).errors).toEqual({});
  });

  it.each(['', '0', '366', '1.5', '-1', 'три'])('refuses %j days', (days) => {
    expect(bid({ days }).errors).toEqual({ days: ['Срок — от 1 до 365 дней'] });
  });

  it.each(['1', '365', ' 7 '])('takes %j days', (days) => {
    expect(bid({ days }).errors).toEqual({});
  });

  it('asks for a comment of the shortest length, counting characters as the server does', () => {
    const short = 'а'.repeat(BID_COMMENT_MIN_DEFAULT - 1);
    expect(bid({ comment: short }).errors).toEqual({ comment: [`Комментарий — от ${BID_COMMENT_MIN_DEFAULT}${_}символов`] });
    expect(bid({ comment: `   ${short}   ` }).errors.comment).toHaveLength(1);
    expect(bid({ comment: '👍🏽'.repeat(BID_COMMENT_MIN_DEFAULT / 2) }).errors).toEqual({});
    expect(bid({ comment: 'а'.repeat(BID_COMMENT_MIN_DEFAULT) }).errors).toEqual({});
  });

  it('follows a minimum set in the settings', () => {
    expect(checkBid({ price: '500', days: '1', comment: 'коротко' }, 5).errors).toEqual({});
    expect(checkBid({ price: '500', days: '1', comment: 'коротко' }, 10).errors.comment).toEqual([`Комментарий — от 10${_}символов`]);
  });

  it('refuses a comment over the most', () => {
    expect(bid({ comment: 'а'.repeat(BID_COMMENT_MAX) }).errors).toEqual({});
    expect(bid({ comment: 'а'.repeat(BID_COMMENT_MAX + 1) }).errors).toEqual({ comment: [`Комментарий — до ${BID_COMMENT_MAX} символов`] });
  });

  it('reports every field at once', () => {
    expect(Object.keys(checkBid({ price: '', days: '', comment: '' }).errors)).toEqual(['price', 'days', 'comment']);
  });
});

describe('commentCounter', () => {
  it.each([
    [0, true, `0 из ${BID_COMMENT_MIN_DEFAULT} — ещё ${BID_COMMENT_MIN_DEFAULT}`],
    [BID_COMMENT_MIN_DEFAULT - 1, true, `${BID_COMMENT_MIN_DEFAULT - 1} из ${BID_COMMENT_MIN_DEFAULT} — ещё 1`],
    [BID_COMMENT_MIN_DEFAULT, false, `${BID_COMMENT_MIN_DEFAULT} / ${BID_COMMENT_MAX}`],
    [BID_COMMENT_MAX + 3, false, `${BID_COMMENT_MAX + 3} / ${BID_COMMENT_MAX}`],
  ])('at %s characters is short: %s, «%s»', (length, short, text) => {
    expect(commentCounter(length)).toEqual({ short, text });
  });

  it('counts against the minimum it is given', () => {
    expect(commentCounter(3, 5)).toEqual({ short: true, text: '3 из 5 — ещё 2' });
  });
});
