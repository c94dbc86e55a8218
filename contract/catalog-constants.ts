// The catalogue's plain values, without zod: the web app's pages import these, so a guest's browser does not load
// zod to show a listing (issue 11). contract/catalog.ts re-exports them beside its schemas.

import { formatRubles } from './money-format.ts';

/** A search text as suggestions compare it: lower case, ё as е, single spaces (the header box and the API). */
export const foldSearch = (text: string) => text.toLocaleLowerCase('ru').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/** The default minimum price of a service (PRODUCT.md: 500 руб.); the operator's is the setting services.minPrice. */
export const MIN_SERVICE_PRICE = 50_000;
/** The lowest the operator's minimum price may go, kopecks: the services' schemas hold prices above it. */
export const MIN_PRICE_FLOOR = 100;

/** A minimum price as the messages write it: 50000 → "500 руб.", 150050 → "1 500,50 руб.". */
const minPriceText = formatRubles;

/**
 * The field errors of a service's price and packages' prices below the operator's minimum (setting
 * services.minPrice): the server's answer and the seller's form say the same.
 */
export function belowMinPrice(input: { price?: number | null; packages?: readonly { price?: number | null }[] }, min: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (typeof input.price === 'number' && input.price < min) errors.price = [`Минимальная цена — ${minPriceText(min)}`];
  input.packages?.forEach((p, i) => {
    if (typeof p.price === 'number' && p.price < min) errors[`packages.${i}.price`] = [`Цена — от ${minPriceText(min)}`];
  });
  return errors;
}
export const MAX_PRICE = 100_000_000; // 1 000 000 ₽
export const MAX_SERVICE_IMAGES = 10;
export const LISTING_MAX_LIMIT = 60;
export const LISTING_DEFAULT_LIMIT = 24;

export const SERVICE_SORTS = ['popular', 'new', 'price_asc', 'price_desc', 'rating'] as const;
export const PROJECT_SORTS = ['new', 'budget_desc', 'bids'] as const;
export const FREELANCER_SORTS = ['rating', 'orders', 'new'] as const;
export const SELLER_LEVELS = ['new', 'advanced', 'pro'] as const;
export type SellerLevel = (typeof SELLER_LEVELS)[number];
export const SELLER_LEVEL_TITLES: Record<SellerLevel, string> = {
  new: 'Новичок',
  advanced: 'Продвинутый',
  pro: 'Профессионал',
};

/** A service's states (ARCHITECTURE: draft → moderation → active | rejected; paused by the seller; hidden by an admin). */
export const SERVICE_STATUSES = ['draft', 'moderation', 'active', 'rejected', 'paused', 'hidden'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
/** A project's states: active (open for bids), in progress, closed, archived (PROJECT_ARCHIVE_DAYS), hidden by an admin. */
export const PROJECT_STATUSES = ['active', 'in_progress', 'closed', 'archived', 'hidden'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** What a favourite points at (SPEC §3). */
export const FAVORITE_TYPES = ['service', 'project', 'freelancer'] as const;
export type FavoriteType = (typeof FAVORITE_TYPES)[number];

export const PACKAGE_KINDS = ['economy', 'standard', 'business'] as const;
export const PACKAGE_TITLES = { economy: 'Эконом', standard: 'Стандарт', business: 'Бизнес' } as const;

