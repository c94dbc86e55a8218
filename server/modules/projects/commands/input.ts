import type { z } from 'zod';
import type { Db } from '../../../db/client.ts';
import { categoryBySlug, subCategoryBySlug } from '../../lookups/index.ts';
import { badRequest } from '../../../lib/http.ts';
import { ownedFile } from '../../../platform/files.ts';
import { MODERATION_MESSAGES } from '#contract/moderation';
import { MESSAGES } from '#contract/messages';
import { CATALOG_MESSAGES, type projectInputSchema } from '#contract/catalog';

// The project form as the commands store it (the customer's create and edit, the admin's edit).

// Candidates for contract/catalog.ts once the web client shows them.
export const PROJECT_MESSAGES = {
  notYourFile: 'Файл должен быть загружен вами',
  hideReason: MODERATION_MESSAGES.hideReason,
} as const;

export type ProjectInputData = z.output<typeof projectInputSchema>;

export const cannotChange = () => badRequest(CATALOG_MESSAGES.cannotChange);

/** Category and sub-category ids of a form, and its attachments checked to be `ownerId`'s uploads. */
export async function resolveProjectInput(db: Db, ownerId: string, input: ProjectInputData) {
  const errors: Record<string, string[]> = {};
  const category = await categoryBySlug(db, input.category);
  if (!category) errors.category = [CATALOG_MESSAGES.unknownCategory];
  let subCategoryId: string | null = null;
  if (input.sub) {
    const sub = await subCategoryBySlug(db, input.sub);
    if (!sub || (category && sub.categoryId !== category.id)) errors.sub = [CATALOG_MESSAGES.unknownSub];
    else subCategoryId = sub.id;
  }
  const attachments = [...new Set(input.attachments)];
  const owned = await Promise.all(attachments.map((path) => ownedFile(db, ownerId, path)));
  if (owned.some((file) => !file)) errors.attachments = [PROJECT_MESSAGES.notYourFile];
  if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
  return {
    title: input.title,
    description: input.description,
    categoryId: category!.id,
    subCategoryId,
    budget: input.budget ?? null,
    days: input.days ?? null,
    attachments,
  };
}
