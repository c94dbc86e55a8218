// How a service leaves the module: the rows a page needs, joined, and the answers SPEC §7 gives for them.
import { getTableColumns } from 'drizzle-orm';
import type { Service, ServiceCard } from '#contract/catalog';
import { services } from './schema.ts';
import { categoryRefs, subCategoryRefs } from '../lookups/index.ts';
import { people, presentPublicUser, publicPersonColumns, type PublicUserRow, type UserRow } from '../users/index.ts';

export type ServiceRow = typeof services.$inferSelect;
/** A service row without its search document (never needed outside SQL). */
export type ServiceData = Omit<ServiceRow, 'search'>;

export const { search: _search, ...serviceColumns } = getTableColumns(services);

/** One service with what presenting it needs. */
export interface ServiceJoined {
  service: ServiceData;
  /** The seller's public face, and what the policies and their letters need. */
  seller: PublicUserRow & Pick<UserRow, 'email' | 'preferences' | 'blockedAt'>;
  categorySlug: string;
  categoryTitle: string;
  subSlug: string | null;
}

/** What a service's page joins: its seller, category and sub-category (selectDetail's joins). */
export const detailSeller = people('seller');
export const detailCategory = categoryRefs('category');
export const detailSub = subCategoryRefs('sub');

export const detailSelection = {
  service: serviceColumns,
  seller: {
    ...publicPersonColumns(detailSeller),
    email: detailSeller.email,
    preferences: detailSeller.preferences,
    blockedAt: detailSeller.blockedAt,
  },
  categorySlug: detailCategory.slug,
  categoryTitle: detailCategory.title,
  subSlug: detailSub.slug,
};

export function presentServiceCard(
  row: Pick<ServiceData, 'id' | 'title' | 'images' | 'price' | 'days' | 'rating' | 'reviewsCount'> & {
    categorySlug: string;
    seller: PublicUserRow;
  },
  online: boolean,
): ServiceCard {
  return {
    _id: row.id,
    title: row.title,
    cover: row.images[0] ?? null,
    price: row.price,
    days: row.days,
    category: row.categorySlug,
    rating: row.rating / 100,
    reviews_count: row.reviewsCount,
    seller: presentPublicUser(row.seller, online),
  };
}

/**
 * A service as SPEC §7 answers it. `withPending`: the viewer is its owner or an admin, who also see an edit waiting
 * for moderation (everyone else sees only the approved version).
 */
export function presentService(row: ServiceJoined, online: boolean, withPending = false): Service {
  const s = row.service;
  const pending = withPending && s.pendingEdit ? { ...s.pendingEdit.view, submitted_at: s.pendingEdit.submittedAt } : null;
  return {
    ...presentServiceCard({ ...s, categorySlug: row.categorySlug, seller: row.seller }, online),
    description: s.description,
    sub: row.subSlug,
    category_title: row.categoryTitle,
    tags: s.tags,
    images: s.images,
    revisions: s.revisions,
    packages: s.packages,
    extras: s.extras,
    status: s.status,
    reject_reason: s.rejectReason,
    views: s.views,
    orders_count: s.ordersCount,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
    ...(withPending ? { pending_edit: pending } : {}),
  };
}
