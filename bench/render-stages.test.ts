import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SsrContext } from '#contract/ssr';
import { DOCUMENT_COMPRESSION } from '../server/app/compress-buffered.ts';
import { createRenderPool, type RenderPool } from '../server/render-pool.ts';
import { describeStages, watchRenderStages } from './render-stages.ts';

// The render pool's own test build (server/test/render-pool-build.mjs): its loader makes two reads together.
const serverEntry = path.join(import.meta.dirname, '..', 'server', 'test', 'render-pool-build.mjs');
const READ_MS = 40;

let pool: RenderPool | undefined;
let watch: ReturnType<typeof watchRenderStages> | undefined;
afterEach(async () => {
  watch?.stop();
  await pool?.close();
  [pool, watch] = [undefined, undefined];
});

/** A load context whose reads each take READ_MS on "the server's thread". */
function loadContext(): SsrContext {
  return {
    config: {} as SsrContext['config'],
    nonce: 'n',
    document: true,
    user: null,
    catalogue: async () => [],
    catalogueUrl: async () => '/catalogue.1.json',
    rates: async () => ({}) as Awaited<ReturnType<SsrContext['rates']>>,
    routeRule: async () => null,
    read: (async () => {
      await new Promise((resolve) => setTimeout(resolve, READ_MS));
      return { ok: true, status: 200, body: { result: null } };
    }) as SsrContext['read'],
  };
}

// A thread's start imports the build: seconds on a loaded 2-core machine, beyond the unit tests' 5 s default.
describe('watchRenderStages', { timeout: 30_000 }, () => {
  it('times a render in a thread, its two reads made together counted once, and nothing once stopped', async () => {
    const { postMessage, emit } = Worker.prototype;
    watch = watchRenderStages();
    pool = await createRenderPool({ serverEntry, mode: 'production', threads: 1, startAtMs: 0, busySeconds: 1, compression: DOCUMENT_COMPRESSION, log: { error: vi.fn() } });
    const page = () => new Request('http://localhost/?id=s1');
    await pool.handle(page(), loadContext()); // in process: it starts the thread
    await vi.waitFor(() => expect(pool!.threads()).toBe(1), { timeout: 10_000, interval: 20 });
    expect(watch.take()).toEqual([]);

    expect((await pool.handle(page(), loadContext())).status).toBe(200);
    const [times, ...more] = watch.take();
    expect(more).toEqual([]);
    // Two reads of READ_MS each, made together: READ_MS on the server's thread, not twice that.
    expect(times!.calls).toBeGreaterThanOrEqual(READ_MS - 1);
    expect(times!.calls).toBeLessThan(2 * READ_MS - 5);
    expect(times!.toFirstCall).toBeGreaterThanOrEqual(0);
    expect(times!.afterLastAnswer).toBeGreaterThanOrEqual(0);
    expect(times!.render).toBeGreaterThanOrEqual(times!.toFirstCall + times!.calls + times!.afterLastAnswer - 0.01);
    expect(watch.take()).toEqual([]); // taken once

    watch.stop();
    expect([Worker.prototype.postMessage, Worker.prototype.emit]).toEqual([postMessage, emit]);
    await pool.handle(page(), loadContext());
    expect(watch.take()).toEqual([]);
  });
});

describe('describeStages', () => {
  it('gives the p50 and the p99 of each stage, and a dash for none', () => {
    const times = Array.from({ length: 100 }, (_, i) => ({ render: i + 1, toFirstCall: 2, calls: 0.5, afterLastAnswer: i / 10 }));
    expect(describeStages(times)).toEqual({ render: '50.0 / 99.0', toFirstCall: '2.0 / 2.0', calls: '0.5 / 0.5', afterLastAnswer: '4.9 / 9.8' });
    expect(describeStages([])).toEqual({ render: '-', toFirstCall: '-', calls: '-', afterLastAnswer: '-' });
  });
});
