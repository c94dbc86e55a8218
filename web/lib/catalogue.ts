import { createContext, useContext } from 'react';
import { CATALOGUE_GLOBAL, type CatalogueCategory } from '#contract/ssr';

// The catalogue tree (categories and their sub-categories) is not in any page's hydration data (issue 11): the
// server renders with it from this context, and the browser reads it from the script the root links
// (/catalogue/<hash>.js, kept by the browser until the catalogue changes; ADR 021).

declare global {
  interface Window {
    [CATALOGUE_GLOBAL]?: CatalogueCategory[];
  }
}

/** Set by the server render (web/entry.server.tsx); absent in the browser. */
export const CatalogueContext = createContext<CatalogueCategory[] | null>(null);

const NONE: CatalogueCategory[] = [];

export function useCatalogue(): CatalogueCategory[] {
  const rendered = useContext(CatalogueContext);
  if (rendered) return rendered;
  return (typeof window !== 'undefined' && window[CATALOGUE_GLOBAL]) || NONE;
}
