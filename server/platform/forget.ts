import { or, sql } from 'drizzle-orm';
import type { Tx } from './tx.ts';
import { outbox } from './schema.ts';

/**
 * Drops the outbox rows whose payload names a person being anonymised (ADR 052): letters to their address, letters
 * and events that carry their name. Delivered rows are only history; a pending one for them must not go out either.
 */
export async function forgetInOutbox(tx: Tx, terms: string[]): Promise<void> {
  const meaningful = terms.map((t) => t.trim()).filter((t) => t.length >= 3);
  if (!meaningful.length) return;
  // `strpos` rather than LIKE: a term's own % or _ must not match anything.
  await tx.delete(outbox).where(or(...meaningful.map((t) => sql`strpos(lower(${outbox.payload}::text), lower(${t})) > 0`)));
}
