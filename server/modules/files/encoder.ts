import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { VariantFormat, VariantWidth } from '#contract/image-variants';
import { projectRoot } from '../../paths.ts';

// The server's side of picture-worker.mjs (ADR 072): sharp runs in a child process started with the first picture to
// make and ended once it has had nothing to do for a while, so libvips never stays in the server's memory.

const WORKER_FILE = path.join(projectRoot, 'server', 'modules', 'files', 'picture-worker.mjs');
/** With nothing asked for this long, the worker ends and its memory goes back to the system. */
const IDLE_MS = 5_000;
/** A picture that keeps the worker longer than this is given up: the worker is ended, the next job starts another. */
const JOB_MS = 120_000;

export interface EncodeJob {
  /** A local file holding the original. */
  input: string;
  /** Pixels above which the input is refused (a decompression bomb). */
  max: number;
  outputs: { output: string; width: VariantWidth; format: VariantFormat }[];
}

export class PictureEncoder {
  private worker: ChildProcess | null = null;
  private readonly pending = new Map<number, { worker: ChildProcess; done: (made: string[]) => void; timer: NodeJS.Timeout }>();
  private lastId = 0;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly opts: { idleMs?: number; jobMs?: number } = {}) {}

  /** The outputs written; none when the input is no picture libvips can read, or the worker died or hung on it. */
  encode(job: EncodeJob): Promise<string[]> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.start();
    const id = ++this.lastId;
    return new Promise((done) => {
      const timer = setTimeout(() => worker.kill('SIGKILL'), this.opts.jobMs ?? JOB_MS);
      this.pending.set(id, { worker, done, timer });
      worker.send({ id, ...job });
    });
  }

  /** The worker process's id while one runs (tests). */
  get workerPid(): number | undefined {
    return this.worker?.pid;
  }

  /** Ends the worker now: when idle, and when the server closes (a job still asked gets no variant). */
  stop(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker;
    this.worker = null;
    if (worker?.connected) worker.disconnect();
  }

  private start(): ChildProcess {
    // No inherited Node flags (tsx's loader, the server's heap settings): plain Node on a plain module.
    const worker = fork(WORKER_FILE, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    worker.on('message', ({ id, made }: { id: number; made: string[] }) => this.answer(id, made));
    // A failed send or spawn: the exit below answers what was asked.
    worker.on('error', () => {});
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = null;
      // A picture that crashed or hung a decoder: what was still asked of this worker gets no variant.
      for (const [id, job] of [...this.pending]) if (job.worker === worker) this.answer(id, []);
    });
    this.worker = worker;
    return worker;
  }

  private answer(id: number, made: string[]) {
    const job = this.pending.get(id);
    if (!job) return;
    this.pending.delete(id);
    clearTimeout(job.timer);
    job.done(made);
    if (this.pending.size === 0 && this.worker) {
      this.idle = setTimeout(() => this.stop(), this.opts.idleMs ?? IDLE_MS);
      this.idle.unref();
    }
  }
}
