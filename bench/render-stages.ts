/**
 * Where a page rendered in a thread spends its time, seen from the server's thread (ADR 077's messages, timed as they
 * are sent and received there, so one clock times them all):
 * - to the first call: from the render sent to the thread until its first call to the load context arrives (the
 *   render waiting for the thread's turn, React Router's matching, the loaders up to their first read);
 * - calls: the time the server's thread took to answer the render's calls (the reads), overlapping calls counted once;
 * - after the last answer: from the last call answered until the page arrives (the thread's turn again, the loaders'
 *   end, React's render, the compression);
 * - render: from sent to arrived, all of it.
 * The rest of a render's time is in the thread between its calls. `bench/render-threads.ts` prints it for each run.
 */
import { Worker } from 'node:worker_threads';
import { percentile } from './lib.ts';

interface Staged {
  sent: number;
  /** When each call arrived and when its answer left, by call id. */
  calls: Map<number, { asked: number; answered?: number }>;
  done?: number;
}

export interface StageTimes {
  render: number;
  toFirstCall: number;
  calls: number;
  afterLastAnswer: number;
}

/** The messages' fields read here: render-pool.ts and render-worker.mjs send them. */
type Message = { type?: string; id?: number; render?: number } | null | undefined;

/** Times every render sent to a thread from now until `stop()`; `take()` gives the renders finished since the last. */
export function watchRenderStages(): { take(): StageTimes[]; stop(): void } {
  // Render ids are the pool's, call ids each thread's own (render-pool.ts, render-worker.mjs).
  let renders = new Map<number, Staged>();
  let callers = new WeakMap<Worker, Map<number, Staged>>();
  const callersOf = (worker: Worker) => callers.get(worker) ?? callers.set(worker, new Map()).get(worker)!;
  const post = Worker.prototype.postMessage;
  const emit = Worker.prototype.emit;
  Worker.prototype.postMessage = function (this: Worker, message: Message, transfer?: Parameters<Worker['postMessage']>[1]) {
    const now = performance.now();
    if (message?.type === 'render' && message.id !== undefined) renders.set(message.id, { sent: now, calls: new Map() });
    if (message?.type === 'called' && message.id !== undefined) {
      const owners = callersOf(this);
      const call = owners.get(message.id)?.calls.get(message.id);
      if (call) call.answered = now;
      owners.delete(message.id);
    }
    return post.call(this, message, transfer);
  } as typeof Worker.prototype.postMessage;
  Worker.prototype.emit = function (this: Worker, event: string | symbol, ...args: unknown[]) {
    const message = args[0] as Message;
    if (event === 'message' && message?.render !== undefined) {
      const staged = renders.get(message.render);
      if (staged && message.type === 'call' && message.id !== undefined) {
        staged.calls.set(message.id, { asked: performance.now() });
        callersOf(this).set(message.id, staged);
      } else if (staged && (message.type === 'answer' || message.type === 'fail')) staged.done = performance.now();
    }
    return emit.call(this, event, ...args);
  } as typeof Worker.prototype.emit;

  return {
    take() {
      const finished = [...renders].filter(([, staged]) => staged.done !== undefined);
      for (const [id] of finished) renders.delete(id);
      return finished.map(([, staged]) => stageTimes(staged));
    },
    stop() {
      Worker.prototype.postMessage = post;
      Worker.prototype.emit = emit;
      renders = new Map();
      callers = new WeakMap();
    },
  };
}

function stageTimes({ sent, calls, done }: Staged): StageTimes {
  const end = done!;
  const spans = [...calls.values()].map(({ asked, answered }) => [asked, answered ?? end] as const).sort((a, b) => a[0] - b[0]);
  // The calls' time on the server's thread, overlapping calls (a loader's reads made together) counted once.
  let busy = 0;
  let reach = -Infinity;
  for (const [from, to] of spans) {
    if (to > reach) busy += to - Math.max(from, reach);
    reach = Math.max(reach, to);
  }
  return {
    render: end - sent,
    toFirstCall: (spans[0]?.[0] ?? end) - sent,
    calls: busy,
    afterLastAnswer: spans.length > 0 ? end - reach : 0, // `reach`: when the last answer left
  };
}

/** "p50 / p99" of each stage, in ms, for a table's cells; "-" when no render went through a thread. */
export function describeStages(times: StageTimes[]): Record<keyof StageTimes, string> {
  const cell = (pick: (t: StageTimes) => number) => {
    if (times.length === 0) return '-';
    const sorted = times.map(pick).sort((a, b) => a - b);
    return `${percentile(sorted, 0.5).toFixed(1)} / ${percentile(sorted, 0.99).toFixed(1)}`;
  };
  return {
    render: cell((t) => t.render),
    toFirstCall: cell((t) => t.toFirstCall),
    calls: cell((t) => t.calls),
    afterLastAnswer: cell((t) => t.afterLastAnswer),
  };
}
