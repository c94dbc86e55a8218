import { z } from 'zod';

// SPEC §7 answer envelopes.
export interface ApiOk<T> {
  status: number;
  result: T;
  total?: number;
}
export interface ApiError {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
  /** A stable machine code when the client must react to the refusal, not only show it (ADR 054). */
  code?: string;
}

export const apiErrorSchema = z.object({
  status: z.number().int(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  code: z.string().optional(),
});

export const okSchema = <T extends z.ZodType>(result: T) =>
  z.object({ status: z.number().int(), result, total: z.number().int().optional() });

export const lookupItemSchema = z.object({ _id: z.string(), title: z.string() });

export const citySchema = lookupItemSchema.extend({ country: z.string() });
export const countrySchema = lookupItemSchema.extend({ code: z.string() });
export const categorySchema = lookupItemSchema.extend({ slug: z.string() });
export const subCategorySchema = lookupItemSchema.extend({ slug: z.string(), category: z.string() });
export const tagSchema = z.object({ _id: z.string(), tag: z.string() });

export type City = z.infer<typeof citySchema>;
export type Country = z.infer<typeof countrySchema>;
export type Category = z.infer<typeof categorySchema>;
export type SubCategory = z.infer<typeof subCategorySchema>;
export type Tag = z.infer<typeof tagSchema>;

/** Rubles per unit (SPEC §3): RUB is always 1. */
export const ratesSchema = z.object({
  RUB: z.literal(1),
  USDT: z.number(),
  BTC: z.number(),
  lastUpdated: z.string().nullable(),
});
export type Rates = z.infer<typeof ratesSchema>;

/** A path's rule: where it redirects, or whether it is blocked (the 404 screen). */
export const routeRuleSchema = z.object({ redirect: z.string().nullable(), block: z.boolean() });
/** GET /api/route-rules?path=…: the operator's redirect of a path, if any. */
export const routeRuleQuerySchema = z.object({ path: z.string().min(1).max(2000).startsWith('/') });
export type RouteRule = z.infer<typeof routeRuleSchema>;

/** The public part of a user (SPEC §3: _id, referralCode, active_role, …). */
export const meSchema = z.object({
  _id: z.string(),
  user_name: z.string(),
  name: z.string(),
  surname: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  roles: z.array(z.string()),
  active_role: z.string(),
  referralCode: z.string(),
  email_confirmed: z.boolean(),
  /** Whether a second factor guards the account (ADR 054). */
  two_factor: z.boolean(),
  about: z.string(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  created_at: z.string(),
  preferences: z.object({
    currency: z.string().optional(),
    emailNotifications: z.record(z.string(), z.boolean()).optional(),
  }),
});
export type Me = z.infer<typeof meSchema>;

/** A path's `:id`: a uuid, else a 400 with the reason. */
export const idParams = z.object({ id: z.uuid('Неверный идентификатор') });

/** A page of a keyset listing: `next` is the cursor of the following page, null on the last one. */
export const listingAnswerSchema = <T extends z.ZodType>(item: T) =>
  okSchema(z.array(item)).extend({ total: z.number().int(), next: z.string().nullable() });

/** A page of a public listing: `total` is a count when `total_exact`, else the planner's rounded estimate. */
export const publicListingSchema = <T extends z.ZodType>(item: T) =>
  listingAnswerSchema(item).extend({
    total_exact: z.boolean(),
    // A search found nothing with all its words: these are the items matching the most of them (ADR 044).
    partial: z.literal(true).optional(),
  });
