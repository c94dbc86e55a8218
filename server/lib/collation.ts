/**
 * Russian collation for small lookup lists: ё right after е, Cyrillic before Latin.
 * PGlite has no ICU Russian collation, so lists are sorted here, identically on both databases.
 */
const collator = new Intl.Collator('ru', { sensitivity: 'variant', numeric: true });

export function sortByRussian<T>(items: T[], key: (item: T) => string): T[] {
  return [...items].sort((a, b) => collator.compare(key(a), key(b)));
}
