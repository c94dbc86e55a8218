/**
 * Where a request's CPU goes: the demo server (production build, PGlite unless DATABASE_URL) in this process answers
 * BENCH_REQUESTS (default 500) sequential GETs of one target under V8's sampling profiler; prints the self time by
 * package (or our own folder) and the top functions. `npm run build` first, then:
 *   node --import tsx bench/profile.ts '/services/<category>/<id>?q=bench'   (a page rendered every time)
 * Without a target it profiles a demo service's page with `?q=bench`. BENCH_PROFILE=file.cpuprofile keeps the raw
 * profile for Chrome's DevTools. BENCH_WRK_SECONDS=N loads the server with wrk (its own process, one connection) for N
 * seconds instead: the profile and the CPU per request are then the server's alone, without this process's client
 * (BENCH_WRK_CONNECTIONS=10 for ten; the profile is the server's thread's, not its render threads').
 */
import { execFile } from 'node:child_process';
import { register } from 'node:module';

process.env.NODE_ENV = 'production';
register('../scripts/production-builds.mjs', import.meta.url);
const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS, startProfile } = await import('./lib.ts');
const demo = await startDemoServer({ databaseUrl: process.env.DATABASE_URL });
const base = demo.server.url;
const n = Number(process.env.BENCH_REQUESTS ?? 500);

let target = process.argv[2];
if (!target) {
  const listed = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  target = `/services/${listed.result[0]!.category}/${listed.result[0]!._id}?q=bench`;
}
const get = async () => {
  // As a browser asks: Node's own user agent is a crawler's, whose pages are rendered whole every time.
  const res = await fetch(base + target, { headers: { ...BROWSER_HEADERS, 'accept-encoding': 'gzip' } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${target}: ${res.status}`);
};
for (let i = 0; i < 50; i++) await get();

async function loadInProcess(): Promise<number> {
  for (let i = 0; i < n; i++) await get();
  return n;
}

/** wrk (BENCH_WRK_CONNECTIONS, default one): its process is outside the profile. Run asynchronously, so that this server answers it. */
async function loadWithWrk(seconds: number): Promise<number> {
  const headers = Object.entries({ ...BROWSER_HEADERS, 'accept-encoding': 'gzip' }).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = await new Promise<string>((resolve, reject) =>
    execFile('wrk', ['-t', '1', '-c', process.env.BENCH_WRK_CONNECTIONS ?? '1', '-d', `${seconds}s`, ...headers, base + target], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  // wrk's summary: "  1234 requests in 10.00s, …".
  const done = out.split('\n').find((line) => line.includes(' requests in '));
  if (!done || out.includes('Non-2xx')) throw new Error(`wrk: ${out}`);
  return Number.parseInt(done.trim(), 10);
}

const profiler = await startProfile();
const cpu = process.cpuUsage();
const wrkSeconds = Number(process.env.BENCH_WRK_SECONDS ?? 0);
const requests = wrkSeconds > 0 ? await loadWithWrk(wrkSeconds) : await loadInProcess();
const used = process.cpuUsage(cpu);
const summary = await profiler.stop(process.env.BENCH_PROFILE);

const whose = wrkSeconds > 0 ? 'server and database; wrk outside' : 'server, database and client';
console.log(`${target}: ${requests} requests, ${((used.user + used.system) / 1000 / requests).toFixed(2)} ms CPU each (${whose})\n`);
console.log(summary);
await demo.close();
process.exit(0);
