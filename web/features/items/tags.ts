// Tags typed into the service form: at most 10, 2–40 characters each, each once (case-insensitive).

export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 40;

/** Splits typed text into tags: commas separate them, spaces inside a tag are kept. */
export function splitTags(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((t) => t.trim().replace(/\s+/g, ' ').slice(0, MAX_TAG_LENGTH))
    .filter(Boolean);
}

/** Adds tags, skipping repeats (case-insensitive) and anything beyond the limit. */
export function addTags(current: readonly string[], added: readonly string[], max = MAX_TAGS): string[] {
  const next = [...current];
  const seen = new Set(next.map((t) => t.toLocaleLowerCase('ru')));
  for (const tag of added) {
    const key = tag.toLocaleLowerCase('ru');
    if (next.length >= max || seen.has(key)) continue;
    seen.add(key);
    next.push(tag);
  }
  return next;
}
