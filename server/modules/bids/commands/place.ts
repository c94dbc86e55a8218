import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { bids, type BidRow } from '../schema.ts';
import { flagBidsUnread, people, type UserRow } from '../../users/index.ts';
import { HttpError } from '../../../lib/http.ts';
import { displayName } from '../../../lib/text.ts';
import { userActor } from '../../../platform/actor.ts';
import type { TxContext } from '../../../platform/tx.ts';
import { formatRubles } from '#contract/money-format';
import { pluralWithCount } from '#contract/plural';
import { BID_MESSAGES, type bidInputSchema } from '#contract/bids';
import { countBid, projectPolicy } from '../../projects/index.ts';
import { DAY_MS, type BidServiceDeps } from '../deps.ts';
import { bidPolicy } from '../policy.ts';
import { projectSubject } from '../records.ts';
import { checkComment, conflict, uniqueViolation } from './rules.ts';

/** New bids from one address in a day, as a multiple of the per-seller limit (several sellers behind one NAT). */
const ADDRESS_FACTOR = 10;

const sellerRef = people('seller');

const daysText = (n: number) => pluralWithCount(n, 'день', 'дня', 'дней');

type BidInputData = z.output<typeof bidInputSchema>;

/**
 * POST /api/projects/{id}/bids: the bid, the project's count, the customer's flag and the outbox rows (socket
 * event, letter) commit together. Answers the bid's id.
 */
export async function placeBid(deps: BidServiceDeps, user: UserRow, projectId: string, input: BidInputData, ip: string): Promise<string> {
  const subject = projectPolicy.authorize(user, 'view', await projectSubject(deps.db, projectId));
  bidPolicy.authorize(user, 'place', subject);
  if (subject.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
  await checkComment(deps.settings, input.comment);
  const perDay = await deps.settings.get('bids.perDay');
  const address = await deps.limiter.hit(`bids:ip:${ip}`, perDay * ADDRESS_FACTOR, DAY_MS);
  if (!address.allowed) throw new HttpError(429, BID_MESSAGES.tooFast);

  return deps.platform.withTx(userActor(user), async (ctx) => {
    const { tx, outbox } = ctx;
    // The seller's row lock serialises their bids: the duplicate check and the daily count are exact.
    // (No key update: an order's foreign key to the seller may share the row meanwhile.) Taken through the users
    // module's read model: a lock on a subquery locks the rows it reads of its table.
    await tx.select({ id: sellerRef.id }).from(sellerRef).where(eq(sellerRef.id, user.id)).for('no key update');
    const locked = await projectSubject(tx, subject.project.id, true);
    if (!locked || locked.project.status !== 'active') throw conflict(BID_MESSAGES.closed);
    const row = await insertBid(ctx, user, locked.project.id, input, perDay);
    await countBid(tx, locked.project.id);
    await flagBidsUnread(tx, locked.customer.id);
    outbox.emit([locked.customer.id], 'bids_flag', { hasUnread: true });
    deps.letters.notify(outbox, locked.customer, 'bid.new', {
      title: locked.project.title,
      seller: displayName(user),
      price: formatRubles(row.price),
      days: daysText(row.days),
    });
    return row.id;
  });
}

/** The new bid, unless the seller has a live one on the project or has used up the day's bids. */
async function insertBid({ tx, clock }: TxContext, user: UserRow, projectId: string, input: BidInputData, perDay: number): Promise<BidRow> {
  const now = clock.now();
  const [live] = await tx
    .select({ id: bids.id })
    .from(bids)
    .where(and(eq(bids.projectId, projectId), eq(bids.sellerId, user.id), ne(bids.status, 'withdrawn')));
  if (live) throw conflict(BID_MESSAGES.duplicate);
  const [today] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(bids)
    .where(and(eq(bids.sellerId, user.id), gt(bids.createdAt, new Date(now.getTime() - DAY_MS))));
  if ((today?.n ?? 0) >= perDay) throw new HttpError(429, BID_MESSAGES.perDay(perDay));
  try {
    const [row] = (await tx
      .insert(bids)
      .values({ projectId, sellerId: user.id, ...input, stages: input.stages ?? null, createdAt: now, updatedAt: now })
      .returning()) as [BidRow];
    return row;
  } catch (err) {
    if (uniqueViolation(err)) throw conflict(BID_MESSAGES.duplicate);
    throw err;
  }
}
