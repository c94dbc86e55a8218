import type { ApiError } from '#contract/api';

// /admin/search-suggestions: its filters, its tabs' links, and the synonym dictionary as the text area shows it
// (one group a line, its words separated by commas; ADR 028).

/** The page's filters: the hidden suggestions' tab, and the words searched for (trimmed). */
export const suggestionsFilters = (params: URLSearchParams) => ({
  hidden: params.get('hidden') === '1',
  q: params.get('q')?.trim() ?? '',
});

/** The same address on the shown or the hidden tab (the page's own path when nothing is left). */
export function suggestionsTab(params: URLSearchParams, toHidden: boolean): string {
  const next = new URLSearchParams(params);
  if (toHidden) next.set('hidden', '1');
  else next.delete('hidden');
  const search = next.toString();
  return search ? `?${search}` : '/admin/search-suggestions';
}

/** Groups as the text area shows them. */
export const groupsText = (groups: string[][]) => groups.map((g) => g.join(', ')).join('\n');

/** The text area's groups: words trimmed, empty words and empty lines dropped. */
export const parseGroups = (text: string) =>
  text
    .split('\n')
    .map((line) =>
      line
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean),
    )
    .filter((g) => g.length > 0);

/** A group of one word finds nothing more: the line that has one is named. */
export function synonymsProblem(groups: string[][]): string | null {
  const lonely = groups.findIndex((g) => g.length < 2);
  return lonely >= 0 ? `Строка ${lonely + 1}: в группе нужно хотя бы два слова через запятую` : null;
}

/** The server's refusal in one line: its first field error, else its message. */
export const firstError = (error: Pick<ApiError, 'message' | 'errors'>) => Object.values(error.errors ?? {})[0]?.[0] ?? error.message;
