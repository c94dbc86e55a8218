import { eq, sql } from 'drizzle-orm';
import { statement } from '../../db/prepared.ts';
import type { Recipient } from '../../platform/letters/index.ts';
import type { TxContext } from '../../platform/tx.ts';
import { people } from '../users/index.ts';

// Who the payments module's letters go to (a receipt, a withdrawal's decision), read through the users module's
// read model in the transaction of the fact they tell.

const recipient = people('recipient');

const byId = statement((db) =>
  db
    .select({ id: recipient.id, email: recipient.email, name: recipient.name, preferences: recipient.preferences })
    .from(recipient)
    .where(eq(recipient.id, sql.placeholder('id')))
    .prepare('payment_recipient'),
);

/** The person `userId` as a letter needs them, or undefined when they are gone. */
export async function recipientOf(tx: TxContext['tx'], userId: string): Promise<Recipient | undefined> {
  const [person] = await byId(tx).execute({ id: userId });
  return person;
}
