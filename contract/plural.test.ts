import { describe, expect, it } from 'vitest';
import { charsAfter, plural, pluralWithCount } from './plural.ts';
import { BID_MESSAGES } from './bid-constants.ts';
import { REVIEW_MESSAGES } from './review-constants.ts';

describe('Russian counts, one helper for server and web (ADR 046)', () => {
  it('picks the form by Intl.PluralRules', () => {
    expect([1, 2, 5, 11, 21, 22, 25, 1.5].map((n) => plural(n, 'час', 'часа', 'часов'))).toEqual([
      'час',
      'часа',
      'часов',
      'часов',
      'час',
      'часа',
      'часов',
      'часа',
    ]);
    expect(pluralWithCount(1500, 'отзыв', 'отзыва', 'отзывов')).toBe('1\u00a0500\u00a0отзывов');
  });

  it('says a limit the operator sets in the genitive: «от 21 символа», not «от 21 символов»', () => {
    expect(charsAfter(1)).toBe('1\u00a0символа');
    expect(charsAfter(21)).toBe('21\u00a0символа');
    expect(charsAfter(30)).toBe('30\u00a0символов');
    expect(BID_MESSAGES.commentTooShort(21)).toBe('Комментарий — от 21\u00a0символа');
    expect(REVIEW_MESSAGES.tooLong(501)).toBe('Не длиннее 501\u00a0символа');
  });
});
