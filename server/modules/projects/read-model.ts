import { QueryBuilder } from 'drizzle-orm/pg-core';
import { projects } from './schema.ts';

// What other modules may read of a project (ADR 049): a read-only subquery joined under an alias of the caller's
// choice (`projectRefs('project')`).

const qb = new QueryBuilder();

/** Projects as another module joins them, under the alias `as`. */
export const projectRefs = <A extends string>(as: A) =>
  qb
    .select({
      id: projects.id,
      customerId: projects.customerId,
      title: projects.title,
      description: projects.description,
      categoryId: projects.categoryId,
      subCategoryId: projects.subCategoryId,
      budget: projects.budget,
      days: projects.days,
      attachments: projects.attachments,
      status: projects.status,
      views: projects.views,
      bidsCount: projects.bidsCount,
      createdAt: projects.createdAt,
      updatedAt: projects.updatedAt,
    })
    .from(projects)
    .as(as);
export type ProjectRefs = ReturnType<typeof projectRefs>;
