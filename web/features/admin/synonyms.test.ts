import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_SYNONYMS } from '#contract/settings';
import { firstError, groupsText, parseGroups, suggestionsFilters, suggestionsTab, synonymsProblem } from './synonyms.ts';

const params = (q: string) => new URLSearchParams(q);

describe('suggestionsFilters', () => {
  it.each([
    ['', { hidden: false, q: '' }],
    ['hidden=1', { hidden: true, q: '' }],
    ['hidden=true', { hidden: false, q: '' }],
    ['hidden=0&q=%20логотип%20', { hidden: false, q: 'логотип' }],
    ['q=%20%20', { hidden: false, q: '' }],
  ])('%s → %j', (q, filters) => {
    expect(suggestionsFilters(params(q))).toEqual(filters);
  });
});

describe('suggestionsTab', () => {
  it.each([
    ['', true, '?hidden=1'],
    ['', false, '/admin/search-suggestions'],
    ['hidden=1', false, '/admin/search-suggestions'],
    ['hidden=1', true, '?hidden=1'],
    ['q=bot', true, '?q=bot&hidden=1'],
    ['q=bot&hidden=1', false, '?q=bot'],
  ])('from %j to hidden %s → %s', (q, toHidden, link) => {
    expect(suggestionsTab(params(q), toHidden)).toBe(link);
  });
});

describe('the synonyms’ text', () => {
  it('writes one group a line, words separated by commas', () => {
    expect(groupsText([['seo', 'сео'], ['бот', 'bot', 'телеграм-бот']])).toBe('seo, сео\nбот, bot, телеграм-бот');
    expect(groupsText([])).toBe('');
  });

  it('reads words trimmed, dropping empty words and lines', () => {
    expect(parseGroups(' seo ,сео,, \n\n  \nбот, bot\n,')).toEqual([
      ['seo', 'сео'],
      ['бот', 'bot'],
    ]);
    expect(parseGroups('')).toEqual([]);
  });

  it('reads a Windows line end as the end of a line', () => {
    expect(parseGroups('a, b\r\nc, d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads back what it writes, for the default dictionary', () => {
    expect(parseGroups(groupsText(DEFAULT_SEARCH_SYNONYMS))).toEqual(DEFAULT_SEARCH_SYNONYMS);
  });
});

describe('synonymsProblem', () => {
  it.each([
    [[], null],
    [[['a', 'b']], null],
    [[['a']], 'Строка 1: в группе нужно хотя бы два слова через запятую'],
    [[['a', 'b'], ['c', 'd'], ['e']], 'Строка 3: в группе нужно хотя бы два слова через запятую'],
    [[['a'], ['b']], 'Строка 1: в группе нужно хотя бы два слова через запятую'],
  ])('%j → %j', (groups, problem) => {
    expect(synonymsProblem(groups)).toBe(problem);
  });

  it('numbers the lines of the parsed groups, after empty lines are dropped', () => {
    expect(synonymsProblem(parseGroups('a, b\n\nc'))).toBe('Строка 2: в группе нужно хотя бы два слова через запятую');
  });
});

describe('firstError', () => {
  it.each([
    [{ message: 'Проверьте поля', errors: { 'search.synonyms.3': ['Слово длиннее 50 символов'] } }, 'Слово длиннее 50 символов'],
    [{ message: 'Проверьте поля', errors: { a: ['первая'], b: ['вторая'] } }, 'первая'],
    [{ message: 'Нет доступа' }, 'Нет доступа'],
    [{ message: 'Запасное', errors: {} }, 'Запасное'],
    [{ message: 'Запасное', errors: { a: [] } }, 'Запасное'],
  ])('%j → %s', (error, text) => {
    expect(firstError(error)).toBe(text);
  });
});
