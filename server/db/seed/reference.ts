import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { categories, cities, countries, subCategories, tags } from '../schema/lookups.ts';
import { categories as refCategories } from '../reference/categories.ts';
import { cities as refCities } from '../reference/cities.ts';
import { countries as refCountries } from '../reference/countries.ts';
import { tags as refTags } from '../reference/tags.ts';

const excluded = (column: string) => sql.raw(`excluded.${column}`);

/** Upserts the reference lists (not demo data: every instance has them). Idempotent, run at every boot. */
export async function seedReference(db: Db) {
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
  });
}
