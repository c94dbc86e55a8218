import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measure } from './lib.ts';

// The benchmarks' even rate (bench/even-rate.lua): wrk from Debian's packages, as CI installs it (.ci/run).
const wrk = spawnSync('wrk', ['--version']).error === undefined;

// Each run lasts 3 s: within the unit tests' 5 s default only on an idle machine.
describe.skipIf(!wrk)('an even rate with wrk', { timeout: 20_000 }, () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server answering each request after `ms`, whose event loop stalls once, `stallMs` long, `stallAt` ms after its first request. */
  async function serve(ms: number, stall?: { at: number; ms: number }): Promise<string> {
    let first = 0;
    let stalled = false;
    server = createServer((_, res) => {
      first ||= performance.now();
      if (stall && !stalled && performance.now() - first >= stall.at) {
        stalled = true;
        const until = performance.now() + stall.ms;
        while (performance.now() < until);
      }
      setTimeout(() => res.end('ok'), ms);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  it('sends the rate asked for, spread over the connections, and times each answer', async () => {
    const url = await serve(5);
    const row = await measure('even', url, { rate: 100, connections: 4, seconds: 3, warmupSeconds: 0 });
    expect(row.failed).toBe(0);
    expect(row.rps).toBeGreaterThan(90);
    expect(row.rps).toBeLessThan(105);
    expect(row.p50).toBeGreaterThanOrEqual(5);
    expect(row.p50).toBeLessThan(50);
  });

  it('times the requests that waited behind a stall from when they were due', async () => {
    // 400 ms of stall at 100 req/s: some 40 requests fall due meanwhile, over 10 % of the run. Timed from when each
    // went out (wrk's own figures), only the four under way would be slow, and the p90 would not show the stall.
    const url = await serve(1, { at: 1000, ms: 400 });
    const row = await measure('even', url, { rate: 100, connections: 4, seconds: 3, warmupSeconds: 0 });
    expect(row.failed).toBe(0);
    expect(row.p95).toBeGreaterThan(100);
    expect(row.p50).toBeLessThan(50);
  });
});
