import { and, desc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { users } from '../../modules/users/schema.ts';
import { projects } from '../../modules/projects/schema.ts';
import { bids } from '../../modules/bids/schema.ts';
import { notifications } from '../../modules/notifications/schema.ts';
import { LETTER_KINDS } from '../../platform/letters/index.ts';
import type { DemoAccount } from './demo.ts';
import { formatRubles } from '#contract/money-format';
import { displayName } from '../../lib/text.ts';

/** How many of each demo person's notifications stay unread. */
export const DEMO_UNREAD = 3;

/**
 * Demo notifications (ADR 030). The demo orders made theirs through the app's commands (seedDemoOrders); the bids
 * waiting on the demo customer's project were written straight into the tables (seedDemo), so their "new bid"
 * notifications are added here, with the texts the command would have written. Then all but each person's
 * newest few are marked read, so the header shows a count and the list shows both kinds.
 */
export async function seedDemoNotifications(db: Db, accounts: Pick<DemoAccount, 'email'>[]): Promise<void> {
  const people = await db
    .select()
    .from(users)
    .where(
      inArray(
        users.email,
        accounts.map((a) => a.email),
      ),
    );
  const waiting = await db
    .select({ bid: bids, project: projects, seller: users })
    .from(bids)
    .innerJoin(projects, eq(projects.id, bids.projectId))
    .innerJoin(users, eq(users.id, bids.sellerId))
    .where(
      and(
        inArray(
          projects.customerId,
          people.map((p) => p.id),
        ),
        eq(bids.status, 'active'),
      ),
    );
  const notice = LETTER_KINDS['bid.new'].notice!;
  if (waiting.length) {
    await db.insert(notifications).values(
      waiting.map(({ bid, project, seller }) => ({
        userId: project.customerId,
        kind: 'bid.new',
        ...notice({
          title: project.title,
          seller: displayName(seller),
          price: formatRubles(bid.price),
          days: String(bid.days),
        }),
        createdAt: bid.createdAt,
      })),
    );
  }
  for (const person of people) {
    const newest = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.userId, person.id))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(DEMO_UNREAD);
    if (newest.length === 0) continue;
    await db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, person.id),
          isNull(notifications.readAt),
          notInArray(
            notifications.id,
            newest.map((n) => n.id),
          ),
        ),
      );
  }
}
