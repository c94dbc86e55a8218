import { describe, expect, it } from 'vitest';
import { dayLabel, fileSize, linkify } from './format.ts';

describe('linkify', () => {
  it('makes only http(s) URLs links and keeps the rest as text', () => {
    expect(linkify('см. https://example.com/a?b=1, и javascript:alert(1) или ftp://x.y')).toEqual([
      { type: 'text', text: 'см. ' },
      { type: 'link', text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { type: 'text', text: ', и javascript:alert(1) или ftp://x.y' },
    ]);
  });
  it('leaves markup as text', () => {
    expect(linkify('<img src=x onerror=alert(1)>')).toEqual([{ type: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });
});

describe('dayLabel', () => {
  const now = new Date(2026, 2, 10, 12);
  it('says Сегодня, Вчера, then the date', () => {
    expect(dayLabel(new Date(2026, 2, 10, 1), now)).toBe('Сегодня');
    expect(dayLabel(new Date(2026, 2, 9, 23), now)).toBe('Вчера');
    expect(dayLabel(new Date(2026, 2, 5, 9), now)).toBe('5 марта');
  });
});

describe('fileSize', () => {
  it('formats bytes in Russian units', () => {
    expect(fileSize(500)).toBe('500 Б');
    expect(fileSize(1536)).toBe('1,5 КБ');
  });
});
