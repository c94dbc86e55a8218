import type { Db } from '../db/client.ts';

type Client = { query: (...args: unknown[]) => unknown };

/**
 * The statements a database handle's client is asked to run while `work` runs, in order: `start <text>` when one is
 * sent, `end <text>` when it is answered. The outbox's and the leases' (background work) are left out.
 */
export async function statementEvents(db: Db, work: () => Promise<unknown>): Promise<string[]> {
  const client = (db as unknown as { session: { client: Client } }).session.client;
  const query = client.query;
  const seen: string[] = [];
  client.query = (...args) => {
    const answer = query.apply(client, args);
    // PGlite is given the text, node-postgres' pool a query config.
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
    if (/"(outbox|leases)"/.test(text)) return answer;
    seen.push(`start ${text}`);
    return answer instanceof Promise ? answer.finally(() => seen.push(`end ${text}`)) : answer;
  };
  try {
    await work();
  } finally {
    client.query = query;
  }
  return seen;
}

/** The texts of the statements run while `work` runs (statementEvents, their starts). */
export async function statementsDuring(db: Db, work: () => Promise<unknown>): Promise<string[]> {
  return (await statementEvents(db, work)).flatMap((event) => (event.startsWith('start ') ? [event.slice('start '.length)] : []));
}
