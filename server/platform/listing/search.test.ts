import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_SYNONYMS, settingsSchema } from '#contract/settings';
import { partialQuery, plainWords, searchTsQuery, synonymIndex, tsQueryText, wordsOf, wordToComplete } from './search.ts';

const index = synonymIndex([
  ['telegram', 'Телеграм'],
  ['wordpress', 'вордпресс'],
  ['google ads', 'гугл адс'],
]);

describe('tsQueryText', () => {
  it('ands the words and makes the last one a prefix while it is typed', () => {
    expect(tsQueryText('логотип для кофейни')).toBe(`'логотип' & 'для' & 'кофейни':*`);
    expect(tsQueryText('лого')).toBe(`'лого':*`);
    // Too short to be a useful prefix.
    expect(tsQueryText('ло')).toBe(`'ло'`);
  });

  it('brings the synonyms of a word, of a phrase, and of what the last word begins', () => {
    expect(tsQueryText('бот телеграм сделать', index)).toBe(`'бот' & ('телеграм' | 'telegram') & 'сделать':*`);
    expect(tsQueryText('ТЕЛЕГРАМ', index)).toBe(`('телеграм':* | 'telegram':*)`);
    expect(tsQueryText('вордп', index)).toBe(`('вордп':* | 'вордпресс':* | 'wordpress':*)`);
    expect(tsQueryText('гугл адс', index)).toBe(`'гугл' & 'адс':*`);
  });

  it('keeps what websearch_to_tsquery reads: phrases, exclusions, or', () => {
    expect(tsQueryText('"фирменный стиль" -брендбук')).toBe(`('фирменный' <-> 'стиль') & !'брендбук'`);
    expect(tsQueryText('логотип or баннер')).toBe(`'логотип' | 'баннер':*`);
    expect(tsQueryText('telegram-бот сделать')).toBe(`'telegram' & 'бот' & 'сделать':*`);
  });

  it('lets nothing but letters and digits into a lexeme, whatever is typed', async () => {
    const q = tsQueryText(`'); drop table services; -- \\ ' :* & | ! <-> "`);
    expect(q).toBe(`'drop' & 'table' & 'services':*`);
    expect(tsQueryText('!!! ---')).toBeNull();
    expect(await searchTsQuery('   ')).toBeNull();
    expect(await searchTsQuery('сео', DEFAULT_SEARCH_SYNONYMS)).toBe(`('сео':* | 'seo':*)`);
  });

  it('completes the last word with the catalogue\'s words as whole words when they are given', () => {
    expect(tsQueryText('лого', index, ['логотип', 'логотипы'])).toBe(`('лого' | 'логотип' | 'логотипы')`);
    expect(tsQueryText('лготип', index, [])).toBe(`'лготип'`);
    expect(tsQueryText('вордп', index, ['вордпресс'])).toBe(`('вордп' | 'вордпресс' | 'wordpress')`);
    expect(wordToComplete('логотип для коф')).toBe('коф');
    expect(wordToComplete('логотип -кофейня')).toBeNull();
    expect(wordToComplete('лендинг ко')).toBeNull();
  });

  it('is bounded: 16 words at most', () => {
    const q = tsQueryText('слово '.repeat(100))!;
    expect(q.split('&')).toHaveLength(16);
  });
});

describe('partialQuery', () => {
  it('makes each word or phrase a query of its own, any of them matching, the excluded ones still excluded', () => {
    expect(partialQuery('лендинг телеграм', index)).toEqual({
      words: [`'лендинг'`, `('телеграм':* | 'telegram':*)`],
      excluded: [],
      any: `('лендинг' | ('телеграм':* | 'telegram':*))`,
    });
    expect(partialQuery('"фирменный стиль" кофейни -кафе')).toEqual({
      words: [`('фирменный' <-> 'стиль')`, `'кофейни'`],
      excluded: [`!'кафе'`],
      any: `(('фирменный' <-> 'стиль') | 'кофейни') & !'кафе'`,
    });
  });

  it('leaves out the dead words searched for alone, but not one with synonyms or completions', () => {
    const dead = new Set(['для', 'барбершопа', 'телеграм']);
    // The last word is a prefix, but none of the catalogue's words begins with it (no completions).
    expect(partialQuery('озвучку для барбершопа', index, [], dead)).toEqual({
      words: [`'озвучку'`],
      excluded: [],
      any: `('озвучку')`,
    });
    // A synonym's group, and the last word's completions, still have words to find.
    expect(partialQuery('телеграм барбершопа бот', index, undefined, dead)?.words).toEqual([`('телеграм' | 'telegram')`, `'бот':*`]);
    expect(partialQuery('озвучку барбершопа', index, ['барбершопами'], dead)?.words).toEqual([`'озвучку'`, `('барбершопа' | 'барбершопами')`]);
    // A word is dead only as a word: within a phrase, or excluded, it stays what it was.
    expect(partialQuery('"для барбершопа" -барбершопа озвучку', index, [], dead)).toEqual({
      words: [`('для' <-> 'барбершопа')`, `'озвучку'`],
      excluded: [`!'барбершопа'`],
      any: `(('для' <-> 'барбершопа') | 'озвучку') & !'барбершопа'`,
    });
    // Nothing left to find; and one word is still no partial search, dead or not.
    expect(partialQuery('для барбершопа', index, [], dead)).toBeNull();
    expect(partialQuery('озвучку', index, [], dead)).toBeNull();
  });

  it('may leave out the plain words, each asked about once', () => {
    expect(plainWords('озвучку для "для барбершопа" -кафе telegram-бот для')).toEqual(['озвучку', 'для', 'telegram', 'бот']);
  });

  it('is null for one word and for a search with or', () => {
    expect(partialQuery('логотип')).toBeNull();
    expect(partialQuery('логотип -кафе')).toBeNull();
    expect(partialQuery('логотип or эмблема')).toBeNull();
    expect(partialQuery('')).toBeNull();
  });
});

describe('the default dictionary', () => {
  it('is a valid setting whose words are searchable words', () => {
    expect(settingsSchema.shape['search.synonyms'].parse(undefined)).toEqual(DEFAULT_SEARCH_SYNONYMS);
    for (const group of DEFAULT_SEARCH_SYNONYMS) for (const w of group) expect(wordsOf(w).length).toBeGreaterThan(0);
  });
});
