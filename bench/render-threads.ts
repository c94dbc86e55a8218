/**
 * A page rendered every time, thread by thread. The demo server (production build, PGlite unless DATABASE_URL) runs in
 * this process, loaded by wrk (its own process; BENCH_CONNECTIONS, default 10) in BENCH_RUNS slices (default 3) of
 * BENCH_SECONDS (default 10) after a 15 s warm-up. For each slice it prints the pages per second, wrk's latencies, the
 * process's CPU a page, each thread's active time a page and its share of the slice (`eventLoopUtilization()`, the
 * render threads' through the pool), and the machine's idle CPU (`/proc/stat`). Whichever thread is the fuller decides
 * the pages per second; idle CPU beside a full thread is time the pipeline's stages wait for each other (bench/README,
 * sessions 55 and 56). A second table says where each render in a thread waited (bench/render-stages.ts): for the
 * thread's turn before its first read, for the server's thread to answer its reads, and after the last answer.
 * `npm run build` first, then:
 *   node --import tsx bench/render-threads.ts ['/services/<category>/<id>?q=bench']
 * Without a target it loads a demo service's page with `?q=bench`. RENDER_THREADS as for the server.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { withStartFlags } from './processes.ts';

// The server is measured as `npm start` runs it, V8 flags included.
withStartFlags();

process.env.NODE_ENV = 'production';
register('../scripts/production-builds.mjs', import.meta.url);
const { startDemoServer } = await import('./demo-server.ts');
const { BROWSER_HEADERS, defaults } = await import('./lib.ts');
const { describeStages, watchRenderStages } = await import('./render-stages.ts');
// Before the server starts: every message to and from its render threads is timed.
const stages = watchRenderStages();

const demo = await startDemoServer({ databaseUrl: process.env.DATABASE_URL });
const base = demo.server.url;
let target = process.argv[2];
if (!target) {
  const listed = (await (await fetch(`${base}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  target = `/services/${listed.result[0]!.category}/${listed.result[0]!._id}?q=bench`;
}
const runs = Number(process.env.BENCH_RUNS ?? 3);
const pool = demo.server.app.renderPool;

/** wrk's summary: the requests served and its latency percentiles, in ms. */
async function wrk(seconds: number) {
  const headers = Object.entries(BROWSER_HEADERS).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t', '1', '-c', String(defaults.connections), '-d', `${seconds}s`, '--latency', ...headers, base + target];
  const out = await new Promise<string>((resolve, reject) => execFile('wrk', args, (err, stdout) => (err ? reject(err) : resolve(stdout))));
  const done = out.split('\n').find((line) => line.includes(' requests in '));
  if (!done || out.includes('Non-2xx')) throw new Error(`wrk: ${out}`);
  const latency = (p: string) => {
    const value = out.split('\n').find((line) => line.trim().startsWith(`${p}%`))?.trim().split(/\s+/u)[1] ?? '';
    const n = Number.parseFloat(value);
    return value.endsWith('us') ? n / 1000 : value.endsWith('ms') ? n : n * 1000;
  };
  return { requests: Number.parseInt(done.trim(), 10), p50: latency('50'), p99: latency('99') };
}

/** The machine's idle and total CPU ticks so far, or null off Linux. */
function cpuTicks(): { idle: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/u).slice(1).map(Number);
    return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, n) => sum + n, 0) };
  } catch {
    return null;
  }
}

const share = (used: EventLoopUtilization, pages: number) => `${(used.active / pages).toFixed(2)} ms (${(used.utilization * 100).toFixed(0)} %)`;

await new Promise((resolve) => setTimeout(resolve, 15_000));
await wrk(15);
console.log(`${target}, ${defaults.connections} connections, ${runs} × ${defaults.seconds} s\n`);
console.log('| Run | req/s | p50 ms | p99 ms | CPU a page | server\'s thread a page | render threads a page | machine idle |');
console.log('|---|---|---|---|---|---|---|---|');
const staged: string[] = [];
for (let run = 1; run <= runs; run++) {
  stages.take(); // the warm-up's and the previous run's stragglers
  const [server, threads, cpu, ticks] = [performance.eventLoopUtilization(), pool?.utilization() ?? [], process.cpuUsage(), cpuTicks()];
  const { requests, p50, p99 } = await wrk(defaults.seconds);
  const used = process.cpuUsage(cpu);
  const serverUsed = performance.eventLoopUtilization(server);
  const threadsUsed = (pool?.utilization() ?? []).slice(0, threads.length).map((now, i) => performance.eventLoopUtilization(now, threads[i]));
  const after = cpuTicks();
  const idle = ticks && after ? `${(((after.idle - ticks.idle) / (after.total - ticks.total)) * 100).toFixed(0)} %` : '-';
  console.log(
    `| ${run} | ${(requests / defaults.seconds).toFixed(0)} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${((used.user + used.system) / 1000 / requests).toFixed(2)} ms | ${share(serverUsed, requests)} | ${threadsUsed.map((t) => share(t, requests)).join(', ') || 'none'} | ${idle} |`,
  );
  const times = stages.take();
  const cells = describeStages(times);
  staged.push(`| ${run} | ${times.length} | ${cells.render} | ${cells.toFirstCall} | ${cells.calls} | ${cells.afterLastAnswer} |`);
}
console.log('\nWhere a render in a thread went, p50 / p99 in ms (bench/render-stages.ts):\n');
console.log('| Run | renders | sent → page back | to the first call | calls (server\'s thread) | after the last answer |');
console.log('|---|---|---|---|---|---|');
for (const line of staged) console.log(line);
if (!pool?.threads()) console.log('(no render thread ran: every page was rendered on the server\'s thread)');
await demo.close();
process.exit(0);
