import { createContext, useContext } from 'react';
import type { CatalogueCategory } from '#contract/ssr';

// The catalogue tree (categories and their sub-categories) is not in any page's hydration data (issue 11): the
// server renders with it from this context; the browser fetches it before hydrating, from the file the root
// preloads (/catalogue/<hash>.json, kept by the browser until the catalogue changes; ADR 021).

/** Set by the server render (web/entry.server.tsx); absent in the browser. */
export const CatalogueContext = createContext<CatalogueCategory[] | null>(null);

const NONE: CatalogueCategory[] = [];
let loaded: CatalogueCategory[] | null = null;

/** The preload the root renders (`<link rel="preload" as="fetch">`), which names the file. */
export const CATALOGUE_PRELOAD = 'link[rel="preload"][as="fetch"][href^="/catalogue/"]';

/**
 * Fetches the tree named by the page's preload (web/entry.client.tsx awaits it before hydrating). Without it
 * (a network failure) menus hydrate empty and React renders them again on the client.
 */
export async function loadCatalogue(): Promise<void> {
  const href = document.querySelector<HTMLLinkElement>(CATALOGUE_PRELOAD)?.href;
  if (!href) return;
  try {
    const res = await fetch(href);
    if (res.ok) loaded = (await res.json()) as CatalogueCategory[];
  } catch {
    // Offline: see above.
  }
}

export function useCatalogue(): CatalogueCategory[] {
  return useContext(CatalogueContext) ?? loaded ?? NONE;
}
