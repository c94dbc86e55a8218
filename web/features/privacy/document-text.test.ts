import { describe, expect, it } from 'vitest';
import { documentBlocks } from './document-text.ts';

describe('documentBlocks', () => {
  it('reads headings, paragraphs joined across lines, and lists', () => {
    const body = 'Первый абзац\nпродолжается.\n\n## Кому передаём\n- ЮKassa\n- BTCPay Server\nПосле списка.\r\n\r\nЕщё <b>не HTML</b>.';
    expect(documentBlocks(body)).toEqual([
      { kind: 'paragraph', text: 'Первый абзац продолжается.' },
      { kind: 'heading', text: 'Кому передаём' },
      { kind: 'list', items: ['ЮKassa', 'BTCPay Server'] },
      { kind: 'paragraph', text: 'После списка.' },
      { kind: 'paragraph', text: 'Ещё <b>не HTML</b>.' },
    ]);
  });

  it('gives nothing for an empty text', () => {
    expect(documentBlocks('\n \n')).toEqual([]);
  });
});
