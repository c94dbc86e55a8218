import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Logger } from 'pino';

/**
 * Gives memory back to the system when the server is idle (ADR 073). glibc keeps what a thread freed in that thread's
 * malloc arena, and raises its own thresholds after large frees, so a process that once needed memory (V8's helper
 * thread optimising PGlite's WebAssembly, a burst of requests) keeps it resident for good: 20–50 MB of an idle
 * server's RSS. Node has no `malloc_trim`; it is called here through koffi (a foreign-function interface with
 * prebuilt binaries). A full GC first, when `--expose-gc` is given (`npm start` gives it), frees the buffers V8 has not
 * collected yet, so their memory is trimmed too.
 *
 * Only on Linux with glibc: elsewhere (musl, macOS, Windows) there is no such function or no such waste, and this
 * does nothing.
 */

/** How often the event loop's load is looked at: a timer callback, a few numbers. */
export const SAMPLE_EVERY_MS = 1_000;
/** A second is quiet below this share of the event loop's time busy. */
export const QUIET_UTILIZATION = 0.02;
/** How long the server must have been quiet. */
export const QUIET_FOR_MS = 5_000;
/**
 * The event loop's busy time since the last release that makes a new one worth its cost (a full GC, tens of
 * milliseconds, and the trim, one or two): a few pages rendered.
 */
export const WORTH_BUSY_MS = 100;

type Trim = () => boolean;

let loaded: Promise<Trim | null> | undefined;

/** Whether this process runs on Linux with glibc: Node's own way to tell it from musl (what detect-libc reads too). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return Boolean(report?.header?.glibcVersionRuntime);
}

/** glibc's `malloc_trim(0)`, or null where there is none (not Linux, not glibc, koffi not installed for this platform). */
export function mallocTrim(): Promise<Trim | null> {
  loaded ??= (async () => {
    if (!onGlibc()) return null;
    try {
      const { load } = await import('koffi');
      const trim = load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
      return () => trim(0) === 1;
    } catch {
      return null;
    }
  })();
  return loaded;
}

/** What the release loop reads and does; the defaults are this process's. */
export interface IdleMemoryDeps {
  /** The event loop's busy and idle time (ms) since it started: `performance.eventLoopUtilization()`. */
  loop(): Pick<EventLoopUtilization, 'active' | 'idle'>;
  /** Gives memory back; answers the bytes of RSS it saved. */
  release(): Promise<number>;
}

/** The decision alone: once quiet for QUIET_FOR_MS, when enough work was done since the last release. */
export class IdleMemoryPolicy {
  private quietFor = 0;

  /** `owed`: the work (ms) to count already; a process's start always makes a release worth it. */
  constructor(private owed = WORTH_BUSY_MS) {}

  /**
   * One sample's busy and idle time (ms) in; whether to release now. Only busy seconds count as work: an idle
   * server's own timers (the outbox's polling) would otherwise add up to a full GC every minute or so.
   */
  observe(active: number, idle: number): boolean {
    if (active >= QUIET_UTILIZATION * (active + idle)) {
      this.owed += active;
      this.quietFor = 0;
      return false;
    }
    this.quietFor += active + idle;
    if (this.quietFor < QUIET_FOR_MS || this.owed < WORTH_BUSY_MS) return false;
    this.owed = 0;
    return true;
  }
}

async function releaseProcessMemory(trim: Trim): Promise<number> {
  const before = process.memoryUsage.rss();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
  trim();
  return before - process.memoryUsage.rss();
}

/**
 * Samples the event loop every second and releases memory once it has been quiet for QUIET_FOR_MS after the start,
 * then after each WORTH_BUSY_MS of work. Answers a stop function, or null where there is nothing to call.
 */
export async function releaseMemoryWhenIdle(logger: Logger, deps?: IdleMemoryDeps): Promise<(() => void) | null> {
  let use = deps;
  if (!use) {
    const trim = await mallocTrim();
    if (!trim) return null;
    use = { loop: () => performance.eventLoopUtilization(), release: () => releaseProcessMemory(trim) };
  }
  const { loop, release } = use;
  let previous = loop();
  const policy = new IdleMemoryPolicy();
  let releasing = false;
  const timer = setInterval(() => {
    const now = loop();
    const worth = policy.observe(now.active - previous.active, now.idle - previous.idle);
    previous = now;
    if (!worth || releasing) return;
    releasing = true;
    release()
      .then((saved) => logger.debug({ savedMB: Math.round(saved / 1e5) / 10 }, 'memory given back while idle'))
      .catch((err: unknown) => logger.warn({ err }, 'giving memory back failed'))
      .finally(() => (releasing = false));
  }, SAMPLE_EVERY_MS).unref();
  return () => clearInterval(timer);
}
