import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatShortDate, formatRelative, plural, pluralWithCount } from './dates.ts';

const now = new Date(2026, 2, 10, 12, 0, 0); // 10 March 2026, 12:00 local
const ago = (ms: number) => new Date(now.getTime() - ms);
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

describe('formatRelative', () => {
  it('says "только что" under 45 seconds, both directions', () => {
    expect(formatRelative(now, now)).toBe('только что');
    expect(formatRelative(ago(44 * SEC), now)).toBe('только что');
    expect(formatRelative(new Date(now.getTime() + 30 * SEC), now)).toBe('только что');
  });
  it('uses minutes', () => {
    expect(formatRelative(ago(50 * SEC), now)).toBe('1 минуту назад');
    expect(formatRelative(ago(5 * MIN), now)).toBe('5 минут назад');
    expect(formatRelative(ago(22 * MIN), now)).toBe('22 минуты назад');
    expect(formatRelative(new Date(now.getTime() + 10 * MIN), now)).toBe('через 10 минут');
  });
  it('uses hours', () => {
    expect(formatRelative(ago(59 * MIN + 50 * SEC), now)).toBe('1 час назад');
    expect(formatRelative(ago(3 * HOUR), now)).toBe('3 часа назад');
    expect(formatRelative(ago(11 * HOUR), now)).toBe('11 часов назад');
  });
  it('uses calendar days under a week', () => {
    expect(formatRelative(new Date(2026, 2, 9, 8, 0), now)).toBe('вчера');
    expect(formatRelative(new Date(2026, 2, 8, 23, 0), now)).toBe('позавчера');
    expect(formatRelative(new Date(2026, 2, 5, 12, 0), now)).toBe('5 дней назад');
    expect(formatRelative(new Date(2026, 2, 11, 13, 0), now)).toBe('завтра');
  });
  it('falls back to an absolute date from 7 days on', () => {
    expect(formatRelative(new Date(2026, 2, 3, 12, 0), now)).toBe('3 марта');
    expect(formatRelative(new Date(2026, 0, 1, 9, 0), now)).toBe('1 января');
    expect(formatRelative(new Date(2025, 11, 31, 9, 0), now)).toBe('31 декабря 2025 г.');
  });
  it('accepts strings and numbers, returns "" for invalid input', () => {
    expect(formatRelative(ago(5 * MIN).toISOString(), now)).toBe('5 минут назад');
    expect(formatRelative(ago(5 * MIN).getTime(), now)).toBe('5 минут назад');
    expect(formatRelative('not a date', now)).toBe('');
  });
});

describe('formatDate', () => {
  it('formats an absolute Russian date with year', () => {
    expect(formatDate(new Date(2026, 2, 5))).toBe('5 марта 2026 г.');
    expect(formatDate(new Date(2026, 2, 5).getTime())).toBe('5 марта 2026 г.');
    expect(formatDate('garbage')).toBe('');
  });
});

describe('formatShortDate', () => {
  it("formats a table's date as day, month and year in digits", () => {
    expect(formatShortDate(new Date(2026, 2, 5))).toBe('05.03.2026');
    expect(formatShortDate(new Date(2026, 11, 31).getTime())).toBe('31.12.2026');
    expect(formatShortDate('garbage')).toBe('');
  });
});

describe('plural', () => {
  const w = (n: number) => plural(n, 'отзыв', 'отзыва', 'отзывов');
  it('picks Russian forms', () => {
    expect(w(1)).toBe('отзыв');
    expect(w(2)).toBe('отзыва');
    expect(w(4)).toBe('отзыва');
    expect(w(5)).toBe('отзывов');
    expect(w(0)).toBe('отзывов');
    expect(w(11)).toBe('отзывов');
    expect(w(12)).toBe('отзывов');
    expect(w(21)).toBe('отзыв');
    expect(w(22)).toBe('отзыва');
    expect(w(25)).toBe('отзывов');
    expect(w(111)).toBe('отзывов');
    expect(w(1.5)).toBe('отзыва');
  });
  it('pluralWithCount prefixes the number', () => {
    expect(pluralWithCount(21, 'отзыв', 'отзыва', 'отзывов')).toBe('21\u00a0отзыв');
    expect(pluralWithCount(5, 'отзыв', 'отзыва', 'отзывов')).toBe('5\u00a0отзывов');
  });
});

describe('formatDateTime', () => {
  it('says whose time it is: the zone next to the time (ADR 046)', () => {
    const at = new Date('2026-11-25T11:30:00Z');
    expect(formatDateTime(at, 'Europe/Moscow')).toBe('25 ноября 2026\u202fг. в 14:30 (GMT+3)');
    expect(formatDateTime(at, 'Asia/Yekaterinburg')).toBe('25 ноября 2026\u202fг. в 16:30 (GMT+5)');
    expect(formatDateTime('nonsense')).toBe('');
  });
});
