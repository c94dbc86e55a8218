/**
 * Runs autocannon in a worker thread, so the load generator does not share the server's event loop.
 * A warm-up run first (not measured), then the measured run; every response time is kept so any
 * percentile can be read (autocannon's own summary has no p95).
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  /** Method, headers and body of every request (plain data: it crosses into the worker). */
  request?: Pick<autocannon.Options, 'method' | 'headers' | 'body'>;
  /** Paths (with query) to rotate through, one per request, instead of the url's own; same origin as url. */
  paths?: string[];
  seconds: number;
  connections: number;
  /** An even rate in requests per second across all connections (autocannon's overallRate); unset: as fast as it goes. */
  rate?: number;
  warmupSeconds: number;
}

export interface LoadResult {
  /** Completed responses of any status. */
  responses: number;
  /** Non-2xx responses plus request errors. */
  failed: number;
  elapsedMs: number;
  /** Response times in ms, 2xx only. */
  latencies: Float64Array<ArrayBuffer>;
}

function run(job: LoadJob, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 16);
    let ok = 0;
    let responses = 0;
    let failed = 0; // non-2xx responses and request errors (timeouts, resets)
    const started = performance.now();
    let next = 0;
    const paths = job.paths?.length ? job.paths : undefined;
    const instance = autocannon(
      {
        ...job.request,
        url: job.url,
        connections: job.connections,
        duration: seconds,
        ...(job.rate && { overallRate: job.rate }),
        ...(paths && { requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }) }] }),
      },
      (err) => {
        if (err) return reject(err);
        resolve({ responses, failed, elapsedMs: performance.now() - started, latencies: latencies.slice(0, ok) });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      responses++;
      if (status < 200 || status > 299) return void failed++;
      if (ok === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[ok++] = ms;
    });
    instance.on('reqError', () => void failed++);
  });
}

const job = workerData as LoadJob;
if (job.warmupSeconds > 0) await run(job, job.warmupSeconds);
const result = await run(job, job.seconds);
parentPort!.postMessage(result, [result.latencies.buffer]);
