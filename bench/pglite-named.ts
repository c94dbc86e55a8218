/**
 * What PGlite's named statements save (issue 31; the server runs them since ADR 067, server/db/pglite-statements.ts):
 * the queries of one rendered service page are caught as the demo server makes them, then each is run 300 times both
 * ways on the same PGlite: through PGlite's own `query()` (an unnamed statement: parse, describe, bind, describe,
 * execute, sync, so parsed and planned every time), and through the server's client, a named statement parsed once,
 * whose runs are bind, execute and sync only (PostgreSQL plans its first five, then keeps a generic plan when that
 * costs no more). Rows are compared too.
 * `npm run build`, then `node --import tsx bench/pglite-named.ts` (prints CPU per run, this process).
 */
import { register } from 'node:module';
import type { PGlite, QueryOptions } from '@electric-sql/pglite';

process.env.NODE_ENV = 'production';
register('../scripts/production-builds.mjs', import.meta.url);
const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS } = await import('./lib.ts');
const demo = await startDemoServer({});
const base = demo.server.url;

// drizzle calls `query` on its session's client (server/db/pglite-statements.ts) at each run: caught there.
type Args = [params?: unknown[], options?: QueryOptions];
const db = demo.server.database.db as unknown as { $client: PGlite; session: { client: Pick<PGlite, 'query'> } };
const client = db.session.client;
const named = client.query.bind(client);
const caught: { text: string; args: Args }[] = [];
let catching = false;
client.query = ((text: string, ...args: Args) => {
  if (catching) caught.push({ text, args });
  return named(text, ...args);
}) as typeof client.query;

const listed = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
const target = `/services/${listed.result[0]!.category}/${listed.result[0]!._id}?q=bench`;
for (let i = 0; i < 20; i++) await (await fetch(base + target, { headers: BROWSER_HEADERS })).arrayBuffer();
catching = true;
await (await fetch(base + target, { headers: BROWSER_HEADERS })).arrayBuffer();
catching = false;

const cpuPerRun = async (run: () => Promise<unknown>) => {
  for (let i = 0; i < 30; i++) await run();
  const start = process.cpuUsage();
  for (let i = 0; i < 300; i++) await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 300_000;
};

console.log(`${target}: ${caught.length} queries\n\n| query() | named | Query |\n|---:|---:|---|`);
let sumPlain = 0;
let sumNamed = 0;
for (const { text, args } of caught) {
  const plain = () => db.$client.query(text, ...args);
  const ours = () => named(text, ...args);
  const [a, b] = [await plain(), await ours()];
  const same = JSON.stringify(a.rows) === JSON.stringify(b.rows) ? '' : ' (rows differ!)';
  const [p, n] = [await cpuPerRun(plain), await cpuPerRun(ours)];
  sumPlain += p;
  sumNamed += n;
  console.log(`| ${p.toFixed(2)} ms | ${n.toFixed(2)} ms | ${text.slice(0, 70).replace(/\s+/g, ' ')}…${same} |`);
}
console.log(`| ${sumPlain.toFixed(2)} ms | ${sumNamed.toFixed(2)} ms | in all |`);
await demo.close();
process.exit(0);
