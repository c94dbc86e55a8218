import { eq } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { TxContext } from '../../platform/tx.ts';
import { categories, cities, countries, subCategories } from './schema.ts';

// What other modules read of the reference lists (ADR 049): categories to join under a name of their choice, and
// the look-ups a form needs (a slug to its id, whether a city exists). Never the tables themselves.

const qb = new QueryBuilder();
type Reader = Db | TxContext['tx'];

/** Categories as another module joins them, under the alias `as`. */
export const categoryRefs = <A extends string>(as: A) =>
  qb.select({ id: categories.id, slug: categories.slug, title: categories.title, position: categories.position }).from(categories).as(as);

/** Sub-categories as another module joins them, under the alias `as`. */
export const subCategoryRefs = <A extends string>(as: A) =>
  qb
    .select({ id: subCategories.id, categoryId: subCategories.categoryId, slug: subCategories.slug, title: subCategories.title })
    .from(subCategories)
    .as(as);

/** A category's id by its slug; undefined: no such category. */
export async function categoryBySlug(db: Reader, slug: string): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug)).limit(1);
  return row;
}

/** A sub-category's id and its category's by its slug; undefined: no such sub-category. */
export async function subCategoryBySlug(db: Reader, slug: string): Promise<{ id: string; categoryId: string } | undefined> {
  const [row] = await db
    .select({ id: subCategories.id, categoryId: subCategories.categoryId })
    .from(subCategories)
    .where(eq(subCategories.slug, slug))
    .limit(1);
  return row;
}

/** Whether a city (by id) is on the list. */
export async function cityExists(db: Reader, id: string): Promise<boolean> {
  return (await db.select({ id: cities.id }).from(cities).where(eq(cities.id, id)).limit(1)).length > 0;
}

/** Whether a country (by id) is on the list. */
export async function countryExists(db: Reader, id: string): Promise<boolean> {
  return (await db.select({ id: countries.id }).from(countries).where(eq(countries.id, id)).limit(1)).length > 0;
}

/** Cities as another module joins them (a person's city, by its title), under the alias `as`. */
export const cityRefs = <A extends string>(as: A) => qb.select({ id: cities.id, title: cities.title }).from(cities).as(as);

/** Countries as another module joins them (a person's country, by its title), under the alias `as`. */
export const countryRefs = <A extends string>(as: A) => qb.select({ id: countries.id, title: countries.title }).from(countries).as(as);
