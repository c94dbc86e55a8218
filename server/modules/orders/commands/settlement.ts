import { inArray } from 'drizzle-orm';
import type { OrderRow } from '../schema.ts';
import { countServiceOrder } from '../../services/index.ts';
import { countCompletedOrder, people, referrersOf } from '../../users/index.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { commissionOn } from '#contract/money';
import type { Leg } from '../../ledger/index.ts';
import type { OrderServiceDeps } from '../deps.ts';

// The money of settling an order (ADR 025): the escrow released to the seller (commission, referral rewards) or
// refunded to the customer, and the counters a completed order adds to.

type Settings = Pick<OrderServiceDeps, 'settings' | 'releaseRoute'>;

const referrer = people('referrer');

/** The legs that give `amount` kopecks of the order's escrow back to the customer's balance. */
export const refundLegs = (order: OrderRow, amount: number): Leg[] => [
  { account: { kind: 'escrow', orderId: order.id }, amount: -amount },
  { account: { kind: 'available', userId: order.customerId }, amount },
];

/**
 * The legs that release `amount` kopecks of the escrow to the seller (ADR 025): the seller gets it less the
 * commission on it, the platform the commission less the referral rewards, which go to the referrers. The whole
 * price on completion; a dispute's share of it (ADR 034), by the same rule. The seller's part reaches their balance,
 * or, paid in a safe deal, is held for the payout out of the deal that the release route records (ADR 053).
 */
export async function releaseLegs(ctx: TxContext, deps: Settings, order: OrderRow, amount: number): Promise<{ legs: Leg[]; commission: number }> {
  const commission = commissionOn(amount, order.commissionBp);
  const rewards = await referralRewards(ctx, deps, order, amount, commission);
  const rewardTotal = rewards.reduce((s, r) => s + r.amount, 0);
  const share = { orderId: order.id, orderNumber: order.number, sellerId: order.sellerId, amount: amount - commission };
  const outOfDeal = share.amount > 0 && deps.releaseRoute ? await deps.releaseRoute.take(ctx, share) : false;
  const legs: Leg[] = [
    { account: { kind: 'escrow', orderId: order.id }, amount: -amount },
    { account: { kind: outOfDeal ? 'withdrawal_hold' : 'available', userId: order.sellerId }, amount: share.amount },
  ];
  // A zero leg is not an entry (the ledger refuses it): a 0 % commission leaves the revenue out.
  if (commission - rewardTotal !== 0) legs.push({ account: { kind: 'revenue' }, amount: commission - rewardTotal });
  if (rewardTotal > 0) {
    legs.push({ account: { kind: 'referral_expense' }, amount: rewardTotal });
    for (const r of rewards) {
      legs.push({ account: { kind: 'referral_expense' }, amount: -r.amount });
      legs.push({ account: { kind: 'available', userId: r.userId }, amount: r.amount });
    }
  }
  return { legs: legs.filter((l) => l.amount !== 0), commission };
}

/** A completed order counts for its seller and its service. */
export async function countCompletion(ctx: TxContext, order: Pick<OrderRow, 'headId' | 'sellerId' | 'serviceId'>): Promise<void> {
  // An order in stages counts once, when its head completes (rollUp), not per stage (ADR 065).
  if (order.headId) return;
  await countCompletedOrder(ctx.tx, order.sellerId);
  if (order.serviceId) await countServiceOrder(ctx.tx, order.serviceId);
}

/**
 * The referral rewards of a settled order (ADR 025): buyerBp of the released amount (the price on completion)
 * to the customer's referrer and sellerBp to the seller's, each only while the referred person is within
 * referrals.months of registering, together never above the commission.
 */
async function referralRewards(ctx: TxContext, deps: Settings, order: OrderRow, base: number, commission: number): Promise<{ userId: string; amount: number }[]> {
  const parties = await referrersOf(ctx.tx, [order.customerId, order.sellerId]);
  const [buyerBp, sellerBp, months] = await Promise.all([
    deps.settings.get('referrals.buyerBp', ctx.tx),
    deps.settings.get('referrals.sellerBp', ctx.tx),
    deps.settings.get('referrals.months', ctx.tx),
  ]);
  const now = ctx.clock.now();
  const referrerIds = parties.flatMap((p) => (p.referredBy ? [p.referredBy] : []));
  const existing = new Set(
    referrerIds.length ? (await ctx.tx.select({ id: referrer.id }).from(referrer).where(inArray(referrer.id, referrerIds))).map((r) => r.id) : [],
  );
  let left = commission;
  const rewards: { userId: string; amount: number }[] = [];
  for (const [personId, bp] of [
    [order.customerId, buyerBp],
    [order.sellerId, sellerBp],
  ] as const) {
    const person = parties.find((p) => p.id === personId);
    if (!person?.referredBy || !existing.has(person.referredBy)) continue;
    const until = new Date(person.createdAt);
    until.setUTCMonth(until.getUTCMonth() + months);
    if (now >= until) continue;
    const amount = Math.min(Math.round((base * bp) / 10_000), left);
    if (amount <= 0) continue;
    left -= amount;
    rewards.push({ userId: person.referredBy, amount });
  }
  return rewards;
}
