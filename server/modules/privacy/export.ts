import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { profileOfPerson } from '../users/index.ts';
import { servicesOfPerson } from '../services/index.ts';
import { projectsOfPerson } from '../projects/index.ts';
import { ordersOfPerson } from '../orders/index.ts';
import { bidsPlacedBy } from '../bids/index.ts';
import { offersOfPerson } from '../offers/index.ts';
import { messagesSentBy } from '../chat/index.ts';
import { reviewsWrittenBy } from '../reviews/index.ts';
import { notificationsOfPerson } from '../notifications/index.ts';
import { statementOf } from '../ledger/index.ts';
import { privacyConsents, privacyDeletionRequests, privacyDocuments } from './schema.ts';
import { presentDeletion } from './deletions.ts';
import { sessionsOfPerson } from '../../platform/sessions.ts';
import type { PersonFactors } from './service.ts';

/** Enough for any person's statement: the export is all of it, not a page. */
const ALL_LINES = 1_000_000;

function consentsOf(db: Db, userId: string) {
  return db
    .select({ kind: privacyDocuments.kind, version: privacyDocuments.version, title: privacyDocuments.title, givenAt: privacyConsents.givenAt, ip: privacyConsents.ip, userAgent: privacyConsents.userAgent })
    .from(privacyConsents)
    .innerJoin(privacyDocuments, eq(privacyDocuments.id, privacyConsents.documentId))
    .where(eq(privacyConsents.userId, userId))
    .orderBy(privacyConsents.givenAt);
}

/**
 * Everything the marketplace keeps about the person (ADR 052), each kind read through its owner's port: only rows
 * that are theirs (messages they sent, reviews they wrote), another person named by id at most.
 */
export async function personalDataOf(db: Db, userId: string, factors: Pick<PersonFactors, 'factorsOfPerson'>) {
  const [profile, consents, services, projects, bids, orders, offers, messages, reviews, notifications, payments, deletions, signIns, secondFactors] = await Promise.all([
    profileOfPerson(db, userId),
    consentsOf(db, userId),
    servicesOfPerson(db, userId),
    projectsOfPerson(db, userId),
    bidsPlacedBy(db, userId),
    ordersOfPerson(db, userId),
    offersOfPerson(db, userId),
    messagesSentBy(db, userId),
    reviewsWrittenBy(db, userId),
    notificationsOfPerson(db, userId),
    statementOf(db, userId, { beforeSeq: null, limit: ALL_LINES }),
    db.select().from(privacyDeletionRequests).where(eq(privacyDeletionRequests.userId, userId)).orderBy(desc(privacyDeletionRequests.requestedAt)),
    sessionsOfPerson(db, userId),
    factors.factorsOfPerson(db, userId),
  ]);
  const { tokenVersion, lastSeenAt, ...account } = profile ?? { tokenVersion: 0, lastSeenAt: null };
  return {
    exported_at: new Date().toISOString(),
    profile: account,
    consents,
    services,
    projects,
    bids,
    orders,
    offers,
    messages,
    reviews,
    payments: payments.map(({ seq, amount, balanceAfter, createdAt, account, kind, orderId }) => ({ seq, amount, balanceAfter, createdAt, account, kind, orderId })),
    // Each sign-in's session (ADR 055): its device, OS, browser, network and city (ADR 059), when it was last seen and
    // ended; and the account's last activity and revocation counter.
    sessions: { lastSeenAt, tokenVersion, devices: signIns },
    // The second factors (ADR 054, 057): whether TOTP is on since when, and each passkey's name and dates.
    second_factors: secondFactors,
    notifications,
    deletion_requests: deletions.map(presentDeletion),
  };
}
