/**
 * Idle memory (`npm run bench -- memory`, after `npm run build`; issue 31): the server as `npm start` runs it
 * (package.json's start command with its Node flags, with no NODE_ENV: production, embedded PGlite, demo data) in a
 * fresh data folder, measured twice per run: after its first start (migrations and the demo seed) and after a restart
 * on that folder. Each time it waits until ready, opens a few pages, their pictures and API reads (so the caches hold
 * something), waits until the CPU of the process and of those it started is quiet (the demo pictures' variants are
 * made in the background, ADR 072), stays idle BENCH_IDLE_SECONDS (10), then reads the process's memory: VmRSS
 * (anonymous and file-backed), V8's heap, external memory and ArrayBuffers, and PGlite's WebAssembly memory (its size
 * and the part of it resident), through bench/memory-probe.mjs (--import), and the RSS of its child processes still
 * running. MEMORY_PROBE_GC=1 with BENCH_NODE_OPTIONS=--expose-gc runs a full GC first. After the restart's measure,
 * latencies of a few reads the caches do not answer (sequential, BENCH_REQUESTS (60) each), and of the first renders
 * after 8 s idle, show what a memory setting costs in speed: compare them only between runs in the same conditions
 * (load average printed). Prints the median of BENCH_RUNS (3) runs. DATABASE_URL=… measures on PostgreSQL instead
 * (a fresh database made beside the one named, dropped at the end). BENCH_NODE_OPTIONS adds Node flags to the server; BENCH_JSON=file
 * keeps every sample.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, median, percentile } from './lib.ts';
import { descendants, quiet } from './processes.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS) || 3;
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS) || 10;
const requests = Number(process.env.BENCH_REQUESTS) || 60;
const adminUrl = process.env.DATABASE_URL;

interface Probe {
  usage: NodeJS.MemoryUsage;
  wasm: number[];
  mappings: { wasmRss: number; others: { size: number; rss: number; perms: string; name: string }[] };
  spaces: Record<string, number>;
  status: Record<'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile', number>;
  /** The resident memory of the processes the server started and that still run (bench side, not the probe's). */
  childrenRss: number;
}

interface Sample {
  readyMs: number;
  probe: Probe;
  latency?: Record<string, { p50: number; p95: number }>;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The body of a GET that must answer 200. */
async function get(url: string): Promise<Buffer> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return body;
}

/** What a visitor's first minutes load: pages (rendered, then cached), the catalogue's reads, a search. */
async function warm(origin: string): Promise<string> {
  const listed = (await (await fetch(`${origin}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  const first = listed.result[0];
  if (!first) throw new Error('no demo service to open');
  const servicePage = `/services/${first.category}/${first._id}`;
  const pages: string[] = [];
  for (const p of ['/', '/services', servicePage]) pages.push((await get(origin + p)).toString());
  for (const p of ['/api/categories/', '/api/services?limit=20', `/api/services?q=${encodeURIComponent('логотип')}`]) await get(origin + p);
  // The pictures a browser would load with those pages: after a first start, their variants may not be made yet.
  const pictures = new Set(pages.flatMap((html) => html.match(/\/uploads\/[^"' ,?]+/g) ?? []));
  for (const picture of pictures) await get(origin + picture);
  return servicePage;
}

/** Sequential reads the caches do not answer: a search, a listing page, a service page rendered every time. */
async function latencies(origin: string, servicePage: string) {
  const sorts = ['popular', 'new', 'price_asc', 'price_desc', 'rating'];
  const words = ['логотип', 'сайт', 'лендинг для кофейни', 'дизайн', 'лготип', 'текст'];
  const kinds: Record<string, (i: number) => string> = {
    'search /api/services?q=…': (i) => `/api/services?q=${encodeURIComponent(words[i % words.length]!)}&sort=${sorts[i % sorts.length]}`,
    'listing /api/services?sort=…&price_min=…': (i) => `/api/services?limit=20&sort=${sorts[i % sorts.length]}&price_min=${(i % 7) * 10_000}`,
    'service page, rendered every time': (i) => `${servicePage}?q=bench${i}`,
  };
  const timed = async (url: string) => {
    const started = performance.now();
    await get(origin + url);
    return performance.now() - started;
  };
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [name, url] of Object.entries(kinds)) {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) times.push(await timed(url(i)));
    out[name] = percentiles(times);
  }
  // The first renders after an idle spell, which a server that gives memory back when idle (ADR 073) has just done.
  const afterIdle: number[] = [];
  for (let spell = 0; spell < IDLE_SPELLS; spell++) {
    await sleep(IDLE_SPELL_MS);
    for (let i = 0; i < 20; i++) {
      const ms = await timed(`${servicePage}?q=idle${spell}-${i}`);
      if (i < 3) afterIdle.push(ms);
    }
  }
  out[`service page, the first 3 renders after ${IDLE_SPELL_MS / 1000} s idle (${IDLE_SPELLS} times)`] = percentiles(afterIdle);
  return out;
}

/** Idle spells before the renders timed after them, each long enough for ADR 073's release (5 s of quiet). */
const IDLE_SPELLS = 6;
const IDLE_SPELL_MS = 8_000;

const percentiles = (times: number[]) => ({ p50: median(times), p95: percentile([...times].sort((a, b) => a - b), 0.95) });

/** What `npm start` runs (package.json), with its Node flags, without npm: the measured process is the server itself. */
const startScript = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const [startNode, ...startArgs] = startScript.split(' ');
if (startNode !== 'node') throw new Error(`unexpected start script: ${startScript}`);

/** The resident memory of the processes a process started (none when they have ended). */
function descendantsRss(pid: number): number {
  let rss = 0;
  for (const child of descendants(pid)) {
    try {
      rss += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // exited meanwhile
    }
  }
  return rss;
}

/** Starts the server as `npm start` does, measures it idle (and its latencies when asked), stops it. */
async function startAndMeasure(env: Record<string, string>, withLatency: boolean): Promise<Sample> {
  const port = await freePort();
  const out = path.join(env.DATA_DIR!, `probe-${port}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, startArgs, {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      MEMORY_PROBE_OUT: out,
      NODE_OPTIONS: `--import ./bench/memory-probe.mjs ${process.env.BENCH_NODE_OPTIONS ?? ''}`.trim(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-20_000)));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const origin = `http://127.0.0.1:${port}`;
  try {
    let readyMs = 0;
    const deadline = Date.now() + 180_000;
    while (!readyMs) {
      if (exited) throw new Error(`the server exited before it was ready:\n${output}`);
      if (Date.now() > deadline) throw new Error(`not ready in 180 s:\n${output}`);
      try {
        const res = await fetch(`${origin}/api/ready`);
        await res.arrayBuffer();
        if (res.status === 200) readyMs = performance.now() - started;
      } catch {
        await sleep(50);
      }
      if (!readyMs) await sleep(50);
    }
    const servicePage = await warm(origin);
    // Work the start left running in the background (the demo pictures' variants after a seed) is finished first.
    await quiet(child.pid!);
    await sleep(idleSeconds * 1000);
    rmSync(out, { force: true });
    child.kill('SIGUSR2');
    for (let i = 0; i < 100 && !existsSync(out); i++) await sleep(50);
    await sleep(100); // the probe writes in one call; let it finish
    const probe = { ...(JSON.parse(readFileSync(out, 'utf8')) as Probe), childrenRss: descendantsRss(child.pid!) };
    const latency = withLatency ? await latencies(origin, servicePage) : undefined;
    return { readyMs, probe, latency };
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exit, sleep(30_000)]);
    if (!exited) child.kill('SIGKILL');
    await exit;
  }
}

const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);

/** The `npm start` demo's environment (start.mjs fills in the rest), quiet and offline. */
function demoEnv(dataDir: string, databaseUrl: string): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
  for (const name of ['NODE_ENV', 'DEMO_MODE', 'SEED_DEMO', 'REDIS_URL', 'PORT']) delete env[name];
  return { ...env, HOST: '127.0.0.1', RATES_URL: '' };
}

async function withDatabase<T>(work: (databaseUrl: string) => Promise<T>): Promise<T> {
  if (!adminUrl) return work('');
  const name = `podryad_memory_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await work(url.href);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) throw new Error('no build: run `npm run build` first');

const samples: { first: Sample; restart: Sample }[] = [];
for (let run = 0; run < runs; run++) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-memory-'));
  try {
    samples.push(
      await withDatabase(async (databaseUrl) => {
        const env = demoEnv(dataDir, databaseUrl);
        const first = await startAndMeasure(env, false);
        const restart = await startAndMeasure(env, true);
        return { first, restart };
      }),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const s = samples.at(-1)!;
  console.error(`run ${run + 1}: RSS ${mb(s.first.probe.status.VmRSS)} MB after the first start, ${mb(s.restart.probe.status.VmRSS)} MB after a restart`);
}

// BENCH_JSON=file keeps every sample (with the largest resident mappings) for a closer look.
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(samples, null, 1));

const figures: [string, (p: Probe) => number][] = [
  ['RSS (VmRSS)', (p) => p.status.VmRSS],
  ['  anonymous (RssAnon)', (p) => p.status.RssAnon],
  ['  file-backed (RssFile: code, mapped files)', (p) => p.status.RssFile],
  ['  WebAssembly memory resident (PGlite)', (p) => p.mappings.wasmRss],
  ['Peak RSS (VmHWM)', (p) => p.status.VmHWM],
  ["RSS of the server's child processes still running", (p) => p.childrenRss],
  ['WebAssembly memory size (live memories)', (p) => p.wasm.reduce((a, b) => a + b, 0)],
  ['V8 heap used', (p) => p.usage.heapUsed],
  ['V8 heap total', (p) => p.usage.heapTotal],
  ['  old space used', (p) => p.spaces.old_space ?? 0],
  ['  code space used', (p) => p.spaces.code_space ?? 0],
  ['  large objects used', (p) => p.spaces.large_object_space ?? 0],
  ['External (includes WebAssembly memories)', (p) => p.usage.external],
  ['ArrayBuffers (Buffers)', (p) => p.usage.arrayBuffers],
];

const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
console.log(
  `\n## Idle memory, ${adminUrl ? 'PostgreSQL' : 'PGlite (embedded)'}, \`npm start\` demo (median of ${runs}; ` +
    `${os.availableParallelism()} cores, Node ${process.version}, load average ${load})\n`,
);
console.log(`Command: \`${startScript}\`. Measured ${idleSeconds} s after a few pages and reads and the CPU quiet.${process.env.BENCH_NODE_OPTIONS ? ` Node flags: ${process.env.BENCH_NODE_OPTIONS}.` : ''}\n`);
console.log('| MB | After the first start (seed) | After a restart | Runs (first; restart) |');
console.log('|---|---:|---:|---|');
for (const [name, pick] of figures) {
  const first = samples.map((s) => pick(s.first.probe));
  const again = samples.map((s) => pick(s.restart.probe));
  console.log(`| ${name} | ${mb(median(first))} | ${mb(median(again))} | ${first.map(mb).join(', ')}; ${again.map(mb).join(', ')} |`);
}
const ready = (pick: (s: { first: Sample; restart: Sample }) => number) => (median(samples.map(pick)) / 1000).toFixed(2);
console.log(`| Time to ready (s) | ${ready((s) => s.first.readyMs)} | ${ready((s) => s.restart.readyMs)} | |`);

console.log(`\n### Latency after the restart (${requests} sequential requests each, median of ${runs} runs' p50 / p95)\n`);
console.log('| Request | p50 ms | p95 ms |');
console.log('|---|---:|---:|');
for (const name of Object.keys(samples[0]!.restart.latency ?? {})) {
  const p50 = median(samples.map((s) => s.restart.latency![name]!.p50));
  const p95 = median(samples.map((s) => s.restart.latency![name]!.p95));
  console.log(`| ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`);
}
