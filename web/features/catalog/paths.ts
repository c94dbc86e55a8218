import type { CatalogueCategory } from '#contract/ssr';

// Addresses of catalogue items. A service or project lives under its category's slug
// (/services/{slug}/{id}); the API names categories by slug.

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string | undefined): value is string => !!value && UUID_RE.test(value);

export function findCategory(catalogue: readonly CatalogueCategory[], ref: string | null | undefined) {
  if (!ref) return undefined;
  return catalogue.find((c) => c.slug === ref);
}

export function findSub(category: CatalogueCategory | undefined, ref: string | null | undefined) {
  if (!category || !ref) return undefined;
  return category.subs.find((s) => s.slug === ref);
}

/** The category slug of an item ("all" when the category is unknown, which still resolves and redirects). */
export const categorySlug = (catalogue: readonly CatalogueCategory[], ref: string | null | undefined) =>
  findCategory(catalogue, ref)?.slug ?? (ref && /^[a-z0-9-]+$/.test(ref) ? ref : 'all');

export const servicePath = (catalogue: readonly CatalogueCategory[], s: { _id: string; category: string }) =>
  `/services/${categorySlug(catalogue, s.category)}/${s._id}`;

export const projectPath = (catalogue: readonly CatalogueCategory[], p: { _id: string; category: string }) =>
  `/projects/${categorySlug(catalogue, p.category)}/${p._id}`;
