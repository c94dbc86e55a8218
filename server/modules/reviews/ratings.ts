import { and, eq, gte, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { reviews } from './schema.ts';
import { setServiceRating } from '../services/index.ts';
import { setSellerRating } from '../users/index.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { TxContext } from '../../platform/tx.ts';

// The ratings reviews make (ADR 029): the mean × 100 of the customers' published, not removed reviews written in
// the last reviews.ratingMonths months, kept in users.rating and services.rating.

/** The daily job that recomputes the ratings whose window a review has just left. */
export const RATING_WINDOW_JOB = 'reviews.rating-window';
/** How far back the daily job looks past the window's edge (a few missed days are caught up). */
const RATING_WINDOW_SLACK_DAYS = 7;

const DAY_MS = 86_400_000;

type Settings = Pick<SettingsService, 'get'>;

/** A date `months` calendar months before `now`. */
function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/** The seller's rating and count (users.rating, users.reviews_count) and the service's (services.*). */
export async function recomputeRatings(ctx: Pick<TxContext, 'tx' | 'clock'>, settings: Settings, sellerId: string, serviceId: string | null): Promise<void> {
  const months = await settings.get('reviews.ratingMonths', ctx.tx);
  const since = monthsBefore(ctx.clock.now(), months);
  const counted = and(eq(reviews.authorRole, 'customer'), isNotNull(reviews.publishedAt), isNull(reviews.removedAt), gte(reviews.createdAt, since))!;
  const mean = sql<number>`coalesce(round(avg(${reviews.rating}) * 100), 0)::int`;
  const n = sql<number>`count(*)::int`;
  const [seller] = await ctx.tx
    .select({ mean, n })
    .from(reviews)
    .where(and(eq(reviews.targetId, sellerId), counted));
  await setSellerRating(ctx.tx, sellerId, Number(seller?.mean ?? 0), Number(seller?.n ?? 0));
  if (serviceId) {
    const [service] = await ctx.tx
      .select({ mean, n })
      .from(reviews)
      .where(and(eq(reviews.serviceId, serviceId), counted));
    await setServiceRating(ctx.tx, serviceId, Number(service?.mean ?? 0), Number(service?.n ?? 0));
  }
}

/**
 * The daily job: ratings with a review that has just left the window (written between reviews.ratingMonths and a
 * few days more ago) are recomputed. Answers how many sellers were.
 */
export function refreshRatingWindow(deps: { platform: Platform; settings: Settings }): Promise<number> {
  return deps.platform.withTx({ kind: 'system', name: RATING_WINDOW_JOB }, async (ctx) => {
    const months = await deps.settings.get('reviews.ratingMonths', ctx.tx);
    const edge = monthsBefore(ctx.clock.now(), months);
    const from = new Date(edge.getTime() - RATING_WINDOW_SLACK_DAYS * DAY_MS);
    const rows = await ctx.tx
      .selectDistinct({ sellerId: reviews.targetId, serviceId: reviews.serviceId })
      .from(reviews)
      .where(and(eq(reviews.authorRole, 'customer'), isNotNull(reviews.publishedAt), gte(reviews.createdAt, from), lte(reviews.createdAt, edge)));
    for (const r of rows) await recomputeRatings(ctx, deps.settings, r.sellerId, r.serviceId);
    return new Set(rows.map((r) => r.sellerId)).size;
  });
}
