import { describe, expect, it } from 'vitest';
import type { Chat, Message } from '#contract/chat';
import { chatOrderLine, chatPreview, dayKey, dayLabel, fileSize, isImage, linkify, timeLabel } from './format.ts';

describe('linkify, at its edges', () => {
  it.each([
    ['', []],
    ['просто текст', [{ type: 'text', text: 'просто текст' }]],
    ['https://a.ru', [{ type: 'link', text: 'https://a.ru', href: 'https://a.ru/' }]],
  ])('%j', (text, parts) => {
    expect(linkify(text)).toEqual(parts);
  });

  it('leaves a sentence’s closing punctuation out of the link', () => {
    expect(linkify('Смотрите https://a.ru/x).')).toEqual([
      { type: 'text', text: 'Смотрите ' },
      { type: 'link', text: 'https://a.ru/x', href: 'https://a.ru/x' },
      { type: 'text', text: ').' },
    ]);
    expect(linkify('«https://a.ru/путь»')).toEqual([
      { type: 'text', text: '«' },
      { type: 'link', text: 'https://a.ru/путь', href: 'https://a.ru/%D0%BF%D1%83%D1%82%D1%8C' },
      { type: 'text', text: '»' },
    ]);
  });

  it('finds several links, and upper-case schemes', () => {
    const parts = linkify('HTTP://a.ru и http://b.ru');
    expect(parts.filter((p) => p.type === 'link').map((p) => p.type === 'link' && p.href)).toEqual(['http://a.ru/', 'http://b.ru/']);
  });

  it('keeps what is not a valid address as text', () => {
    expect(linkify('http://[::1')).toEqual([{ type: 'text', text: 'http://[::1' }]);
  });

  it('never lets quotes or brackets into a link', () => {
    const parts = linkify('<a href="https://evil.ru/x">');
    const link = parts.find((p) => p.type === 'link');
    expect(link).toEqual({ type: 'link', text: 'https://evil.ru/x', href: 'https://evil.ru/x' });
    expect(parts.map((p) => p.text).join('')).toBe('<a href="https://evil.ru/x">');
  });

  it('keeps the whole text, in order', () => {
    const text = 'a https://x.ru b http://y.ru/?q=1, c';
    expect(linkify(text).map((p) => p.text).join('')).toBe(text);
  });
});

describe('days and times', () => {
  const now = new Date(2026, 2, 10, 12);
  it('writes another year’s date with its year', () => {
    expect(dayLabel(new Date(2025, 11, 31, 9), now)).toBe('31 декабря 2025 г.');
  });
  it('is empty for a bad date', () => {
    expect(dayLabel('not a date', now)).toBe('');
    expect(timeLabel('not a date')).toBe('');
  });
  it('keys the local calendar day', () => {
    expect(dayKey(new Date(2026, 2, 10, 0, 1))).toBe(dayKey(new Date(2026, 2, 10, 23, 59)));
    expect(dayKey(new Date(2026, 2, 10, 23, 59))).not.toBe(dayKey(new Date(2026, 2, 11, 0, 0)));
  });
  it('writes the time with two digits', () => {
    expect(timeLabel(new Date(2026, 2, 10, 9, 5))).toBe('09:05');
  });
});

describe('fileSize, across units', () => {
  it.each([
    [0, '0 Б'],
    [1023, '1023 Б'],
    [1024, '1 КБ'],
    [1024 * 1024, '1 МБ'],
    [Math.round(2.34 * 1024 * 1024), '2,3 МБ'],
    [5 * 1024 ** 3, '5 ГБ'],
  ])('%i → %s', (bytes, text) => {
    expect(fileSize(bytes).replace(/\u00a0/g, ' ')).toBe(text);
  });
});

describe('isImage', () => {
  it.each([
    ['image/png', true],
    ['image/jpeg', true],
    ['image/jpg', true],
    ['IMAGE/WEBP', true],
    ['image/gif', true],
    ['image/avif', true],
    ['image/svg+xml', false],
    ['image/png; charset=x', false],
    ['application/pdf', false],
    ['', false],
  ])('%s → %s', (mime, image) => {
    expect(isImage(mime)).toBe(image);
  });
});

describe('chatPreview', () => {
  const last = (over: Partial<Message>): Pick<Chat, 'last_message'> => ({
    last_message: {
      _id: 'm',
      chat_id: 'c',
      sender: { _id: 'bob', name: 'Боб', surname: '', avatar: null },
      message: 'Добрый день',
      files: [],
      seen: false,
      service_id: null,
      recipient: null,
      masked: false,
      kind: 'text',
      created_at: '2026-11-24T10:00:00.000Z',
      ...over,
    },
  });
  const file = { url: '/u/a.pdf', name: 'a.pdf', mime: 'application/pdf', size: 1 };

  it.each([
    [{}, 'me', 'Добрый день'],
    [{ sender: { _id: 'me', name: 'Я', surname: '', avatar: null } }, 'me', 'Вы: Добрый день'],
    [{ message: '  текст с пробелами  ' }, null, 'текст с пробелами'],
    [{ message: '', files: [file, file] }, 'me', 'Файлы: 2'],
    [{ message: '  ', files: [file] }, 'me', 'Файлы: 1'],
    [{ message: 'Смотрите', files: [file] }, 'me', 'Смотрите'],
    [{ message: '' }, 'me', ''],
  ])('%j seen by %s → «%s»', (over, me, text) => {
    expect(chatPreview(last(over), me)).toBe(text);
  });

  it('says there are no messages yet', () => {
    expect(chatPreview({ last_message: null }, 'me')).toBe('Нет сообщений');
  });
});

describe('chatOrderLine', () => {
  it.each([
    [undefined, null],
    [{ _id: 'o' }, null],
    [{ _id: 'o', number: '12' }, null],
    [{ _id: 'o', number: 12 }, 'Заказ №12'],
    [{ _id: 'o', number: 12, status: 'in_progress' }, 'Заказ №12 · В работе'],
    [{ _id: 'o', number: 0, status: 'completed' }, 'Заказ №0 · Завершён'],
    [{ _id: 'o', number: 7, status: 'awaiting_payment' }, 'Заказ №7 · Ждёт оплаты'],
    // A state this page does not know names no state.
    [{ _id: 'o', number: 12, status: 'paid' }, 'Заказ №12'],
    [{ _id: 'o', number: 3, status: 'teleported' }, 'Заказ №3'],
    [{ _id: 'o', number: 3, status: 5 }, 'Заказ №3'],
  ])('%j → %j', (order, line) => {
    expect(chatOrderLine(order)).toBe(line);
  });
});
