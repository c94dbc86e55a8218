import type { Db } from '../../../db/client.ts';
import { categoryBySlug, subCategoryBySlug } from '../../lookups/index.ts';
import { badRequest } from '../../../lib/http.ts';
import { FILE_MESSAGES, ownedFile } from '../../../platform/files.ts';
import { CATALOG_MESSAGES, type ServiceEditView } from '#contract/catalog';
import { MESSAGES } from '#contract/messages';
import { belowMinPrice, MIN_SERVICE_PRICE } from '#contract/catalog-constants';
import type { ServiceCatalogDeps, ServiceInputData } from '../deps.ts';
import { normalizeTags, oneLine, storable } from '../text.ts';

// A service's input as its columns: checked against the catalogue (categories, the seller's files, the minimum
// price) and normalised as stored. Shared by the seller's and the admin's changes.

export const fieldError = (field: string, message: string) => badRequest(MESSAGES.validation, { [field]: [message] });

/** The 400 of a change the service's state does not allow (or that another change made impossible meanwhile). */
export const cannotChange = () => badRequest(CATALOG_MESSAGES.cannotChange);

/** Category and sub-category slugs to ids; the sub-category must belong to the category. */
async function resolveCategory(
  db: Db,
  input: Pick<ServiceInputData, 'category' | 'sub'>,
): Promise<{ categoryId: string; subCategoryId: string | null }> {
  const category = await categoryBySlug(db, input.category);
  if (!category) throw fieldError('category', CATALOG_MESSAGES.unknownCategory);
  if (!input.sub) return { categoryId: category.id, subCategoryId: null };
  const sub = await subCategoryBySlug(db, input.sub);
  if (!sub || sub.categoryId !== category.id) throw fieldError('sub', CATALOG_MESSAGES.unknownSub);
  return { categoryId: category.id, subCategoryId: sub.id };
}

/** Every image must be an image file the seller uploaded. */
async function checkImages(db: Db, sellerId: string, images: readonly string[]): Promise<string[]> {
  const unique = [...new Set(images)];
  const errors: Record<string, string[]> = {};
  const found = await Promise.all(unique.map((url) => ownedFile(db, sellerId, url)));
  found.forEach((file, i) => {
    if (!file) errors[`images.${i}`] = [CATALOG_MESSAGES.notYourImage];
    else if (!file.mime.startsWith('image/')) errors[`images.${i}`] = [FILE_MESSAGES.badType];
  });
  if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
  return unique;
}

/** The price and every package's price at least the operator's minimum (ADR 036). */
async function checkPrices(minPrice: ServiceCatalogDeps['minPrice'], input: ServiceInputData) {
  const errors = belowMinPrice(input, (await minPrice?.()) ?? MIN_SERVICE_PRICE);
  if (Object.keys(errors).length) throw badRequest(MESSAGES.validation, errors);
}

/** The columns of a service from a valid input (the seller's files, known categories). */
export async function serviceFields({ db, minPrice }: Pick<ServiceCatalogDeps, 'db' | 'minPrice'>, sellerId: string, input: ServiceInputData) {
  const title = oneLine(input.title);
  // Control characters passed the length check but are not kept.
  if (title.length < 10) throw fieldError('title', 'Название — от 10 символов');
  await checkPrices(minPrice, input);
  const { categoryId, subCategoryId } = await resolveCategory(db, input);
  const tags = normalizeTags(input.tags);
  return {
    title,
    description: storable(input.description),
    categoryId,
    subCategoryId,
    tags,
    tagsText: tags.join(' '),
    images: await checkImages(db, sellerId, input.images),
    price: input.price,
    days: input.days,
    revisions: input.revisions,
    packages: input.packages.map((p) => ({ ...p, description: storable(p.description) })),
    extras: input.extras.map((x) => ({ ...x, title: oneLine(x.title) })),
  };
}

export type ServiceFields = Awaited<ReturnType<typeof serviceFields>>;

/** An edit as its form shows it: the categories by slug, the rest as it will be stored. */
export function editView(input: ServiceInputData, values: ServiceFields): ServiceEditView {
  const { title, description, tags, images, price, days, revisions, packages, extras } = values;
  return { title, description, category: input.category, sub: input.sub ?? null, tags, images, price, days, revisions, packages, extras };
}
