/**
 * `npm run bench`: the real server in this process, each target beside a bare node:http twin
 * (same process, same bytes from memory), plus the gzipped JavaScript of the home page. Once the server is quiet,
 * each target and its twin run BENCH_ROUNDS times (3) in turns; each row is the run of median throughput.
 * BENCH_SECONDS (10) and BENCH_CONNECTIONS (10) tune the runs, BENCH_RATE (100) the even-rate runs of cached pages,
 * BENCH_RENDER_RATE (150) the even-rate runs of a page rendered every time, each reported with V8's collections on the
 * server's thread meanwhile (bench/gc.ts); DATABASE_URL picks PostgreSQL over PGlite.
 * BENCH_CATALOG=1 adds the catalog benchmark (bench/catalog.ts, PostgreSQL only) after it;
 * BENCH_CHAT=1 the chat benchmark (bench/chat.ts, PostgreSQL only).
 * `npm run bench -- chat-failover` runs only the chat failover benchmark (bench/chat-failover.ts: two instances, one
 * killed; PostgreSQL and Redis).
 * `npm run bench -- memory` runs only the idle memory benchmark (bench/memory.ts: `npm start`'s server, RSS and its parts).
 * The money loop's benchmarks run on their own (PostgreSQL only; commands in their headers): bench/payments.ts
 * (payments per second and p95) and bench/orders.ts (the order lists at 100,000 orders). So does bench/catalog-cpu.ts
 * (CPU per listing request, the server's and PostgreSQL's, at a million services), and bench/render-threads.ts (a
 * page rendered every time, each thread's share: the server's and the render threads').
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { benchLogLevel, capture, decoded, defaults, loadClient, measure, pageScripts, printTable, scriptSizes, startBareServer, type Row } from './lib.ts';
import { describeCollections, watchCollections } from './gc.ts';
import { describeMachine, machineCosts } from './machine.ts';
import { quiet, startFlags, withStartFlags } from './processes.ts';

// The server is measured as `npm start` runs it, V8 flags included.
withStartFlags();

// `npm run bench -- chat-failover`: only the chat failover benchmark (bench/chat-failover.ts, issue 29).
if (process.argv[2] === 'chat-failover') {
  const { runChatFailoverBench } = await import('./chat-failover.ts');
  await runChatFailoverBench();
  process.exit(process.exitCode ?? 0);
}

// `npm run bench -- memory`: only the idle memory benchmark (bench/memory.ts, issue 31); it starts its own servers.
if (process.argv[2] === 'memory') {
  await import('./memory.ts');
  process.exit(process.exitCode ?? 0);
}

// React picks its production build from this when first imported, so set it before loading the server.
process.env.NODE_ENV = 'production';
// And React Router's production build, as `npm start` loads it (scripts/production-builds.mjs).
register('../scripts/production-builds.mjs', import.meta.url);

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  console.log('No web build yet: running `npx react-router build`…');
  const build = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`react-router build failed (${build.status ?? build.signal})`);
}

// What kind of machine the figures come from, measured before the server starts (bench/machine.ts).
const machine = describeMachine(machineCosts());

/** Runs of each target against its twin (BENCH_ROUNDS, default 3): each row is the run of median throughput. */
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS) || 3);
/** The run of median throughput, or of the median of another figure (an even rate's p99). */
const medianRun = (runs: Row[], by = (run: Row) => run.rps) => [...runs].sort((a, b) => by(a) - by(b))[Math.floor(runs.length / 2)]!;

const { startDemoServer } = await import('./demo-server.ts');
const demo = await startDemoServer({ databaseUrl: process.env.DATABASE_URL });
const server = demo.server;
let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;

try {
  // A demo service's page, as a guest opens it from the catalogue.
  const listed = (await (await fetch(`${server.url}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  const first = listed.result[0];
  if (!first) throw new Error('no demo service to open');
  const servicePage = `/services/${first.category}/${first._id}`;
  const targets = ['/api/categories/', '/', servicePage];
  const captured = new Map(await Promise.all(targets.map(async (t) => [t, await capture(server.url + t)] as const)));
  bare = await startBareServer(captured);

  console.log('## Подряд benchmark\n');
  console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; ${machine}`);
  console.log(`- Database: ${server.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (embedded)'}`);
  console.log(
    `- load: ${loadClient() === 'wrk' ? 'wrk (its own process)' : 'autocannon (a worker thread of this process; install wrk for ratios that measure the server)'}, ` +
      `${defaults.connections} connections, ${defaults.seconds} s per run after ${defaults.warmupSeconds} s warm-up; ` +
      `the even-rate rows time each request from when it was due (${loadClient() === 'wrk' ? 'bench/even-rate.lua' : 'bench/load-worker.ts, a worker thread'})`,
  );
  console.log(`- Node flags: npm start's, ${startFlags().join(' ')}`);
  console.log(`- server log: ${benchLogLevel()}${benchLogLevel() === 'info' ? ", npm start's (one access line a request)" : ''}, to a file (BENCH_LOG_LEVEL)`);
  console.log(`- render threads (ADR 077): at most ${process.env.RENDER_THREADS ?? 'the default (cores − 1, at most 4)'}; RENDER_THREADS=0 renders in process`);
  console.log('- "bare" = a plain node:http server in the same process answering the captured bytes from memory');
  console.log(`- ours and bare: ${rounds} runs each, in turns, once the server and its children were quiet; a row is the run of median req/s\n`);

  const label = (target: string) => (target === servicePage ? 'a service page' : target);
  const rows: Row[] = [];
  // The demo's start leaves work behind (the pictures' variants in a child process, for some 10 s): a run taken
  // meanwhile measured it. The first lookups' runs gave 58 % of bare where later ones gave 88–93 % (session 37).
  await quiet(process.pid);
  for (const target of targets) {
    console.error(`measuring GET ${target}…`); // progress on stderr keeps stdout pasteable
    const ours: Row[] = [];
    const twins: Row[] = [];
    const runOurs = async () => ours.push(await measure(`GET ${label(target)} (ours)`, server.url + target));
    const runTwin = async () => twins.push(await measure(`GET ${label(target)} (bare, same process)`, bare!.url + target));
    // Ours and the twin in turns, the first of each pair alternating, so that neither is always first after the other.
    for (let round = 0; round < rounds; round++) for (const run of round % 2 ? [runTwin, runOurs] : [runOurs, runTwin]) await run();
    const [mine, twin] = [medianRun(ours), medianRun(twins)];
    rows.push({ ...mine, ratio: mine.rps / twin.rps }, twin);
  }
  // The latency a visitor sees at an even load the app can carry (issue 11: p99 ≤ 50 ms at 100 req/s).
  const rate = Number(process.env.BENCH_RATE) || 100;
  // And what V8's collector did on the server's thread meanwhile: a slow scavenge is what moved this p99 (session 60).
  const collected: string[] = [];
  for (const target of ['/', servicePage]) {
    console.error(`measuring GET ${target} at ${rate} req/s…`);
    const collections = watchCollections();
    rows.push(await measure(`GET ${label(target)} at an even ${rate} req/s`, server.url + target, { rate }));
    collected.push(`${label(target)} at ${rate} req/s: ${describeCollections(collections.stop())}`);
  }
  // Visitors from an ad, each click with an id of its own (`yclid`): the page kept for `/`, not a render each (ADR 021).
  console.error('measuring GET /?utm_source=…&yclid=… (a click id each)…');
  const clicks = Array.from({ length: 100_000 }, (_, i) => `/?utm_source=yandex&utm_medium=cpc&yclid=${1e15 + i}`);
  rows.push(await measure('GET / from an ad, a click id each', server.url, { paths: clicks }));
  // A page the cache does not keep (a search's `q`): what a render costs on a miss. Loaded for one run first, not
  // counted: a render thread (ADR 077) starts after two busy seconds, and its code is optimised over the next few.
  // Then BENCH_ROUNDS runs, the row being the run of median throughput, as for the targets above.
  console.error(`measuring GET ${servicePage}?q=… (rendered every time)…`);
  const rendered = `${server.url}${servicePage}?q=bench`;
  await measure('warm-up', rendered);
  const renders: Row[] = [];
  for (let round = 0; round < rounds; round++) renders.push(await measure('GET a service page, rendered every time', rendered));
  rows.push(medianRun(renders));
  // And the latency at an even load below that capacity (issue 31: 150 req/s over 10 connections), BENCH_ROUNDS runs
  // too: the row is the run of median p99, the throughput being the rate asked for.
  const renderRate = Number(process.env.BENCH_RENDER_RATE) || 150;
  console.error(`measuring GET ${servicePage}?q=… at ${renderRate} req/s…`);
  const even: Row[] = [];
  for (let round = 0; round < rounds; round++) {
    const collections = watchCollections();
    even.push(await measure(`GET a service page, rendered every time, at an even ${renderRate} req/s`, rendered, { rate: renderRate }));
    collected.push(`rendered at ${renderRate} req/s, run ${round + 1}: ${describeCollections(collections.stop())}`);
  }
  rows.push(medianRun(even, (run) => run.p99));
  printTable(rows);
  const p99s = (runs: Row[]) => runs.map((run) => `${run.p99.toFixed(1)} ms`).join(', ');
  console.log(`\n- A service page rendered every time, p99 of each run: ${p99s(renders)}; at an even ${renderRate} req/s: ${p99s(even)}`);
  console.log(`- Render threads running after the runs: ${server.app.renderPool?.threads() ?? 0}`);
  console.log(`- V8's collections on the server's thread during each even-rate run, its warm-up included: ${collected.join('; ')}`);

  const home = captured.get('/')!;
  const html = decoded(home);
  // A guest's page hands the app's preloads to its boot script (web/lib/boot-on-intent.ts, as in e2e/fixtures.ts's
  // bootLinks): they are the files the app loads when it starts, on the first sign of intent.
  const text = html.toString('utf8');
  const boot = /data-boot="([^"]*)"/.exec(text)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const js = await scriptSizes(server.url, pageScripts(text + (boot ? (JSON.parse(boot) as { links: string }).links : '')));
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`\n- Home page HTML: ${kib(html.length)}, ${kib(home.body.length)} as sent (${home.contentEncoding ?? 'identity'})`);
  console.log(`- Home page JavaScript when the app starts: ${js.files} files, ${kib(js.raw)} raw, ${kib(js.gzip)} gzip -9`);
  if (rows.some((r) => r.failed > 0)) console.log('\n**Warning:** some requests failed (see the "failed" column).');
} finally {
  await bare?.close();
  await demo.close();
}

if (process.env.BENCH_CATALOG === '1') {
  console.log('');
  const { runCatalogBench } = await import('./catalog.ts');
  await runCatalogBench();
}

if (process.env.BENCH_CHAT === '1') {
  console.log('');
  const { runChatBench } = await import('./chat.ts');
  await runChatBench();
}
