/**
 * Load from wrk (Debian's `wrk`, a separate process in C), for `measure()` in bench/lib.ts: as fast as the server
 * answers, at an even rate (bench/even-rate.lua), or over many paths (bench/paths.lua). The scripts end with a report
 * printed as one JSON line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { Row } from './lib.ts';

// wrk's own percentiles (microseconds) and counts, printed as one JSON line when the run is done.
const WRK_REPORT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"errors":%d,"status":%d,"p50":%d,"p95":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end`;

/** A file in `dir` holding WRK_REPORT, for wrk's `-s`, after `before` (a script of ours that makes the requests). */
function reportScript(dir: string, before = ''): string {
  const script = path.join(dir, 'report.lua');
  writeFileSync(script, `${before}\n${WRK_REPORT}`);
  return script;
}

/** A path of its own for each request: bench/paths.lua reads them from a file, one a line. */
const PATHS_SCRIPT = path.join(import.meta.dirname, 'paths.lua');

/** wrk's `-s` and arguments for a run over `paths`, each in turn, from `threads` threads; the files go in `dir`. */
function pathsLoad(dir: string, origin: string, paths: string[], threads: string): string[] {
  const file = path.join(dir, 'paths.txt');
  writeFileSync(file, paths.join('\n'));
  return ['-s', reportScript(dir, readFileSync(PATHS_SCRIPT, 'utf8')), origin, '--', file, threads];
}

/** The even rate's wrk script: its own clock and its own percentiles, from when each request was due. */
const EVEN_RATE_SCRIPT = path.join(import.meta.dirname, 'even-rate.lua');

/** One wrk run's settings, resolved by `measure()` (bench/lib.ts). */
export interface WrkLoad {
  seconds: number;
  connections: number;
  warmupSeconds: number;
  /** Every request's headers. */
  headers: Record<string, string>;
  /** An even rate, requests per second (bench/even-rate.lua); unset: as fast as the server answers. */
  rate?: number;
  /** A path of its own for each request, on `url`'s origin (bench/paths.lua); not with `rate`. */
  paths?: string[];
}

/** Loads `url` with wrk (its own process) and returns its throughput and latencies in ms. */
export async function measureWithWrk(url: string, load: WrkLoad): Promise<Omit<Row, 'name'>> {
  const { seconds, connections, warmupSeconds, rate, paths } = load;
  const headers = Object.entries(load.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  // As fast as it goes: one thread per core, as wrk advises, and never more threads than connections. At an even rate:
  // a thread for each connection, which keeps its own schedule (bench/even-rate.lua).
  const threads = String(rate ? connections : Math.min(connections, availableParallelism()));
  // The run's scripts and paths (a million ids are tens of MB) live as long as the run.
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-wrk-'));
  const script = rate
    ? ['-s', EVEN_RATE_SCRIPT, url, '--', String(rate), String(connections)]
    : paths
      ? pathsLoad(dir, new URL(url).origin, paths, threads)
      : ['-s', reportScript(dir), url];
  const run = (secs: number) =>
    new Promise<string>((resolve, reject) => {
      execFile('wrk', ['-t', threads, '-c', String(connections), '-d', `${secs}s`, '--timeout', '10s', ...headers, ...script], { maxBuffer: 1 << 20 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      );
    });
  let output: string;
  try {
    if (warmupSeconds > 0) await run(warmupSeconds);
    output = await run(seconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const report = rate ? 'EVEN_JSON ' : 'WRK_JSON ';
  const line = output.split('\n').find((l) => l.startsWith(report));
  if (!line) throw new Error(`wrk printed no report for ${url}`);
  const r = JSON.parse(line.slice(report.length)) as { requests?: number; responses?: number; duration_us: number; errors: number; status: number; p50: number; p95: number; p99: number };
  // wrk's own percentiles are in microseconds; the even rate's, timed by its script, in milliseconds.
  const ms = rate ? 1 : 1 / 1000;
  const done = r.responses ?? r.requests ?? 0;
  return { rps: done / (r.duration_us / 1e6), p50: r.p50 * ms, p95: r.p95 * ms, p99: r.p99 * ms, failed: r.errors + r.status };
}
