/**
 * What PGlite's named statements would save (issue 31's next cut, not yet in the server): the queries of one
 * rendered service page are caught as the demo server makes them, then each is run 300 times both ways on the same
 * PGlite: through `query()` (an unnamed statement: parse, describe, bind, describe, execute, sync, so parsed and
 * planned every time), and as a named statement parsed once, whose runs are bind, describe, execute and sync only
 * (PostgreSQL plans its first five, then keeps a generic plan when that costs no more). Rows are compared too.
 * `npm run build`, then `node --import tsx bench/pglite-named.ts` (prints CPU per run, this process).
 */
import { register } from 'node:module';

process.env.NODE_ENV = 'production';
register('../scripts/production-builds.mjs', import.meta.url);
const { PGlite, protocol, parse } = await import('@electric-sql/pglite');
type Args = [params?: unknown[], options?: Parameters<InstanceType<typeof PGlite>['query']>[2]];

const caught: { pg: InstanceType<typeof PGlite>; text: string; args: Args }[] = [];
let catching = false;
const query = PGlite.prototype.query;
PGlite.prototype.query = function (this: InstanceType<typeof PGlite>, text: string, ...args: Args) {
  if (catching) caught.push({ pg: this, text, args });
  return query.call(this, text, ...args) as never;
} as typeof query;

const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS } = await import('./lib.ts');
const demo = await startDemoServer({});
const base = demo.server.url;
const listed = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
const target = `/services/${listed.result[0]!.category}/${listed.result[0]!._id}?q=bench`;
for (let i = 0; i < 20; i++) await (await fetch(base + target, { headers: BROWSER_HEADERS })).arrayBuffer();
catching = true;
await (await fetch(base + target, { headers: BROWSER_HEADERS })).arrayBuffer();
catching = false;

const { serialize } = protocol;
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
for (const [index, { pg, text, args }] of caught.entries()) {
  const name = `bench_${index}`;
  const stream = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });
  await stream(serialize.parse({ name, text }));
  const described = await stream(serialize.describe({ type: 'S', name }));
  await stream(serialize.sync());
  const types = parse.parseDescribeStatementResults(described);
  const values = (args[0] ?? []).map((v, i) => (v == null ? null : (pg.serializers[types[i]!]?.(v) ?? String(v))));
  const named = () =>
    pg.runExclusive(async () => {
      const messages = [
        ...(await stream(serialize.bind({ statement: name, values }))),
        ...(await stream(serialize.describe({ type: 'P' }))),
        ...(await stream(serialize.execute({}))),
        ...(await stream(serialize.sync())),
      ];
      return parse.parseResults(messages, pg.parsers, args[1])[0]!;
    });
  const plain = () => query.call(pg, text, ...args);
  const [a, b] = [await plain(), await named()];
  const same = JSON.stringify(a.rows) === JSON.stringify(b.rows) ? '' : ' (rows differ!)';
  const [p, n] = [await cpuPerRun(plain), await cpuPerRun(named)];
  sumPlain += p;
  sumNamed += n;
  console.log(`| ${p.toFixed(2)} ms | ${n.toFixed(2)} ms | ${text.slice(0, 70).replace(/\s+/g, ' ')}…${same} |`);
}
console.log(`| ${sumPlain.toFixed(2)} ms | ${sumNamed.toFixed(2)} ms | in all |`);
await demo.close();
process.exit(0);
