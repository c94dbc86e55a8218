import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { inOwnMillisecond } from './factories.ts';
import { projects } from '../modules/projects/schema.ts';
import { services } from '../modules/services/schema.ts';
import { categories, subCategories } from '../modules/lookups/schema.ts';

// Catalog factories (tests and the demo seed): valid rows in reference categories, every column overridable.

// ---------------------------------------------------------------------------------------------------------
// Projects (customers' requests).
// ---------------------------------------------------------------------------------------------------------

export interface ProjectOverrides extends Partial<typeof projects.$inferInsert> {
  /** Category slug (default "development"); sub-category slug, which must belong to it. */
  category?: string;
  sub?: string | null;
}

// Titles are numbered with "#", not "№": "№12" is how people search the admin area for order 12, and an order takes
// its service's title, so a factory title "…№12" would also answer that search.
let projectSequence = 0;

/** A valid active project of `customerId` in a reference category; every column can be overridden. */
export async function createProject(db: Db, customerId: string, overrides: ProjectOverrides = {}): Promise<typeof projects.$inferSelect> {
  const n = ++projectSequence;
  const { category = 'development', sub = null, ...rest } = overrides;
  const [cat] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, category));
  if (!cat) throw new Error(`createProject: no category ${category}`);
  let subCategoryId: string | null = null;
  if (sub) {
    const [row] = await db.select({ id: subCategories.id }).from(subCategories).where(eq(subCategories.slug, sub));
    if (!row) throw new Error(`createProject: no sub-category ${sub}`);
    subCategoryId = row.id;
  }
  const [row] = await inOwnMillisecond(() =>
    db
      .insert(projects)
      .values({
        customerId,
        title: `Нужен лендинг для кофейни #${n}`,
        description: 'Нужно сделать одностраничный сайт с меню, контактами и формой заказа столика.',
        categoryId: cat.id,
        subCategoryId,
        budget: 1_500_000,
        days: 7,
        ...rest,
      })
      .returning(),
  );
  return row!;
}

// ---------------------------------------------------------------------------------------------------------
// Services (kworks).
// ---------------------------------------------------------------------------------------------------------

export interface ServiceOverrides extends Partial<typeof services.$inferInsert> {
  /** Category slug (default "design"); sub-category slug, which must belong to it. */
  category?: string;
  sub?: string | null;
}

let serviceSequence = 0;

/**
 * A valid active, published service of `sellerId` in a reference category; every column can be overridden
 * (tags_text follows the tags unless given).
 */
export async function createService(db: Db, sellerId: string, overrides: ServiceOverrides = {}): Promise<typeof services.$inferSelect> {
  const n = ++serviceSequence;
  const { category = 'design', sub = null, ...rest } = overrides;
  const [cat] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, category));
  if (!cat) throw new Error(`createService: no category ${category}`);
  let subCategoryId: string | null = null;
  if (sub) {
    const [row] = await db.select({ id: subCategories.id, categoryId: subCategories.categoryId }).from(subCategories).where(eq(subCategories.slug, sub));
    if (!row || row.categoryId !== cat.id) throw new Error(`createService: no sub-category ${sub} in ${category}`);
    subCategoryId = row.id;
  }
  const tags = rest.tags ?? ['презентация'];
  const status = rest.status ?? 'active';
  const [row] = await inOwnMillisecond(() =>
    db
      .insert(services)
      .values({
        sellerId,
        title: `Сделаю презентацию для вашего бизнеса #${n}`,
        description: 'Подготовлю презентацию до 15 слайдов в едином стиле: структура, инфографика, иконки и правки.',
        categoryId: cat.id,
        subCategoryId,
        price: 150_000,
        days: 3,
        publishedAt: status === 'active' || status === 'paused' ? new Date() : null,
        ...rest,
        status,
        tags,
        tagsText: rest.tagsText ?? tags.join(' '),
      })
      .returning(),
  );
  return row!;
}
