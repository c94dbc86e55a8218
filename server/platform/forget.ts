import { and, ne, or, sql } from 'drizzle-orm';
import type { Tx } from './tx.ts';
import { outbox } from './schema.ts';

/**
 * Drops the letters and socket events waiting in the outbox that name a person being anonymised (ADR 052): letters
 * to their address, letters and events that carry their name or login. Jobs are never touched: they carry ids, not
 * personal text, and a job of someone else's (a payout, an auto-acceptance) must not be lost to a chance match.
 * The address and the full name match as text; the login only as a whole word, so a short login cannot match the
 * middle of another person's address or an id.
 */
export async function forgetInOutbox(tx: Tx, person: { email: string; fullName: string; login: string }): Promise<void> {
  const texts = [person.email, person.fullName].map((t) => t.trim()).filter((t) => t.length >= 3);
  const matches = texts.map((t) => sql`strpos(lower(${outbox.payload}::text), lower(${t})) > 0`);
  const login = person.login.trim();
  // A login is letters, digits and a few marks; each mark is escaped, so the pattern is a literal between word ends.
  if (login.length >= 3 && /^[\p{L}\p{N}_.-]+$/u.test(login)) {
    matches.push(sql`${outbox.payload}::text ~* ${`\\m${login.replace(/[.-]/g, '\\$&')}\\M`}`);
  }
  if (!matches.length) return;
  await tx.delete(outbox).where(and(ne(outbox.kind, 'job'), or(...matches)));
}
