import type { CatalogueCategory } from '#contract/ssr';
import { pageNotFound } from '../../lib/guards.ts';

/** A listing's {slug}: absent, "all", or a known category; anything else fails page validation (404). */
export async function categoryParam(slug: string | undefined, catalogue: () => Promise<CatalogueCategory[]>) {
  if (!slug || slug === 'all') return null;
  const found = (await catalogue()).find((c) => c.slug === slug);
  if (!found) throw pageNotFound();
  return found;
}
