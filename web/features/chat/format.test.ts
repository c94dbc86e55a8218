import { describe, expect, it } from 'vitest';
import { chatServiceId, dayLabel, fileSize, linkify, maskedNote } from './format.ts';
import { CHAT_MESSAGES } from '#contract/chat-constants';

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

describe('maskedNote', () => {
  const sender = { _id: 'alice', name: 'Алиса', surname: '', avatar: null };
  it('explains masked contacts to the sender, under their own message (ADR 046)', () => {
    expect(maskedNote({ masked: true, sender }, 'alice')).toBe(CHAT_MESSAGES.contactsMasked);
    expect(CHAT_MESSAGES.contactsMasked).toMatch(/^Контакты скрыты/);
  });
  it('says nothing to the recipient, nor of a message with nothing masked', () => {
    expect(maskedNote({ masked: true, sender }, 'bob')).toBeNull();
    expect(maskedNote({ masked: false, sender }, 'alice')).toBeNull();
  });
});

describe('chatServiceId', () => {
  it('names the service of the newest message that has one, else the chat’s first, else none', () => {
    expect(chatServiceId([{ service_id: null }, { service_id: 's2' }, { service_id: 's1' }], 's1')).toBe('s2');
    expect(chatServiceId([{ service_id: null }], 's1')).toBe('s1');
    expect(chatServiceId([], null)).toBeNull();
  });
});
