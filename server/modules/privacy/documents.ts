import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../platform/tx.ts';
import type { PrivacyDocument, PrivacyDocumentKind } from '#contract/privacy';
import { privacyConsents, privacyDocuments, type PrivacyDocumentRow } from './schema.ts';
import { DEFAULT_TEXTS } from './default-texts.ts';

type Q = Db | Tx;

export const presentDocument = (d: PrivacyDocumentRow): PrivacyDocument => ({
  _id: d.id,
  kind: d.kind,
  version: d.version,
  title: d.title,
  body: d.body,
  created_at: d.createdAt.toISOString(),
});

async function latest(db: Q, kind: PrivacyDocumentKind): Promise<PrivacyDocumentRow | undefined> {
  const [row] = await db.select().from(privacyDocuments).where(eq(privacyDocuments.kind, kind)).orderBy(desc(privacyDocuments.version)).limit(1);
  return row;
}

/** The version in force: the newest one; the first version is written from DEFAULT_TEXTS when none exists yet. */
export async function currentDocument(db: Q, kind: PrivacyDocumentKind): Promise<PrivacyDocumentRow> {
  const found = await latest(db, kind);
  if (found) return found;
  await db
    .insert(privacyDocuments)
    .values({ kind, version: 1, ...DEFAULT_TEXTS[kind] })
    .onConflictDoNothing();
  return (await latest(db, kind))!;
}

/** A new version of a text, one past the newest (a racing publication fails on the unique index, and is retried). */
export async function publishDocument(tx: Tx, kind: PrivacyDocumentKind, text: { title: string; body: string }, authorId: string) {
  const previous = await currentDocument(tx, kind);
  const [row] = await tx
    .insert(privacyDocuments)
    .values({ kind, version: previous.version + 1, title: text.title, body: text.body, createdBy: authorId })
    .returning();
  return { row: row!, previous };
}

export async function allDocuments(db: Db): Promise<PrivacyDocumentRow[]> {
  await Promise.all([currentDocument(db, 'policy'), currentDocument(db, 'consent')]);
  return db.select().from(privacyDocuments).orderBy(privacyDocuments.kind, desc(privacyDocuments.version));
}

export interface ConsentEvidence {
  userId: string;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Records the person's consent to the current consent text, in the caller's transaction (the registration's, so an
 * account never exists without its consent). Answers the version consented to.
 */
export async function recordConsent(tx: Q, evidence: ConsentEvidence): Promise<PrivacyDocumentRow> {
  const document = await currentDocument(tx, 'consent');
  await tx.insert(privacyConsents).values({
    userId: evidence.userId,
    documentId: document.id,
    ip: evidence.ip?.slice(0, 64) ?? null,
    userAgent: evidence.userAgent?.slice(0, 512) ?? null,
  });
  return document;
}

/** Whether the person consented to this version of the consent text. */
export async function hasConsentedTo(db: Q, userId: string, documentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: privacyConsents.id })
    .from(privacyConsents)
    .where(and(eq(privacyConsents.userId, userId), eq(privacyConsents.documentId, documentId)))
    .limit(1);
  return row !== undefined;
}
