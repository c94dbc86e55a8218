/**
 * Where a request's CPU goes: the demo server (production build, PGlite unless DATABASE_URL) in this process answers
 * BENCH_REQUESTS (default 500) sequential GETs of one target under V8's sampling profiler; prints the self time by
 * package (or our own folder) and the top functions. `npm run build` first, then:
 *   node --import tsx bench/profile.ts '/services/<category>/<id>?q=bench'   (a page rendered every time)
 * Without a target it profiles a demo service's page with `?q=bench`. BENCH_PROFILE=file.cpuprofile keeps the raw
 * profile for Chrome's DevTools. BENCH_WRK_SECONDS=N loads the server with wrk (its own process, one connection) for N
 * seconds instead: the profile and the CPU per request are then the server's alone, without this process's client.
 */
import { writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { register } from 'node:module';

process.env.NODE_ENV = 'production';
register('../scripts/production-builds.mjs', import.meta.url);
const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS } = await import('./lib.ts');
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

/** wrk, one connection: its process is outside the profile. Run asynchronously, so that this server answers it. */
async function loadWithWrk(seconds: number): Promise<number> {
  const headers = Object.entries({ ...BROWSER_HEADERS, 'accept-encoding': 'gzip' }).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const out = await new Promise<string>((resolve, reject) =>
    execFile('wrk', ['-t', '1', '-c', '1', '-d', `${seconds}s`, ...headers, base + target], (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  // wrk's summary: "  1234 requests in 10.00s, …".
  const done = out.split('\n').find((line) => line.includes(' requests in '));
  if (!done || out.includes('Non-2xx')) throw new Error(`wrk: ${out}`);
  return Number.parseInt(done.trim(), 10);
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
const cpu = process.cpuUsage();
const wrkSeconds = Number(process.env.BENCH_WRK_SECONDS ?? 0);
const requests = wrkSeconds > 0 ? await loadWithWrk(wrkSeconds) : await loadInProcess();
const used = process.cpuUsage(cpu);
const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: Node[] } };
if (process.env.BENCH_PROFILE) writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));

/** A frame's owner: the npm package, our top folders (server/…, web/…), node's internals, or V8 itself. */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(server\/(?:modules\/)?[^/]+|web\/[^/]+|build\/[^/]+|contract)/.exec(url);
  return ours ? ours[1]! : url;
}
const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
const byOwner = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const who = owner(url, functionName);
  byOwner.set(who, (byOwner.get(who) ?? 0) + node.hitCount);
  const key = `${functionName || '(anonymous)'} ${who}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
}
const pct = (hits: number) => `${((hits / total) * 100).toFixed(1)} %`;
const top = (map: Map<string, number>, count: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, v]) => `| ${k} | ${pct(v)} |`)
    .join('\n');
const whose = wrkSeconds > 0 ? 'server and database; wrk outside' : 'server, database and client';
console.log(`${target}: ${requests} requests, ${((used.user + used.system) / 1000 / requests).toFixed(2)} ms CPU each (${whose})\n`);
console.log(`| Self time by owner | share |\n|---|---|\n${top(byOwner, 25)}\n`);
console.log(`| Self time by function | share |\n|---|---|\n${top(byFunction, 40)}`);
session.disconnect();
await demo.close();
process.exit(0);
