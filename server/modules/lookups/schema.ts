import { pgTable, text, uuid, integer, index } from 'drizzle-orm/pg-core';

// SPEC §3 lookup lists: reference data that every instance has, seeded at boot.

export const countries = pgTable('countries', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  title: text('title').notNull(),
});

export const cities = pgTable(
  'cities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull().unique(),
    countryCode: text('country_code')
      .notNull()
      .references(() => countries.code),
  },
  (t) => [index('cities_country_idx').on(t.countryCode)],
);

export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  position: integer('position').notNull().default(0),
});

export const subCategories = pgTable(
  'sub_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('sub_categories_category_idx').on(t.categoryId)],
);

export const tags = pgTable('tags', {
  id: uuid('id').primaryKey().defaultRandom(),
  tag: text('tag').notNull().unique(),
});
