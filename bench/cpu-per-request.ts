/**
 * CPU time per request, for comparing two versions on a busy machine: the demo server (PGlite, in this process)
 * answers N sequential requests per target, and the process's CPU time (server, database and client together) is
 * divided by N. CPU time barely moves with other processes' load, unlike requests per second.
 * `node --import tsx bench/cpu-per-request.ts` (BENCH_REQUESTS, default 1500); run it in two worktrees, interleaved,
 * to compare two commits (issue 26 did: 73364b0 against 08822c2).
 */
import { register } from 'node:module';

process.env.NODE_ENV = 'production';
// As `npm start` runs: production builds of React and React Router (bench/profile.ts does the same).
register('../scripts/production-builds.mjs', import.meta.url);
const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS } = await import('./lib.ts');
const demo = await startDemoServer({});
const base = demo.server.url;
const n = Number(process.env.BENCH_REQUESTS ?? 1500);
const listed = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
const first = listed.result[0]!;
const service = `/services/${first.category}/${first._id}`;
// `?q=bench`: the same service page rendered every time (a query string the page cache does not keep).
const targets = ['/', service, `${service}?q=bench`, `/services/${first.category}`, '/api/services?limit=20', '/projects'];
const rows: string[] = [];
for (const target of targets) {
  for (let i = 0; i < 100; i++) await (await fetch(base + target, { headers: BROWSER_HEADERS })).arrayBuffer();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(base + target, { headers: { ...BROWSER_HEADERS, 'accept-encoding': 'gzip' } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${target}: ${res.status}`);
  }
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - t0;
  rows.push(`| ${target.padEnd(40)} | ${((used.user + used.system) / 1000 / n).toFixed(3)} ms CPU | ${(wall / n).toFixed(2)} ms wall |`);
}
console.log(rows.join('\n'));
await demo.close();
process.exit(0);

export {};
