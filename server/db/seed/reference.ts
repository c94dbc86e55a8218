import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { categories, cities, countries, subCategories, tags } from '../../modules/lookups/schema.ts';
import { settings } from '../../platform/schema.ts';
import { categories as refCategories } from '../reference/categories.ts';
import { cities as refCities } from '../reference/cities.ts';
import { countries as refCountries } from '../reference/countries.ts';
import { tags as refTags } from '../reference/tags.ts';

const excluded = (column: string) => sql.raw(`excluded.${column}`);

/** Bump when seedReference writes the same lists differently, so that every database is seeded again. */
const SEED_FORMAT = 1;
/** The settings row holding the version of the reference lists a database was last seeded with. */
export const REFERENCE_VERSION_KEY = 'reference-version';

/** The version of the reference lists: a hash of their content (well under a millisecond). */
export function referenceVersion(lists: unknown = [refCountries, refCities, refCategories, refTags]): string {
  return createHash('sha256').update(JSON.stringify([SEED_FORMAT, lists])).digest('hex').slice(0, 16);
}

/**
 * Upserts the reference lists (not demo data: every instance has them), skipped when the database already holds
 * this version of them (a restart then costs one read instead of five upserts: ADR 018). Answers whether it seeded.
 */
export async function seedReference(db: Db, version = referenceVersion()): Promise<boolean> {
  const [stored] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, REFERENCE_VERSION_KEY));
  if (stored?.value === version) return false;
  await db.transaction(async (tx) => {
    await tx
      .insert(countries)
      .values(refCountries.map((c) => ({ code: c.code, title: c.title })))
      .onConflictDoUpdate({ target: countries.code, set: { title: excluded('title') } });
    await tx
      .insert(cities)
      .values(refCities.map((c) => ({ title: c.title, countryCode: c.country })))
      .onConflictDoUpdate({ target: cities.title, set: { countryCode: excluded('country_code') } });
    const cats = await tx
      .insert(categories)
      .values(refCategories.map((c, position) => ({ slug: c.slug, title: c.title, position })))
      .onConflictDoUpdate({ target: categories.slug, set: { title: excluded('title'), position: excluded('position') } })
      .returning({ id: categories.id, slug: categories.slug });
    const idBySlug = new Map(cats.map((c) => [c.slug, c.id]));
    await tx
      .insert(subCategories)
      .values(
        refCategories.flatMap((c) =>
          c.subs.map((s, position) => ({ categoryId: idBySlug.get(c.slug)!, slug: s.slug, title: s.title, position })),
        ),
      )
      .onConflictDoUpdate({
        target: subCategories.slug,
        set: { title: excluded('title'), position: excluded('position'), categoryId: excluded('category_id') },
      });
    await tx
      .insert(tags)
      .values(refTags.map((tag) => ({ tag })))
      .onConflictDoNothing();
    await tx
      .insert(settings)
      .values({ key: REFERENCE_VERSION_KEY, value: version })
      .onConflictDoUpdate({ target: settings.key, set: { value: version, updatedAt: new Date() } });
  });
  return true;
}
