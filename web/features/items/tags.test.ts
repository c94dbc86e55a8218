import { describe, expect, it } from 'vitest';
import { MAX_TAGS, addTags, splitTags } from './tags.ts';

describe('splitTags', () => {
  it('splits on commas and semicolons, trims and squeezes spaces', () => {
    expect(splitTags(' логотип,  фирменный   стиль ;брендинг, ')).toEqual(['логотип', 'фирменный стиль', 'брендинг']);
  });

  it('ignores empty pieces and cuts long tags to 40 characters', () => {
    expect(splitTags(',,')).toEqual([]);
    expect(splitTags('я'.repeat(50))[0]).toHaveLength(40);
  });
});

describe('addTags', () => {
  it('skips repeats regardless of case', () => {
    expect(addTags(['Логотип'], ['логотип', 'ЛОГОТИП', 'знак'])).toEqual(['Логотип', 'знак']);
  });

  it('stops at the limit', () => {
    const many = Array.from({ length: 15 }, (_, i) => `тег${i}`);
    expect(addTags([], many)).toHaveLength(MAX_TAGS);
    expect(addTags(many.slice(0, MAX_TAGS), ['ещё'])).toEqual(many.slice(0, MAX_TAGS));
  });
});
