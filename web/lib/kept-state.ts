import { useCallback, useState } from 'react';

// SPEC §2 route options: the freelancers, projects and services pages keep their state under a cache
// key while the user visits other pages, like a kept-alive page. Kept per tab, for this visit.
const kept = new Map<string, unknown>();

export function useKeptState<T>(cacheKey: string, initial: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => (kept.has(cacheKey) ? (kept.get(cacheKey) as T) : initial));
  const set = useCallback(
    (next: T) => {
      kept.set(cacheKey, next);
      setValue(next);
    },
    [cacheKey],
  );
  return [value, set];
}

export const KEPT_PAGES = { freelancers: 'freelancers', projects: 'projects', services: 'services' } as const;
