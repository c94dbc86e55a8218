import { z } from 'zod';
import { okSchema } from './api.ts';
import { fileInfoSchema } from './files.ts';
import {
  FAVORITE_TYPES,
  FREELANCER_SORTS,
  LISTING_DEFAULT_LIMIT,
  LISTING_MAX_LIMIT,
  MAX_PRICE,
  MAX_SERVICE_IMAGES,
  MIN_PRICE_FLOOR,
  PACKAGE_KINDS,
  PROJECT_SORTS,
  PROJECT_STATUSES,
  SELLER_LEVELS,
  SERVICE_SORTS,
} from './catalog-constants.ts';
export { CATALOG_MESSAGES } from './catalog-messages.ts';

// Services (kworks), projects, freelancers and favourites: request bodies, queries and answers.
// Money is integer kopecks everywhere (price: 50000 is 500 руб.). Every number has a range that fits its column
// (integer, int4): prices up to MAX_PRICE, days up to a year, revisions up to 20, page sizes up to
// LISTING_MAX_LIMIT; the packages and extras inside jsonb keep the same ranges.

export * from './catalog-constants.ts';

const money = (what: string) =>
  z
    .number({ error: `Укажите ${what}` })
    .int(`${what[0]!.toUpperCase()}${what.slice(1)} — целое число копеек`)
    .max(MAX_PRICE, 'Слишком большая сумма');
const days = z.number({ error: 'Укажите срок' }).int('Срок — целое число дней').min(1, 'Срок — от 1 дня').max(365, 'Срок — не больше 365 дней');
const revisions = z
  .number({ error: 'Укажите число правок' })
  .int('Число правок — целое')
  .min(0, 'Число правок не может быть отрицательным')
  .max(20, 'Правок — не больше 20');
const uploadPath = z.string().regex(/^\/uploads\/[0-9a-f-]{36}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/, 'Загрузите файл через форму');

export const servicePackageSchema = z.object({
  kind: z.enum(PACKAGE_KINDS),
  // The operator's minimum (setting services.minPrice) is checked by the service; this is its floor.
  price: money('цену пакета').min(MIN_PRICE_FLOOR, 'Цена — от 1\u00a0руб.'),
  days,
  revisions,
  description: z.string().trim().min(3, 'Опишите, что входит в пакет').max(500),
});
export const serviceExtraSchema = z.object({
  title: z.string().trim().min(3, 'Название опции — от 3 символов').max(100),
  price: money('цену опции').min(10_000, 'Опция — от 100\u00a0руб.'),
  days: z.number({ error: 'Укажите срок опции' }).int('Срок — целое число дней').min(0, 'Срок опции — от 0 дней').max(90, 'Срок опции — не больше 90 дней'),
});

export const serviceInputSchema = z.object({
  title: z.string({ error: 'Введите название' }).trim().min(10, 'Название — от 10 символов').max(120, 'Название — до 120 символов'),
  description: z.string({ error: 'Опишите услугу' }).trim().min(50, 'Описание — от 50 символов').max(10_000, 'Описание — до 10 000 символов'),
  category: z.string({ error: 'Выберите категорию' }).min(1, 'Выберите категорию'),
  sub: z.string().optional().nullable(),
  tags: z.array(z.string().trim().min(2).max(40)).max(10, 'Не больше 10 тегов').default([]),
  images: z.array(uploadPath).max(MAX_SERVICE_IMAGES, 'Не больше 10 изображений').default([]),
  price: money('цену').min(MIN_PRICE_FLOOR, 'Цена — от 1\u00a0руб.'),
  days,
  revisions: revisions.default(2),
  packages: z
    .array(servicePackageSchema)
    .max(3)
    .refine((p) => new Set(p.map((x) => x.kind)).size === p.length, 'Каждый пакет — один раз')
    .default([]),
  extras: z.array(serviceExtraSchema).max(10, 'Не больше 10 опций').default([]),
  /** Send to moderation right away (else it stays a draft). */
  publish: z.boolean().default(true),
});
export type ServiceInput = z.input<typeof serviceInputSchema>;

export const serviceStatusActionSchema = z.object({ action: z.enum(['pause', 'resume', 'submit']) });

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(LISTING_MAX_LIMIT).default(LISTING_DEFAULT_LIMIT);
const kopecks = z.coerce.number().int().min(0).max(MAX_PRICE).optional();
const slug = z.string().regex(/^[a-z0-9-]{1,60}$/).optional();

export const servicesQuerySchema = z.object({
  category: slug,
  sub: slug,
  tag: z.string().trim().min(1).max(40).optional(),
  q: z.string().trim().max(200).optional(),
  price_min: kopecks,
  price_max: kopecks,
  days_max: z.coerce.number().int().min(1).max(365).optional(),
  level: z.enum(SELLER_LEVELS).optional(),
  online: z.enum(['1', 'true']).optional(),
  sort: z.enum(SERVICE_SORTS).default('popular'),
  cursor,
  limit,
});

export const projectInputSchema = z.object({
  title: z.string({ error: 'Введите название' }).trim().min(10, 'Название — от 10 символов').max(120, 'Название — до 120 символов'),
  description: z.string({ error: 'Опишите задачу' }).trim().min(30, 'Описание — от 30 символов').max(10_000),
  category: z.string({ error: 'Выберите категорию' }).min(1, 'Выберите категорию'),
  sub: z.string().optional().nullable(),
  budget: money('бюджет').min(50_000, 'Бюджет — от 500\u00a0руб.').nullable().optional(),
  days: days.nullable().optional(),
  attachments: z.array(uploadPath).max(10, 'Не больше 10 файлов').default([]),
});
export type ProjectInput = z.input<typeof projectInputSchema>;

export const projectsQuerySchema = z.object({
  category: slug,
  sub: slug,
  q: z.string().trim().max(200).optional(),
  budget_min: kopecks,
  budget_max: kopecks,
  sort: z.enum(PROJECT_SORTS).default('new'),
  cursor,
  limit,
});

export const freelancersQuerySchema = z.object({
  category: slug,
  online: z.enum(['1', 'true']).optional(),
  level: z.enum(SELLER_LEVELS).optional(),
  sort: z.enum(FREELANCER_SORTS).default('rating'),
  cursor,
  limit,
});

/** A project's own list (/profile/items): every state, or one. */
export const myProjectsQuerySchema = z.object({
  status: z.enum(PROJECT_STATUSES).optional(),
  cursor,
  limit,
});

/** A keyset page without a total estimate: SPEC's `{ status, result, total }` plus the cursor of the next page (null on the last). */
export const keysetPageSchema = <T extends z.ZodType>(item: T) => okSchema(z.array(item)).extend({ next: z.string().nullable() });

/** At most this many of a seller's services in one answer (their public page lists this many). */
export const SELLER_SERVICES_MAX = 12;

/** GET /api/users/{id}/services: how many of the seller's services, most popular first. */
export const sellerServicesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(SELLER_SERVICES_MAX).default(SELLER_SERVICES_MAX),
});

/** A project or a person is looked up like a page: a malformed id is a 404 (the service checks it), not a 400. */
export const pageIdParams = z.object({ id: z.string().max(100) });

export const favoriteSchema = z.object({ id: z.uuid('Неверный идентификатор'), type: z.enum(FAVORITE_TYPES) });
export type Favorite = z.infer<typeof favoriteSchema>;

/** At most this many items per sync. */
export const FAVORITES_SYNC_MAX = 200;
export const favoritesSyncSchema = z.object({
  items: z.array(favoriteSchema).max(FAVORITES_SYNC_MAX, `Не больше ${FAVORITES_SYNC_MAX} элементов за раз`),
});
export const favoriteItemsQuerySchema = z.object({
  type: z.enum(FAVORITE_TYPES),
  /** The newest this many (the home page's row); all of them, up to the cap, without it. */
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** GET /api/favorites/recent: the services the person opened last (issue 15, the signed-in home page). */
export const RECENT_VIEWS_MAX = 20;
export const recentViewsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(RECENT_VIEWS_MAX).default(8) });

/** The public face of a person: never email, balance or anything private. */
export const publicUserSchema = z.object({
  _id: z.string(),
  user_name: z.string(),
  name: z.string(),
  surname: z.string(),
  avatar: z.string().nullable(),
  level: z.enum(SELLER_LEVELS),
  rating: z.number(),
  reviews_count: z.number().int(),
  orders_count: z.number().int(),
  online_status: z.boolean(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const serviceCardSchema = z.object({
  _id: z.string(),
  title: z.string(),
  cover: z.string().nullable(),
  price: z.number().int(),
  days: z.number().int(),
  category: z.string(),
  rating: z.number(),
  reviews_count: z.number().int(),
  seller: publicUserSchema,
});
export type ServiceCard = z.infer<typeof serviceCardSchema>;

/** The fields of a service as its edit form shows them (an edit waiting for moderation, issue 15, 3). */
export const serviceEditViewSchema = z.object({
  title: z.string(),
  description: z.string(),
  category: z.string(),
  sub: z.string().nullable(),
  tags: z.array(z.string()),
  images: z.array(z.string()),
  price: z.number().int(),
  days: z.number().int(),
  revisions: z.number().int(),
  packages: z.array(servicePackageSchema),
  extras: z.array(serviceExtraSchema),
});
export type ServiceEditView = z.infer<typeof serviceEditViewSchema>;

export const serviceSchema = serviceCardSchema.extend({
  description: z.string(),
  sub: z.string().nullable(),
  category_title: z.string(),
  tags: z.array(z.string()),
  images: z.array(z.string()),
  revisions: z.number().int(),
  packages: z.array(servicePackageSchema),
  extras: z.array(serviceExtraSchema),
  status: z.string(),
  reject_reason: z.string().nullable(),
  views: z.number().int(),
  orders_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The owner's and admins' view only: an edit of the live service waiting for moderation; buyers see the approved
   * version until it is approved.
   */
  pending_edit: serviceEditViewSchema.extend({ submitted_at: z.string() }).nullable().optional(),
});
export type Service = z.infer<typeof serviceSchema>;

export const projectSchema = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  category_title: z.string(),
  sub: z.string().nullable(),
  budget: z.number().int().nullable(),
  days: z.number().int().nullable(),
  attachments: z.array(z.string()),
  /** GET /api/projects/{id} only: the attachments with the names they were uploaded under (a deleted one is left out). */
  attachment_files: z.array(fileInfoSchema).optional(),
  status: z.string(),
  hidden_reason: z.string().nullable(),
  bids_count: z.number().int(),
  views: z.number().int(),
  created_at: z.string(),
  customer: publicUserSchema,
});
export type Project = z.infer<typeof projectSchema>;

/** A person's public page (GET /api/users/{id}): the public face plus what they tell about themselves, never anything private. */
export const publicProfileSchema = publicUserSchema.extend({
  about: z.string(),
  /** Titles, not ids. */
  city: z.string().nullable(),
  country: z.string().nullable(),
  /** Member since. */
  created_at: z.string(),
  /** Their active services, most popular first (the first dozen), and how many there are. */
  services: z.array(serviceCardSchema),
  services_total: z.number().int(),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** The header's search box: popular searches starting with `q` (the most popular ones without it). */
export const searchSuggestionsQuerySchema = z.object({ q: z.string().max(100).optional() });

/** A search suggestion as the admin area lists it (GET /api/admin/search-suggestions). */
export const adminSearchSuggestionSchema = z.object({
  query: z.string(),
  /** Searchers who found something with it (each counted once a day). */
  searches: z.number().int(),
  hidden: z.boolean(),
  updated_at: z.string(),
});
export type AdminSearchSuggestion = z.infer<typeof adminSearchSuggestionSchema>;

export const adminSearchSuggestionsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  hidden: z.enum(['1', 'true']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
