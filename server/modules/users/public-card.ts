// A person's public face: the card every listing shows of them, with the seller level derived from their counters.
import { users, type UserRow } from './schema.ts';
import type { PublicUser, SellerLevel } from '#contract/catalog';
import { LOST_DISPUTE_DAYS } from '../../platform/listing/listing.ts';

/**
 * PRODUCT.md seller levels, derived, never stored: Профессионал (≥ 50 completed orders, rating ≥ 4.7, no
 * dispute lost in 90 days), Продвинутый (≥ 10, rating ≥ 4.5), else Новичок. `rating` is the mean × 100 of the
 * customers' reviews of the last two years (users.rating, kept by the reviews module, ADR 029).
 * `lostDisputeRecently`: users.lost_dispute_at within LOST_DISPUTE_DAYS (set by the disputes module, ADR 034);
 * levelCondition() (platform/listing) has the same condition in SQL.
 */
export function sellerLevel(completedOrders: number, rating: number, lostDisputeRecently = false): SellerLevel {
  if (completedOrders >= 50 && rating >= 470 && !lostDisputeRecently) return 'pro';
  if (completedOrders >= 10 && rating >= 450) return 'advanced';
  return 'new';
}

/** Whether a loss of a dispute at `at` still keeps a seller from Профессионал. */
export const lostDisputeRecently = (at: Date | null, now = Date.now()) => at !== null && now - at.getTime() < LOST_DISPUTE_DAYS * 86_400_000;

/** The columns a public face is made of: select just these where many people are listed. */
export const publicUserColumns = {
  id: users.id,
  userName: users.userName,
  name: users.name,
  surname: users.surname,
  avatar: users.avatar,
  completedOrders: users.completedOrders,
  rating: users.rating,
  reviewsCount: users.reviewsCount,
  lostDisputeAt: users.lostDisputeAt,
};
export type PublicUserRow = Pick<UserRow, keyof typeof publicUserColumns>;

/** The public face of a person (SPEC: never email, balance or anything private). */
export function presentPublicUser(user: PublicUserRow, online: boolean): PublicUser {
  return {
    _id: user.id,
    user_name: user.userName,
    name: user.name,
    surname: user.surname,
    avatar: user.avatar,
    level: sellerLevel(user.completedOrders, user.rating, lostDisputeRecently(user.lostDisputeAt)),
    rating: user.rating / 100,
    reviews_count: user.reviewsCount,
    orders_count: user.completedOrders,
    online_status: online,
  };
}
