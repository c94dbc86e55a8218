import { describe, expect, it } from 'vitest';
import { kopecksToRubles, parseWhole, rublesToKopecks, wholeToText } from './money.ts';

describe('rublesToKopecks', () => {
  it.each([
    ['500', 50_000],
    ['1 500', 150_000],
    ['1\u00a0500', 150_000],
    ['1500,5', 150_050],
    ['1500.50', 150_050],
    ['1500,05', 150_005],
    ['0', 0],
    ['  700 ', 70_000],
    ['12.', 1200],
  ])('%j → %d kopecks', (text, kopecks) => {
    expect(rublesToKopecks(text)).toBe(kopecks);
  });

  it('leaves a blank field undefined', () => {
    expect(rublesToKopecks('')).toBeUndefined();
    expect(rublesToKopecks('   ')).toBeUndefined();
  });

  it.each(['abc', '-500', '1,2,3', '10.555', '1e3', '500 руб.'])('is NaN for %j', (text) => {
    expect(rublesToKopecks(text)).toBeNaN();
  });

  it('has no floating-point drift', () => {
    expect(rublesToKopecks('19.99')).toBe(1999);
    expect(rublesToKopecks('0,29')).toBe(29);
  });
});

describe('kopecksToRubles', () => {
  it.each([
    [50_000, '500'],
    [150_050, '1500,50'],
    [150_005, '1500,05'],
    [0, '0'],
  ])('%d → %j', (kopecks, text) => {
    expect(kopecksToRubles(kopecks)).toBe(text);
  });

  it('is blank for no amount', () => {
    expect(kopecksToRubles(null)).toBe('');
    expect(kopecksToRubles(undefined)).toBe('');
  });

  it('round-trips with rublesToKopecks', () => {
    for (const k of [50_000, 123_456, 100_000_000, 1]) expect(rublesToKopecks(kopecksToRubles(k))).toBe(k);
  });
});

describe('whole numbers', () => {
  it('parses digits only', () => {
    expect(parseWhole('7')).toBe(7);
    expect(parseWhole(' 14 ')).toBe(14);
    expect(parseWhole('')).toBeUndefined();
    expect(parseWhole('7,5')).toBeNaN();
    expect(parseWhole('-1')).toBeNaN();
  });

  it('prints them back', () => {
    expect(wholeToText(3)).toBe('3');
    expect(wholeToText(null)).toBe('');
  });
});
