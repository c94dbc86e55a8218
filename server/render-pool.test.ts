import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SsrContext } from '#contract/ssr';
import { createRenderPool, loaderPath, type RenderPool, type RenderPoolOptions } from './render-pool.ts';
import { DOCUMENT_COMPRESSION } from './app/compress-buffered.ts';

// The pool with a build of one route (server/test/render-pool-build.mjs) whose loader asks every part of the load
// context and whose entry answers with the loader's data: what a page rendered in a thread was given, against the
// same page rendered in process.
const serverEntry = path.join(import.meta.dirname, 'test', 'render-pool-build.mjs');
const slowEntry = path.join(import.meta.dirname, 'test', 'render-pool-slow-build.mjs');

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const log = { error: vi.fn() };
async function open(options: Partial<RenderPoolOptions> = {}) {
  pool = await createRenderPool({ serverEntry, mode: 'production', threads: 1, busySeconds: 1, compression: DOCUMENT_COMPRESSION, log, ...options });
  return pool;
}

/** A load context like the server's (server/app/pages.ts), its calls counted. */
function loadContext(catalogueUrl = '/catalogue.1.json') {
  const calls: string[] = [];
  const context: SsrContext = {
    config: {
      brand: 'Подряд',
      description: 'Биржа услуг',
      minServicePrice: 50_000,
      dev: false,
      apiBase: '',
      siteUrl: 'http://localhost',
      buildId: 'b1',
      turnstileSiteKey: null,
      twoFactorForAdmins: true,
    },
    nonce: 'nonce-1',
    document: true,
    user: { _id: 'u1', name: 'Анна' } as unknown as SsrContext['user'],
    catalogue: async () => (calls.push('catalogue'), [{ slug: 'design', title: 'Дизайн', subs: [] }]),
    catalogueUrl: async () => catalogueUrl,
    rates: async () => (calls.push('rates'), { USDT: 9_500, BTC: 9_000_000_00 }) as unknown as Awaited<ReturnType<SsrContext['rates']>>,
    routeRule: async (p) => (calls.push(`routeRule ${p}`), null),
    read: (async (name: string, input: unknown) => {
      calls.push(`read ${name}`);
      if (name === 'broken') throw new Error('read failed');
      return { ok: true, status: 200, body: { result: { name, input } } };
    }) as SsrContext['read'],
  };
  return { context, calls };
}

const page = (query = 'id=s1', signal?: AbortSignal) =>
  new Request(`http://localhost/?${query}`, { headers: { 'x-test': 'value-1' }, signal });

/** Renders until a thread has started and is ready (the threshold is 0 ms: the first render starts it). */
async function withThread(renderPool: RenderPool) {
  await renderPool.handle(page(), loadContext().context);
  await vi.waitFor(() => expect(renderPool.threads()).toBe(1), { timeout: 10_000, interval: 20 });
}

const answered = async (response: Response) => ({
  status: response.status,
  type: response.headers.get('content-type'),
  rendered: response.headers.get('x-rendered'),
  body: (await response.json()) as { root: Record<string, unknown> },
});

// A thread's start imports the build: seconds on a loaded 2-core machine, beyond the unit tests' 5 s default.
describe('render pool (ADR 077)', { timeout: 30_000 }, () => {
  it('renders in process, and starts no thread, while renders take less than the threshold', async () => {
    const renderPool = await open({ startAtMs: 60_000 });
    for (let i = 0; i < 5; i++) expect((await renderPool.handle(page(), loadContext().context)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(renderPool.threads()).toBe(0);
  });

  it('starts a thread when renders were busy in seconds in a row, not after a burst followed by a quiet second', async () => {
    const renderPool = await open({ startAtMs: 0, busySeconds: 2 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await renderPool.handle(page(), loadContext().context);
    await sleep(2_100);
    // The second before was followed by a quiet one: this second is the first of a new streak.
    await renderPool.handle(page(), loadContext().context);
    await sleep(300);
    expect(renderPool.threads()).toBe(0);
    await sleep(800);
    await renderPool.handle(page(), loadContext().context);
    await vi.waitFor(() => expect(renderPool.threads()).toBe(1), { timeout: 10_000, interval: 20 });
  });

  it('gives a page rendered in a thread what it gets in process: the request, the load context, its calls', async () => {
    const inProcess = await open({ threads: 0 });
    const here = loadContext();
    const expected = await answered(await inProcess.handle(page(), here.context));
    await inProcess.close();

    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const there = loadContext();
    const got = await answered(await renderPool.handle(page(), there.context));
    expect(got).toEqual(expected);
    // The benchmarks' view of the thread: its event loop has worked.
    expect(renderPool.utilization()).toEqual([expect.objectContaining({ active: expect.any(Number) })]);
    expect(renderPool.utilization()[0]!.active).toBeGreaterThan(0);
    expect(got.body.root).toMatchObject({
      user: { _id: 'u1', name: 'Анна' },
      nonce: 'nonce-1',
      header: 'value-1',
      read: { ok: true, body: { result: { name: 'services.get', input: { params: { id: 's1' } } } } },
      missing: { failed: 'read failed' },
      rule: null,
      catalogue: [{ slug: 'design', title: 'Дизайн', subs: [] }],
      catalogueUrl: '/catalogue.1.json',
    });
    // The calls were answered on this thread, by this render's own context.
    expect(there.calls.filter((c) => c !== 'catalogue').sort()).toEqual(here.calls.filter((c) => c !== 'catalogue').sort());
  });

  it('sends the rates and the page’s route rule with the render, and asks for another path’s rule', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const sent = loadContext();
    const got = await answered(await renderPool.handle(page(), sent.context));
    expect(got.body.root).toMatchObject({ rates: { USDT: 9_500 }, rule: null });
    // Looked up as the render was sent, before any of its loaders ran, and not asked for again.
    expect(sent.calls.filter((c) => c !== 'catalogue').slice(0, 2).sort()).toEqual(['rates', 'routeRule /']);
    expect(sent.calls.filter((c) => c.startsWith('routeRule') || c === 'rates')).toHaveLength(2);

    const other = loadContext();
    const redirected = { ...other.context, routeRule: async (p: string) => (other.calls.push(`routeRule ${p}`), p === '/old' ? { redirect: '/new' } : null) };
    const asked = await answered(await renderPool.handle(page('id=s1&rule=/old'), redirected));
    expect(asked.body.root.rule).toEqual({ redirect: '/new' });
    expect(other.calls.filter((c) => c.startsWith('routeRule'))).toEqual(['routeRule /', 'routeRule /old']);
  });

  it('leaves a lookup that failed to the loader, whose error it is, as in process', async () => {
    const failing = () => {
      const { context } = loadContext();
      return { ...context, rates: () => Promise.reject(new Error('rates failed')) };
    };
    const inProcess = await open({ threads: 0 });
    const expected = await inProcess.handle(page(), failing());
    await inProcess.close();
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const got = await renderPool.handle(page(), failing());
    expect(got.status).toBe(expected.status);
    expect(got.status).toBe(500);
  });

  it('knows the path a loader sees for a request (React Router’s getNormalizedPath)', () => {
    expect(['/', '/services/x', '/services/x/', '/services/x.data', '/_root.data', '/a/b.data?_routes=root'].map((p) => loaderPath(`http://h${p}`))).toEqual([
      '/',
      '/services/x',
      '/services/x',
      '/services/x',
      '/',
      '/a/b',
    ]);
  });

  it('compresses a document in the thread in the coding the server chose, with its settings (ADR 019)', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const html = (query: string, coding: 'br' | 'gzip' | null) => renderPool.handle(page(query), loadContext().context, coding);
    const plain = await html('html=200', null);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(DOCUMENT_COMPRESSION.threshold);

    const br = await html('html=200', 'br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('cookie, accept-encoding');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);
    // The server's own settings: a document of this size at the small answers' quality, to the byte.
    expect(brBytes.equals(brotliCompressSync(Buffer.from(text), DOCUMENT_COMPRESSION.smallBrotli))).toBe(true);
    const gzip = await html('html=200', 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(text);

    // Below the threshold, and what is not a document (a data request streams on the server's thread): as they are.
    const small = await html('html=1', 'br');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toContain('Логотип');
    const json = await html('id=s1', 'br');
    expect(json.headers.get('content-encoding')).toBeNull();
    expect((await answered(json)).rendered).toBe('yes');
  });

  it('leaves a document rendered in process to the server’s compression', async () => {
    const renderPool = await open({ threads: 0 });
    const response = await renderPool.handle(page('html=200'), loadContext().context, 'br');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toContain('Логотип');
  });

  it('sends a thread the catalogue again only when its address changes', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const first = loadContext('/catalogue.1.json');
    await renderPool.handle(page(), first.context);
    const same = loadContext('/catalogue.1.json');
    await renderPool.handle(page(), same.context);
    const changed = loadContext('/catalogue.2.json');
    const body = (await answered(await renderPool.handle(page(), changed.context))).body;
    expect([first, same, changed].map(({ calls }) => calls.filter((c) => c === 'catalogue').length)).toEqual([1, 0, 1]);
    expect(body.root.catalogueUrl).toBe('/catalogue.2.json');
  });

  it('fails the renders of a thread that ends, and renders on without it', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    await expect(renderPool.handle(page('exit'), loadContext().context)).rejects.toThrow('the render thread stopped');
    expect(renderPool.threads()).toBe(0);
    expect((await renderPool.handle(page(), loadContext().context)).status).toBe(200);
    // And the next render starts another.
    await vi.waitFor(() => expect(renderPool.threads()).toBe(1), { timeout: 10_000, interval: 20 });
  });

  it('aborts a render in a thread when its request is aborted', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    const controller = new AbortController();
    const { context, calls } = loadContext();
    const rendering = renderPool.handle(page('wait', controller.signal), context);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    // The loader saw the abort, and React Router answers an aborted render as it does in process.
    expect((await rendering).status).toBe(500);
    expect(calls).toContain('read after.abort');
  });

  it('lets the renders under way end before it stops its threads at close', async () => {
    const renderPool = await open({ startAtMs: 0 });
    await withThread(renderPool);
    // A client gone at a shutdown: its render is aborted, and ends as React Router ends it, not as a stopped thread.
    const controller = new AbortController();
    const rendering = renderPool.handle(page('wait', controller.signal), loadContext().context);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = renderPool.close();
    // A page asked for while it closes is rendered in process, not in a thread about to stop: it outlives the wait.
    const late = new AbortController();
    const lateRendering = renderPool.handle(page('wait', late.signal), loadContext().context);
    controller.abort();
    expect((await rendering).status).toBe(500);
    await closing;
    expect(renderPool.threads()).toBe(0);
    late.abort();
    expect((await lateRendering).status).toBe(500);
  });

  it('stops its threads at close once the wait is over, failing a render that would not end', async () => {
    const renderPool = await open({ startAtMs: 0, closeWaitMs: 200 });
    await withThread(renderPool);
    const rendering = renderPool.handle(page('wait'), loadContext().context);
    const failed = expect(rendering).rejects.toThrow('the render thread stopped');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await renderPool.close();
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    await failed;
  });

  it('stops a thread that has had no page for the idle time, counted from when it was ready', async () => {
    // The thread takes 2.5 s to start, longer than the idle time: it is not idle until it has been ready for 2 s.
    // (The pool looks every second: a thread stopped for its start would be gone within a second of being ready.)
    const renderPool = await open({ serverEntry: slowEntry, startAtMs: 0, idleMs: 2_000 });
    await withThread(renderPool);
    const ready = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(renderPool.threads()).toBe(1);
    await vi.waitFor(() => expect(renderPool.threads()).toBe(0), { timeout: 10_000, interval: 20 });
    expect(performance.now() - ready).toBeGreaterThanOrEqual(1_900);
    expect((await renderPool.handle(page(), loadContext().context)).status).toBe(200);
  });
});
