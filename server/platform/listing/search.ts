import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { searchText } from './listing.ts';

// Search that finds what people mean (ADR 028): a query becomes a `to_tsquery('russian', …)` text built here,
// with the operator's synonyms (Latin/Cyrillic spellings of brands and the like) as alternatives of a word and
// the last word matched as a prefix while it is being typed; a query that finds nothing is corrected word by
// word to the catalogue's nearest words by trigram similarity (search_words, pg_trgm).

/** Synonym groups as the operator setting `search.synonyms` holds them: each a list of interchangeable words. */
export type SynonymGroups = readonly (readonly string[])[];

/** A word as the dictionary and the vocabulary compare it: lower case, ё as е, single spaces. */
export const foldWord = (word: string) => word.toLowerCase().replaceAll('ё', 'е').replace(/\s+/g, ' ').trim();

/** The words (letters and digits) of a text, folded. */
export const wordsOf = (text: string): string[] => (foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? []);

/** The last word matches as a prefix from this many characters on (a shorter one would match half the catalogue). */
export const PREFIX_MIN = 3;
/** Bounds of a built query: words taken from the text, alternatives per word (synonyms and completions). */
const MAX_TERMS = 16;
const MAX_ALTERNATIVES = 8;
/** Words of the catalogue that complete the last word, at most (shortest first: base forms before endings). */
const MAX_COMPLETIONS = 12;

/** The synonym groups indexed by their words; built once per settings value. */
export interface SynonymIndex {
  /** A word (or a phrase of words, space-separated) → every spelling of its group, itself first. */
  groupOf: Map<string, string[]>;
  /** Every entry, for completions of a prefix. */
  entries: string[];
}

const indexes = new WeakMap<SynonymGroups, SynonymIndex>();
const EMPTY: SynonymGroups = [];

/** The index of the operator's groups (kept per groups array, so a settings read that did not change costs nothing). */
export function synonymIndex(groups: SynonymGroups = EMPTY): SynonymIndex {
  let index = indexes.get(groups);
  if (index) return index;
  const groupOf = new Map<string, string[]>();
  for (const group of groups) {
    const spellings = [...new Set(group.map((w) => wordsOf(w).join(' ')).filter(Boolean))];
    for (const spelling of spellings) {
      const known = groupOf.get(spelling) ?? [spelling];
      groupOf.set(spelling, [...new Set([...known, ...spellings])]);
    }
  }
  index = { groupOf, entries: [...groupOf.keys()] };
  indexes.set(groups, index);
  return index;
}

/** A tsquery lexeme: the words of a spelling in a row (`'google' <-> 'ads'`), the last one a prefix if asked. */
function lexemes(spelling: string, prefix: boolean): string {
  const words = spelling.split(' ');
  // Only letters and digits reach here, so quoting cannot be broken out of.
  const parts = words.map((w, i) => `'${w}'${prefix && i === words.length - 1 ? ':*' : ''}`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' <-> ')})`;
}

/** The `to_tsquery` text of a word searched for alone, as a query of several words has it when it has no alternative. */
export const loneWordQuery = (word: string) => lexemes(word, false);

/**
 * One word of the query with its alternatives: its synonyms, and as the last word, what it begins. `completions`:
 * the catalogue's words that begin the last word (completionsOf); given, they are matched as whole words instead
 * of a `:*` prefix, which the planner estimates well (an unknown prefix is estimated at thousands of rows and
 * can send a search for nothing down a walk of the whole popularity index, ADR 028).
 */
function alternatives(word: string, last: boolean, index: SynonymIndex, completions?: readonly string[]): string {
  const prefix = last && word.length >= PREFIX_MIN;
  const spellings = new Set<string>(index.groupOf.get(word) ?? [word]);
  if (prefix) {
    // "вордп" → "вордпресс" → also "wordpress": a completion of a dictionary word brings its group.
    for (const entry of index.entries) {
      if (spellings.size >= MAX_ALTERNATIVES) break;
      if (entry.startsWith(word) && entry !== word) for (const s of index.groupOf.get(entry)!) spellings.add(s);
    }
  }
  const exact = prefix && completions !== undefined;
  const parts = [...spellings].slice(0, MAX_ALTERNATIVES).map((s) => lexemes(s, prefix && !exact));
  if (exact) for (const c of completions.slice(0, MAX_COMPLETIONS)) if (!spellings.has(c)) parts.push(lexemes(c, false));
  return parts.length === 1 ? parts[0]! : `(${parts.join(' | ')})`;
}

/** The plain words of a search (not in a "phrase", not -excluded), each once: those a partial search may leave out. */
export function plainWords(text: string): string[] {
  return [...new Set(terms(text).flatMap((term) => (term.kind === 'word' ? term.words : [])))];
}

/** The last plain word of a search, when it is long enough to be completed (the word completionsOf is asked about). */
export function wordToComplete(text: string): string | null {
  const list = terms(text);
  const last = list[list.length - 1];
  return last?.kind === 'word' && last.words[0]!.length >= PREFIX_MIN ? last.words[0]! : null;
}

/** The catalogue's completions of a search's last word (completionsOf), none when it has no word to complete. */
export async function lastWordCompletions(db: Db, text: string): Promise<string[]> {
  const start = wordToComplete(text);
  return start ? completionsOf(db, start) : [];
}

/** Words of the catalogue beginning with `start` (not `start` itself), shortest first: a few index reads. */
async function completionsOf(db: Db, start: string): Promise<string[]> {
  const result = (await db.execute(sql`
    select word from search_words where word > ${start} and word < ${start} || chr(1114111)
     order by length(word), word limit ${MAX_COMPLETIONS}`)) as unknown as { rows: { word: string }[] };
  return result.rows.map((r) => r.word);
}

interface Term {
  kind: 'word' | 'phrase' | 'not';
  words: string[];
  /** Joined to the term before it with `or` instead of `and`. */
  or: boolean;
}

/** Reads a query as websearch_to_tsquery does: "phrases", -excluded words, `or` between terms; the rest are words. */
function terms(text: string): Term[] {
  const out: Term[] = [];
  let or = false;
  let i = 0;
  while (i < text.length && out.length < MAX_TERMS) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    let token: string;
    let kind: Term['kind'] = 'word';
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      token = text.slice(i + 1, end === -1 ? text.length : end);
      i = end === -1 ? text.length : end + 1;
      kind = 'phrase';
    } else {
      let end = i;
      while (end < text.length && !/\s/.test(text[end]!)) end++;
      token = text.slice(i, end);
      i = end;
      if (token.startsWith('-')) kind = 'not';
    }
    const words = wordsOf(token);
    if (!words.length) continue;
    if (kind === 'word' && words.length === 1 && words[0] === 'or' && out.length && token.toLowerCase() === 'or') {
      or = true;
      continue;
    }
    if (kind === 'word') {
      // "telegram-бот": each word a term of its own.
      for (const [n, word] of words.entries()) out.push({ kind, words: [word], or: n === 0 && or });
    } else {
      out.push({ kind, words, or });
    }
    or = false;
  }
  return out.slice(0, MAX_TERMS);
}

/**
 * The `to_tsquery('russian', …)` text of a search, or null when it has no word. Words are stemmed by the
 * dictionary as websearch_to_tsquery stems them; each plain word brings its synonyms as alternatives; the last
 * plain word of the text (as typed so far) matches as a prefix when it has PREFIX_MIN characters or more.
 */
export function tsQueryText(text: string, index: SynonymIndex = synonymIndex(), completions?: readonly string[]): string | null {
  const list = terms(text);
  if (!list.length) return null;
  const lastWord = list.length - 1;
  const parts = list.map((term, n) => {
    let part: string;
    if (term.kind === 'word') part = alternatives(term.words[0]!, n === lastWord, index, completions);
    else if (term.kind === 'phrase') part = lexemes(term.words.join(' '), false);
    else part = `!${lexemes(term.words.join(' '), false)}`;
    return { part, or: term.or };
  });
  return parts.map((p, n) => (n === 0 ? p.part : `${p.or ? '|' : '&'} ${p.part}`)).join(' ');
}

/** A search's words each as a query of its own, for the partial matches of a search that found nothing. */
export interface PartialQuery {
  /**
   * `to_tsquery` text of each word or "phrase" (with its alternatives, as tsQueryText builds them), but the dead
   * ones: one at least.
   */
  words: string[];
  /** `to_tsquery` text of each -excluded word (`!'word'`): excluded still. */
  excluded: string[];
  /** `to_tsquery` text of any of the words, without the excluded ones: the services worth ranking. */
  any: string;
}

/**
 * The partial form of a search of two or more words or phrases that found nothing as a whole (ADR 044): the
 * services matching any of them, to be ranked by how many they match. Null for one word (nothing is partial
 * about it) and for a search with `or` (it already asks for any of its parts). `dead`: words that no document
 * can match (stop words, words found nowhere: see the services' deadWords); a word searched for alone, without
 * synonyms or completions, is left out when it is one of them, and the form is null when no word is left.
 */
export function partialQuery(
  text: string,
  index: SynonymIndex = synonymIndex(),
  completions?: readonly string[],
  dead: ReadonlySet<string> = new Set(),
): PartialQuery | null {
  const list = terms(text);
  if (list.some((t) => t.or)) return null;
  const lastWord = list.length - 1;
  const words: string[] = [];
  const deadWords = new Set<string>();
  const excluded: string[] = [];
  for (const [n, term] of list.entries()) {
    if (term.kind === 'word') {
      const word = term.words[0]!;
      const query = alternatives(word, n === lastWord, index, completions);
      words.push(query);
      if (dead.has(word) && query === loneWordQuery(word)) deadWords.add(query);
    } else if (term.kind === 'phrase') words.push(lexemes(term.words.join(' '), false));
    else excluded.push(`!${lexemes(term.words.join(' '), false)}`);
  }
  const unique = [...new Set(words)];
  if (unique.length < 2) return null;
  const live = unique.filter((word) => !deadWords.has(word));
  if (!live.length) return null;
  return { words: live, excluded, any: [`(${live.join(' | ')})`, ...excluded].join(' & ') };
}

/**
 * The words of a search (3+ letters, not numbers, not in the synonym dictionary) that the vocabulary does not
 * have: typos, or words found only in descriptions, if anywhere. A word is known in another form too ("логотипа"
 * when the vocabulary has "логотип": the same lexeme, whose frequency the planner's statistics know): the stemmer
 * only cuts endings, so the forms of a lexeme are among the vocabulary words that begin with it. The word being
 * typed (wordToComplete) is known when a vocabulary word begins with it: the query asks for those words
 * (completionsOf). A few index probes per word.
 */
export async function unknownWords(db: Db, text: string, index: SynonymIndex = synonymIndex()): Promise<string[]> {
  const words = [...new Set(wordsOf(text).slice(0, MAX_TERMS))].filter((w) => w.length >= PREFIX_MIN && !index.groupOf.has(w) && !/^\d+$/.test(w));
  if (!words.length) return [];
  const typed = wordToComplete(text) ?? '';
  const result = (await db.execute(sql`
    select q.word from unnest(cast(${wordArray(words)} as text[])) as q(word)
      cross join lateral (select (tsvector_to_array(to_tsvector('russian', q.word)))[1] as lexeme) l
     where not exists (select 1 from search_words w where w.word = q.word)
       and not (q.word = ${typed} and exists (select 1 from search_words w where w.word > q.word and w.word < q.word || chr(1114111)))
       and not exists (select 1 from search_words w where w.word >= l.lexeme and w.word < l.lexeme || chr(1114111)
                          and (tsvector_to_array(to_tsvector('russian', w.word)))[1] = l.lexeme)`)) as unknown as {
    rows: { word: string }[];
  };
  return result.rows.map((r) => r.word);
}

/** A text[] literal of words (letters and digits only, so nothing needs escaping beyond the quotes). */
const wordArray = (words: readonly string[]) => `{${words.map((w) => `"${w}"`).join(',')}}`;

/**
 * The query with its unknown words (as unknownWords finds them) replaced by the catalogue's nearest ones (trigram
 * similarity over search_words, pg_trgm's default threshold 0.3), or null when nothing was replaced. A word the
 * vocabulary has in another form ("логотипа") is not unknown, so it is never replaced: its nearest word is its own
 * lexeme (the same search again) or another word (a search the user did not ask for).
 */
export async function correctedQuery(db: Db, text: string, unknown: readonly string[]): Promise<string | null> {
  if (!unknown.length) return null;
  const result = (await db.execute(sql`
    select q.word, (select w.word from search_words w where w.word % q.word order by similarity(w.word, q.word) desc, w.word limit 1) as nearest
      from unnest(cast(${wordArray(unknown)} as text[])) as q(word)`)) as unknown as { rows: { word: string; nearest: string | null }[] };
  const replace = new Map<string, string>();
  for (const row of result.rows) if (row.nearest) replace.set(row.word, row.nearest);
  if (!replace.size) return null;
  return wordsOf(text)
    .slice(0, MAX_TERMS)
    .map((w) => replace.get(w) ?? w)
    .join(' ');
}

/**
 * The tsquery text of a listing's `q` (searchText, then tsQueryText), or null when there is no search. With `db`,
 * the last word is completed from the catalogue's words (completionsOf) instead of matched as a `:*` prefix.
 */
export async function searchTsQuery(q: string | null | undefined, groups?: SynonymGroups, db?: Db): Promise<string | null> {
  const text = searchText(q);
  if (!text) return null;
  return tsQueryText(text, synonymIndex(groups), db && (await lastWordCompletions(db, text)));
}
