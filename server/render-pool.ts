import path from 'node:path';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { BrotliOptions, ZlibOptions } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { SsrContext } from '#contract/ssr';
import { projectRoot } from './paths.ts';

/**
 * React Router's request handler as the server calls it: a page's request and its load context, to its answer. With
 * `coding`, a document rendered in a thread comes compressed in it (its `content-encoding` says so); one rendered in
 * process does not, and is compressed as every answer is (server/app/compress-buffered.ts).
 */
export type PageHandler = (request: Request, context: SsrContext, coding?: DocumentCoding | null) => Promise<Response>;

/** A coding a render thread compresses a document in. */
export type DocumentCoding = 'br' | 'gzip';

/** How a render thread compresses a document: the server's settings for its answers (ADR 019), as plain data. */
export interface DocumentCompression {
  /** Smaller documents are sent as they are. */
  threshold: number;
  /** Documents up to this many bytes are brotli-compressed with `smallBrotli`, larger ones with `brotli`. */
  smallBytes: number;
  smallBrotli: BrotliOptions;
  brotli: BrotliOptions;
  gzip: ZlibOptions;
}

export interface RenderPoolOptions {
  /** The web app's server build (build/server/index.js). */
  serverEntry: string;
  mode: 'development' | 'production';
  /** The most render threads; 0 renders every page on the server's own thread. */
  threads: number;
  /** Module hooks the threads register when their React Router is not the server thread's (production-builds.mjs). */
  hooks?: string | null;
  /** How threads compress a document asked for with a coding. */
  compression: DocumentCompression;
  /** Renders taking this many milliseconds of the server's thread in each of `busySeconds` seconds in a row start a thread. */
  startAtMs?: number;
  busySeconds?: number;
  /** A thread given no page for this long is stopped, and its memory given back. */
  idleMs?: number;
  /** At close, the renders under way are given this long to end before their threads are stopped. */
  closeWaitMs?: number;
  log: { error(details: object, message: string): void };
}

export interface RenderPool {
  handle: PageHandler;
  /** How many threads take renders now. */
  threads(): number;
  /** Each ready thread's event loop utilisation so far (its active and idle time), for the benchmarks. */
  utilization(): EventLoopUtilization[];
  close(): Promise<void>;
}

/** Found from the project's root: the same from the sources and from the server bundle (build/server-app/). */
const WORKER_FILE = path.join(projectRoot, 'server', 'render-worker.mjs');

/** A quarter of the server's thread's time, two seconds in a row: a load, not the burst of a cold start. */
const START_AT_MS = 250;
const BUSY_SECONDS = 2;
/** A minute without a page. */
const IDLE_MS = 60_000;
/** A render whose request was aborted ends at once; one under way ends within React Router's stream timeout (5 s). */
const CLOSE_WAIT_MS = 5_000;
/** After a thread failed to start, none is started again for this long: a broken build is not retried under load. */
const FAILED_START_PAUSE_MS = 60_000;

/** The load context's functions a thread calls back (server/render-worker.mjs names the same). */
type ContextCall = 'rates' | 'routeRule' | 'read';

/** What a thread sends: ready, a call to a render's load context, a render's answer or its failure. */
type FromThread =
  | { type: 'ready' }
  | { type: 'call'; render: number; id: number; name: ContextCall; args: unknown[] }
  | { type: 'answer'; render: number; status: number; headers: [string, string][]; body: Uint8Array<ArrayBuffer> | null }
  | { type: 'fail'; render: number; message: string };

/** A render under way in a thread: its load context, and where its answer goes. */
interface Rendering {
  context: SsrContext;
  resolve(response: Response): void;
  reject(error: Error): void;
}

/** A lookup's value, or undefined when it failed. */
const answered = <T>(lookup: Promise<T>): Promise<{ value: T } | undefined> => lookup.then((value) => ({ value }), () => undefined);

/**
 * The path a loader sees for a request, as React Router gives it (its `getNormalizedPath`, no basename): a data
 * request's address without `.data` (`/_root.data` is `/`), and no slash at the end but the root's.
 */
export function loaderPath(url: string): string {
  let { pathname } = new URL(url);
  if (pathname === '/_root.data') return '/';
  if (pathname.endsWith('.data')) pathname = pathname.slice(0, -'.data'.length);
  return pathname !== '/' && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** Statuses whose answer has no body (the Fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

class RenderThread {
  readonly worker: Worker;
  readonly renders = new Map<number, Rendering>();
  /** The answers of the renders under way, which close() lets end. */
  readonly answers = new Set<Promise<Response>>();
  ready = false;
  exited = false;
  /** When it last took a page, or became ready: a thread that took longer than the idle time to start is not idle. */
  lastUsed = Date.now();
  /** The address of the catalogue this thread was sent last: the tree goes again only when it changes. */
  catalogueUrl: string | null = null;

  constructor(workerData: object, onExit: (thread: RenderThread) => void, log: RenderPoolOptions['log']) {
    this.worker = new Worker(WORKER_FILE, { workerData });
    this.worker.on('message', (message: FromThread) => this.receive(message));
    this.worker.on('error', (err) => log.error({ err }, 'a render thread failed'));
    this.worker.once('exit', () => {
      this.exited = true;
      for (const rendering of this.renders.values()) rendering.reject(new Error('the render thread stopped'));
      this.renders.clear();
      onExit(this);
    });
  }

  /** A page rendered in this thread: the load context's data goes with it, its functions are answered here. */
  async render(id: number, request: Request, context: SsrContext, coding: DocumentCoding | null): Promise<Response> {
    this.lastUsed = Date.now();
    // What every page's loaders ask, looked up now and sent with the render: two calls across threads fewer. A
    // lookup that fails is not sent, and the loader asks for it as before (its error is then the loader's).
    const path = loaderPath(request.url);
    const [catalogueUrl, rates, rule] = await Promise.all([context.catalogueUrl(), answered(context.rates()), answered(context.routeRule(path))]);
    // Every page reads the catalogue, twice: the thread keeps the tree, sent again only when its address changes.
    const tree = this.catalogueUrl === catalogueUrl ? null : await context.catalogue();
    this.catalogueUrl = catalogueUrl;
    if (this.exited) throw new Error('the render thread stopped');
    const answer = new Promise<Response>((resolve, reject) => this.renders.set(id, { context, resolve, reject }));
    this.answers.add(answer);
    const ended = () => this.answers.delete(answer);
    answer.then(ended, ended);
    const abort = () => this.renders.has(id) && this.worker.postMessage({ type: 'abort', render: id });
    request.signal.addEventListener('abort', abort, { once: true });
    const { config, nonce, document, user } = context;
    this.worker.postMessage({
      type: 'render',
      id,
      url: request.url,
      method: request.method,
      headers: [...request.headers],
      context: { config, nonce, document, user },
      catalogue: { url: catalogueUrl, tree },
      asked: { rates, routeRule: rule && { path, rule: rule.value } },
      coding,
    });
    try {
      return await answer;
    } finally {
      request.signal.removeEventListener('abort', abort);
    }
  }

  private receive(message: FromThread) {
    if (message.type === 'ready') {
      this.ready = true;
      this.lastUsed = Date.now();
      return;
    }
    const rendering = this.renders.get(message.render);
    if (message.type === 'call') return this.called(message.id, rendering, message.name, message.args);
    this.renders.delete(message.render);
    if (message.type === 'fail') return rendering?.reject(new Error(message.message));
    const { status, headers, body } = message;
    rendering?.resolve(new Response(body && !NULL_BODY.has(status) ? body : null, { status, headers }));
  }

  /** A loader's call to its load context, answered on this thread as an in-process render's would be. */
  private called(id: number, rendering: Rendering | undefined, name: ContextCall, args: unknown[]) {
    const answer = (ok: boolean, value: unknown) => this.worker.postMessage(ok ? { type: 'called', id, ok, value } : { type: 'called', id, ok, error: value });
    const call = rendering
      ? Promise.resolve().then(() => (rendering.context[name] as (...a: unknown[]) => Promise<unknown>)(...args))
      : Promise.reject(new Error('the render has ended'));
    call.then(
      (value) => {
        try {
          answer(true, value);
        } catch (err) {
          // Not a value a thread can be sent (a function, say): the loader gets the error, as it would a failed read.
          answer(false, String(err));
        }
      },
      (err: unknown) => answer(false, err instanceof Error ? err.message : String(err)),
    );
  }
}

/**
 * Renders pages in worker threads once renders keep the server busy (ADR 077), on the server's thread otherwise. A
 * few visitors' pages are rendered in process, as before: no thread is started for them, and an idle server holds
 * none. Once renders take a quarter of the server's thread's time, two seconds in a row, threads are started (up to
 * `threads`); renders then go to the ready thread with the fewest under way, and the server's thread keeps what only
 * it can do: sockets, the database, the load context's reads and the compression.
 */
export async function createRenderPool(options: RenderPoolOptions): Promise<RenderPool> {
  const { threads: most, startAtMs = START_AT_MS, busySeconds = BUSY_SECONDS, idleMs = IDLE_MS, closeWaitMs = CLOSE_WAIT_MS, log } = options;
  const build = (await import(pathToFileURL(options.serverEntry).href)) as ServerBuild;
  const inProcess = createRequestHandler(build, options.mode);
  const workerData = {
    serverEntry: pathToFileURL(options.serverEntry).href,
    mode: options.mode,
    hooks: options.hooks ?? null,
    compression: options.compression,
  };
  const running = new Set<RenderThread>();
  let lastRender = 0;
  let closed = false;
  let failedStartAt = -Infinity;

  const start = () => {
    if (closed || running.size >= most || Date.now() - failedStartAt < FAILED_START_PAUSE_MS) return;
    const thread = new RenderThread(
      workerData,
      (ended) => {
        running.delete(ended);
        if (!ended.ready && !closed) failedStartAt = Date.now();
      },
      log,
    );
    running.add(thread);
  };

  const stopIdle = setInterval(() => {
    const now = Date.now();
    for (const thread of running) {
      if (thread.ready && thread.renders.size === 0 && now - thread.lastUsed >= idleMs) {
        running.delete(thread);
        void thread.worker.terminate();
      }
    }
  }, Math.max(50, Math.min(idleMs / 2, 10_000))).unref();

  /** The ready thread with the fewest renders under way, if any is ready. */
  const leastBusy = () => {
    let chosen: RenderThread | undefined;
    for (const thread of running) if (thread.ready && (!chosen || thread.renders.size < chosen.renders.size)) chosen = thread;
    return chosen;
  };

  // The time renders took on the server's thread in the current second, and how many seconds before it were as busy.
  // PGlite answers within the same turn of the event loop, so a render in process seldom waits: renders queue behind
  // each other rather than overlap, and their share of the thread's time is what tells that a thread would pay.
  let second = -Infinity;
  let renderingMs = 0;
  /** The seconds in a row before the current one in which renders took `startAtMs`. */
  let busyBefore = 0;
  const handle: PageHandler = async (request, context, coding = null) => {
    // Once closing, its threads are about to stop: a page asked for meanwhile is rendered here.
    const thread = closed ? undefined : leastBusy();
    if (thread) return thread.render(++lastRender, request, context, coding);
    const started = performance.now();
    try {
      return await inProcess(request, context);
    } finally {
      const now = performance.now();
      if (now - second >= 1000) {
        // The second that ended counts if it was busy and the current one follows it (no quiet second between).
        busyBefore = renderingMs >= startAtMs && now - second < 2000 ? busyBefore + 1 : 0;
        [second, renderingMs] = [now, 0];
      }
      renderingMs += now - started;
      if (renderingMs >= startAtMs && busyBefore + 1 >= busySeconds) start();
    }
  };

  return {
    handle,
    threads: () => [...running].filter((thread) => thread.ready).length,
    utilization: () => [...running].filter((thread) => thread.ready).map((thread) => thread.worker.performance.eventLoopUtilization()),
    async close() {
      closed = true;
      clearInterval(stopIdle);
      // The renders under way end first: a thread stopped under them failed each (its client gone, at a shutdown after
      // a load) with an error logged for nobody.
      const underWay = [...running].flatMap((thread) => [...thread.answers]);
      if (underWay.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled(underWay), new Promise((resolve) => (timer = setTimeout(resolve, closeWaitMs)))]);
        clearTimeout(timer);
      }
      await Promise.all([...running].map((thread) => thread.worker.terminate()));
      running.clear();
    },
  };
}
