import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailTokens, type EmailTokenPurpose } from './schema.ts';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a one-time link token; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: EmailTokenPurpose,
  ttlMs: number,
  newEmail?: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx
      .update(emailTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({ userId, purpose, tokenHash: hash(token), newEmail, expiresAt: new Date(Date.now() + ttlMs) });
  });
  return token;
}

/** Makes the user's unused tokens of these purposes stop working. */
export async function voidEmailTokens(db: Db, userId: string, purposes: EmailTokenPurpose[]) {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.userId, userId), inArray(emailTokens.purpose, purposes), isNull(emailTokens.usedAt)));
}

/** Uses a token once: the row when it is valid, unused and unexpired, else null. Atomic under races. */
export async function consumeEmailToken(db: Db, token: string, purposes: EmailTokenPurpose[]) {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.tokenHash, hash(token)),
        inArray(emailTokens.purpose, purposes),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

/** A token's row whatever its state (used, voided, expired): what a link opened again is about. */
export async function findEmailToken(db: Db, token: string, purposes: EmailTokenPurpose[]) {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hash(token)), inArray(emailTokens.purpose, purposes)))
    .limit(1);
  return row ?? null;
}
