import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { categoryRefs } from '../lookups/index.ts';
import { projects } from './schema.ts';
import { listedProject } from './policy.ts';

// What the sitemap (the seo module) lists of projects (ADR 047): the listed ones, as the public listing has them
// (policy.ts), in pages of the sitemap's size.

const category = categoryRefs('category');

/** How many projects are listed. */
export async function listedProjectCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projects).where(listedProject());
  return row?.n ?? 0;
}

/** One page of the listed projects in id order, with their category's slug (their page's path). */
export function listedProjectLinks(db: Db, offset: number, limit: number): Promise<{ id: string; slug: string; updatedAt: Date }[]> {
  return db
    .select({ id: projects.id, slug: category.slug, updatedAt: projects.updatedAt })
    .from(projects)
    .innerJoin(category, eq(category.id, projects.categoryId))
    .where(listedProject())
    .orderBy(asc(projects.id))
    .limit(limit)
    .offset(offset);
}
