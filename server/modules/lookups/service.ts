import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categories, cities, countries, subCategories, tags } from './schema.ts';
import { sortByRussian } from '../../lib/collation.ts';
import { ok } from '../../lib/http.ts';
import { Precompressed } from '../../lib/precompressed.ts';
import type { Category, City, Country, SubCategory, Tag } from '#contract/api';

// Reference lists change only with a deploy or an admin edit: cache them per process.
const TTL_MS = 60_000;
/**
 * Browsers keep a list as long as a process does, then revalidate it with its ETag (a 304). Shared caches may keep
 * the public lists; the tags answer only signed-in users and stays private.
 */
export const LOOKUP_CACHE_CONTROL = `public, max-age=${TTL_MS / 1000}`;
export const PRIVATE_LOOKUP_CACHE_CONTROL = `private, max-age=${TTL_MS / 1000}`;
const JSON_TYPE = 'application/json; charset=utf-8';
/** The catalogue file is named by its content: a browser keeps it until the catalogue changes. */
export const CATALOGUE_FILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The catalogue tree as the file every page loads once (ADR 021): its address and its bytes. */
export interface CatalogueFile {
  path: string;
  answer: Precompressed;
}

export type LookupList = 'cities' | 'countries' | 'categories' | 'subCategories' | 'tags';
/** The endpoints that answer a whole list, and their list. */
export const LOOKUP_ENDPOINTS = {
  'lookups.cities': 'cities',
  'lookups.countries': 'countries',
  'lookups.categories': 'categories',
  'lookups.subCategories': 'subCategories',
  'lookups.tags': 'tags',
} as const satisfies Record<string, LookupList>;

export class LookupService {
  private cache = new Map<string, { at: number; value: unknown }>();

  constructor(private readonly db: Db) {}

  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const value = await load();
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  /** The SPEC answer `{ status, result, total }` of a list, serialised and compressed once per cache period. */
  answer(list: LookupList): Promise<Precompressed> {
    return this.cached(`answer:${list}`, async () => {
      const result: unknown[] = await this[list]();
      return new Precompressed(JSON.stringify(ok(result, result.length)), JSON_TYPE);
    });
  }

  /** The answer while it is fresh, without waiting: the HTTP edge serves it from memory (ADR 019). */
  peek(list: LookupList): Precompressed | undefined {
    const hit = this.cache.get(`answer:${list}`);
    return hit && Date.now() - hit.at < TTL_MS ? (hit.value as Precompressed) : undefined;
  }

  /**
   * The catalogue tree as JSON at an address named by its hash: pages preload it instead of carrying the tree in
   * their hydration data, and a browser downloads it once.
   */
  catalogueFile(): Promise<CatalogueFile> {
    return this.cached('catalogueFile', async () => {
      const body = JSON.stringify(await this.catalogue());
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
      return { path: `/catalogue/${hash}.json`, answer: new Precompressed(body, JSON_TYPE) };
    });
  }

  invalidate() {
    this.cache.clear();
  }

  cities(): Promise<City[]> {
    return this.cached('cities', async () => {
      const rows = await this.db.select().from(cities);
      return sortByRussian(rows, (r) => r.title).map((r) => ({ _id: r.id, title: r.title, country: r.countryCode }));
    });
  }

  countries(): Promise<Country[]> {
    return this.cached('countries', async () => {
      const rows = await this.db.select().from(countries);
      return sortByRussian(rows, (r) => r.title).map((r) => ({ _id: r.id, title: r.title, code: r.code }));
    });
  }

  categories(): Promise<Category[]> {
    return this.cached('categories', async () => {
      const rows = await this.db.select().from(categories);
      return sortByRussian(rows, (r) => r.title).map((r) => ({ _id: r.id, title: r.title, slug: r.slug }));
    });
  }

  subCategories(): Promise<SubCategory[]> {
    return this.cached('subCategories', async () => {
      const rows = await this.db
        .select({ id: subCategories.id, title: subCategories.title, slug: subCategories.slug, category: categories.slug })
        .from(subCategories)
        .innerJoin(categories, eq(categories.id, subCategories.categoryId));
      return sortByRussian(rows, (r) => r.title).map((r) => ({
        _id: r.id,
        title: r.title,
        slug: r.slug,
        category: r.category,
      }));
    });
  }

  tags(): Promise<Tag[]> {
    return this.cached('tags', async () => {
      const rows = await this.db.select().from(tags);
      return sortByRussian(rows, (r) => r.tag).map((r) => ({ _id: r.id, tag: r.tag }));
    });
  }

  /** The catalogue tree (categories in their editorial order with their sub-categories) for menus. */
  catalogue() {
    return this.cached('catalogue', async () => {
      const cats = await this.db.select().from(categories).orderBy(categories.position);
      const subs = await this.db.select().from(subCategories).orderBy(subCategories.position);
      return cats.map((c) => ({
        slug: c.slug,
        title: c.title,
        subs: subs.filter((s) => s.categoryId === c.id).map((s) => ({ slug: s.slug, title: s.title })),
      }));
    });
  }
}

export type CatalogueTree = Awaited<ReturnType<LookupService['catalogue']>>;
