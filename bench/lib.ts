/** Benchmark helpers: load measurement, TypeScript worker threads, bare twin server, page script size, markdown table. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LoadJob, LoadResult } from './load-worker.ts';
import { measureWithWrk } from './wrk.ts';

export interface MeasureOptions {
  /** Measured seconds (BENCH_SECONDS, default 10). */
  seconds?: number;
  /** Concurrent connections (BENCH_CONNECTIONS, default 10). */
  connections?: number;
  /** Unmeasured warm-up seconds before the run (default 2). */
  warmupSeconds?: number;
  /** Method, headers and body (default a plain GET). */
  request?: LoadJob['request'];
  /** Paths to rotate through, one per request (e.g. many ids of one route); `url` gives the origin. */
  paths?: string[];
  /** An even rate, requests per second (default: as fast as the server answers). */
  rate?: number;
}

export interface Row {
  name: string;
  /** Responses per second over the measured run. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Non-2xx responses plus request errors. */
  failed: number;
  /** Our req/s divided by the bare twin's, set by the caller. */
  ratio?: number;
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/**
 * What a browser sends that changes the answer: its encodings, and a browser's user agent (Node's own is a crawler's,
 * whose pages are rendered whole every time). Every request of a run sends it, to ours and to the bare twin alike.
 */
export const BROWSER_HEADERS = {
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
} as const;

export const defaults = {
  seconds: envNumber('BENCH_SECONDS', 10),
  connections: envNumber('BENCH_CONNECTIONS', 10),
  warmupSeconds: 2,
};

/**
 * A worker thread running a TypeScript module (`moduleUrl`, e.g. `import.meta.resolve('./x.ts')`). Node 20 workers
 * do not get tsx's hooks from `--import tsx`, so the worker registers them before loading the module.
 */
export function tsWorker(moduleUrl: string, workerData: unknown): Worker {
  const source = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => (register(), import(${JSON.stringify(moduleUrl)})))`;
  return new Worker(source, { eval: true, workerData });
}

/**
 * Loads `url` and returns the stats row. A plain GET runs with wrk (Debian's `wrk`, a separate process in C) when it
 * is installed, as fast as the server answers or at an even rate (bench/even-rate.lua): autocannon in a worker thread
 * of this process topped out at ~7.7 k req/s against the bare twin, so its ratios measured the load client, not the
 * server, and its even rate shared the server's process and cores (issue 31). Rotating paths go through wrk too
 * (bench/paths.lua): in autocannon an ad's click ids measured 5.2 k req/s where wrk measures the same page at 12 k.
 * Other methods, paths at an even rate, and machines without wrk use autocannon and load-worker.ts.
 * BENCH_CLIENT=autocannon forces them.
 */
export async function measure(name: string, url: string, opts: MeasureOptions = {}): Promise<Row> {
  const plainGet = !opts.request?.method && !opts.request?.body && !(opts.paths && opts.rate);
  if (plainGet && loadClient() === 'wrk') {
    const headers = Object.fromEntries(Object.entries({ ...BROWSER_HEADERS, ...opts.request?.headers }).map(([k, v]) => [k, String(v)]));
    return { name, ...(await measureWithWrk(url, { ...defaults, ...opts, headers })) };
  }
  const job: LoadJob = { url, ...defaults, ...opts };
  job.request = { ...job.request, headers: { ...BROWSER_HEADERS, ...job.request?.headers } };
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const worker = tsWorker(import.meta.resolve('./load-worker.ts'), job);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with code ${code}`)));
  });
  const sorted = result.latencies.sort();
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return {
    name,
    rps: result.responses / (result.elapsedMs / 1000),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    failed: result.failed,
  };
}

let client: 'wrk' | 'autocannon' | undefined;
/** Which load client plain GETs use (printed in each benchmark's header). */
export function loadClient(): 'wrk' | 'autocannon' {
  if (client) return client;
  const found = process.env.BENCH_CLIENT !== 'autocannon' && spawnSync('wrk', ['--version']).error === undefined;
  return (client = found ? 'wrk' : 'autocannon');
}

export interface Captured {
  /** The bytes as sent (compressed when the server compressed them). */
  body: Buffer;
  contentType: string;
  contentEncoding?: string;
}

/** Fetches a URL once, as a browser would ask for it, and keeps the bytes as sent with their type and coding. */
export function capture(url: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    get(url, { headers: BROWSER_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
        resolve({
          body: Buffer.concat(chunks),
          contentType: res.headers['content-type'] ?? 'application/octet-stream',
          contentEncoding: res.headers['content-encoding'],
        });
      });
    }).on('error', reject);
  });
}

/** The bytes of a captured answer as they were before compression. */
export function decoded({ body, contentEncoding }: Captured): Buffer {
  if (contentEncoding === 'br') return brotliDecompressSync(body);
  if (contentEncoding === 'gzip') return gunzipSync(body);
  return body;
}

/** A plain node:http server answering fixed bytes per path: the floor any server of ours could reach. */
export async function startBareServer(routes: Map<string, Captured>) {
  const server = createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (!route) return void res.writeHead(404).end();
    const headers: Record<string, string | number> = { 'content-type': route.contentType, 'content-length': route.body.length };
    if (route.contentEncoding) headers['content-encoding'] = route.contentEncoding;
    res.writeHead(200, headers).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/**
 * Same-origin /assets/ JavaScript a page loads up front: `<script type="module" src>`,
 * `<link rel="modulepreload" href>`, and `import("…")` / `import … from "…"` in inline scripts.
 */
export function pageScripts(html: string): string[] {
  const patterns = [
    /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g,
    /<script\b[^>]*\bsrc="([^"]+)"[^>]*\btype="module"/g,
    /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g,
    /<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\bimport\b[^;"'()]*?\bfrom\s*["']([^"']+)["']/g,
  ];
  const urls = new Set<string>();
  for (const pattern of patterns) {
    for (const [, url] of html.matchAll(pattern)) if (url!.startsWith('/assets/')) urls.add(url!);
  }
  return [...urls];
}

/** Fetches each script once; raw and gzip -9 byte totals. */
export async function scriptSizes(origin: string, urls: string[]) {
  let raw = 0;
  let gzip = 0;
  for (const url of urls) {
    const body = decoded(await capture(origin + url));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { files: urls.length, raw, gzip };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '–');

/** Prints rows as a markdown table. */
export function printTable(rows: Row[]) {
  const lines = [
    ['Target', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'ours/bare', 'failed'],
    ...rows.map((r) => [
      r.name,
      Math.round(r.rps).toLocaleString('en-US'),
      ms(r.p50),
      ms(r.p95),
      ms(r.p99),
      r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(1)} %`,
      String(r.failed),
    ]),
  ];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(format(lines[0]!));
  console.log(`|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`);
  for (const line of lines.slice(1)) console.log(format(line));
}

/**
 * A database of the benchmark's own on the PostgreSQL server of `adminUrl` (made afresh) and the production
 * server running in this process on it: no demo data, no bot check, no rates service. `close()` stops the server
 * and drops the database.
 */
export async function startBenchServer(adminUrl: string, name: string) {
  const { default: pg } = await import('pg');
  const database = `podryad_bench_${name}`;
  const dropAndCreate = async (create: boolean) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${database} with (force)`);
      if (create) await admin.query(`create database ${database}`);
    } finally {
      await admin.end();
    }
  };
  await dropAndCreate(true);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const running = await startServerOn(url.toString(), name);
  return {
    server: running.server,
    databaseUrl: url.toString(),
    async close() {
      await running.close();
      await dropAndCreate(false).catch(() => {});
    },
  };
}

/**
 * The level a benchmark's server logs at: npm start's default, `info` (one access line a request), unless
 * BENCH_LOG_LEVEL names another (checked by loadEnv as LOG_LEVEL is); `silent` measures as the benchmarks did until
 * session 59. The lines go to server.log in the server's data folder, as pino writes stdout, which carries the report.
 */
export function benchLogLevel(): string {
  return process.env.BENCH_LOG_LEVEL ?? 'info';
}

/**
 * The production server running in this process on the database at `databaseUrl`, as it is: no demo data, no bot
 * check, no rates service, a fresh data folder. `close()` stops the server and removes the folder.
 */
export async function startServerOn(databaseUrl: string, name: string) {
  const [{ mkdtempSync, rmSync }, os, path] = await Promise.all([import('node:fs'), import('node:os'), import('node:path')]);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `podryad-${name}-bench-`));
  process.env.NODE_ENV = 'production';
  const { loadEnv } = await import('../server/env.ts');
  const { createLogger } = await import('../server/logger.ts');
  const { startServer } = await import('../server/server.ts');
  const env = loadEnv({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    RATES_URL: '',
    SEED_DEMO: '0',
    TURNSTILE_DISABLED: 'true',
    JWT_SECRET: 'bench-only-secret-bench-only-secret-bench-only-secret',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: benchLogLevel(),
  });
  const server = await startServer(env, createLogger(env, path.join(dataDir, 'server.log')));
  return {
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port nobody listens on now, for a server started as a child process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The middle of the runs (the upper one of an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The value at fraction `p` (0.95: p95) of an ascending list: the smallest that at least that share of it is under. */
export const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
}

/**
 * V8's sampling profiler on this thread (the server's, in a bench that runs it in-process) from now until `stop()`,
 * which answers the self time by owner (an npm package, our top folders, node, V8) and by function as markdown
 * tables, and writes the raw profile to `file` (for Chrome's DevTools) when one is given.
 */
export async function startProfile(): Promise<{ stop(file?: string): Promise<string> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
      session.disconnect();
      if (file) writeFileSync(file, JSON.stringify(profile));
      return summarizeProfile(profile.nodes);
    },
  };
}

/** A frame's owner: the npm package, our top folders (server/…, web/…), node's internals, or V8 itself. */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(server\/(?:modules\/)?[^/]+|web\/[^/]+|build\/[^/]+|contract)/.exec(url);
  return ours ? ours[1]! : url;
}

function summarizeProfile(nodes: ProfileNode[]): string {
  const total = nodes.reduce((sum, node) => sum + node.hitCount, 0);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of nodes) {
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
  return `| Self time by owner | share |\n|---|---|\n${top(byOwner, 25)}\n\n| Self time by function | share |\n|---|---|\n${top(byFunction, 40)}`;
}
