import { and, eq, inArray, isNull } from 'drizzle-orm';
import { reviews } from './schema.ts';
import { people } from '../users/index.ts';
import { displayName } from '../../lib/text.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { TxContext } from '../../platform/tx.ts';
import { lockOrder, orderHeadline } from '../orders/index.ts';
import { recomputeRatings } from './ratings.ts';

// Double-blind publication (ADR 029): an order's reviews stay hidden until both parties reviewed it or the blind
// period ends; then each recipient is told and the ratings are recomputed.

/** The delayed job that publishes an order's hidden reviews when its blind period ends (ADR 029). */
export const PUBLISH_REVIEWS_JOB = 'reviews.publish';

const DAY_MS = 86_400_000;

const party = people('review_party');

interface Deps {
  settings: Pick<SettingsService, 'get'>;
  letters: Letters;
}

/** Queues the publication of an order's reviews at the end of its blind period. */
export function schedulePublication(ctx: TxContext, orderId: string, at: Date): void {
  ctx.outbox.job(PUBLISH_REVIEWS_JOB, { orderId }, { at, dedupeKey: `reviews-publish:${orderId}` });
}

/** The publication job: at the end of the blind period the order's hidden reviews become visible. */
export async function publishDue(ctx: TxContext, deps: Deps, orderId: string): Promise<void> {
  const order = await lockOrder(ctx, orderId);
  if (!order?.completedAt) return;
  const blindDays = await deps.settings.get('reviews.blindDays', ctx.tx);
  const due = new Date(order.completedAt.getTime() + blindDays * DAY_MS);
  // The period was made longer since the job was queued: wait for its new end.
  if (ctx.clock.now() < due) {
    schedulePublication(ctx, orderId, due);
    return;
  }
  await publishReviews(ctx, deps, orderId);
}

/** Publishes the order's hidden reviews: each recipient is told, the seller's and the service's ratings recomputed. */
export async function publishReviews(ctx: TxContext, deps: Deps, orderId: string): Promise<void> {
  const published = await ctx.tx
    .update(reviews)
    .set({ publishedAt: ctx.clock.now() })
    .where(and(eq(reviews.orderId, orderId), isNull(reviews.publishedAt), isNull(reviews.removedAt)))
    .returning();
  if (published.length === 0) return;
  const order = await orderHeadline(ctx.tx, orderId);
  const parties = await ctx.tx
    .select({ id: party.id, email: party.email, name: party.name, surname: party.surname, userName: party.userName, preferences: party.preferences })
    .from(party)
    .where(inArray(party.id, [...new Set(published.flatMap((r) => [r.authorId, r.targetId]))]));
  const byId = new Map(parties.map((p) => [p.id, p]));
  for (const review of published) {
    const recipient = byId.get(review.targetId);
    const writer = byId.get(review.authorId);
    if (recipient && writer && order) {
      // The letter and, whatever the email preferences say, the in-app notification (ADR 030).
      deps.letters.notify(ctx.outbox, recipient, 'review.new', {
        author: displayName(writer),
        rating: review.rating,
        number: order.number,
        title: order.title,
        path: '/profile/reviews',
      });
    }
    if (review.authorRole === 'customer') await recomputeRatings(ctx, deps.settings, review.targetId, review.serviceId);
  }
}
