/**
 * Runs the load in a worker thread, so the load generator does not share the server's event loop: autocannon as fast
 * as the server answers, or an even rate of our own (below). A warm-up run first (not measured), then the measured
 * run; every response time is kept so any percentile can be read (autocannon's own summary has no p95).
 */
import { Agent, request } from 'node:http';
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
  /** An even rate in requests per second across all connections (see evenRate); unset: as fast as it goes. */
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

/** Response times, grown as they come. */
class Latencies {
  private values = new Float64Array(1 << 16);
  count = 0;
  add(ms: number) {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }
  taken = () => this.values.slice(0, this.count);
}

/**
 * An even rate (issue 31): request i is due at start + i / rate, on one of `connections` kept-alive sockets, and its
 * time is counted from when it was due, not from when a free socket sent it (wrk2's correction of coordinated
 * omission). autocannon's overallRate is not even: each connection sends its share of a second as fast as it can at
 * the start of that second, then waits, so a slow answer was timed as if the load came in bursts.
 */
function evenRate(job: LoadJob, seconds: number): Promise<LoadResult> {
  const rate = job.rate!;
  const url = new URL(job.url);
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const paths = job.paths?.length ? job.paths : [url.pathname + url.search];
  const total = Math.round(rate * seconds);
  const latencies = new Latencies();
  let responses = 0;
  let failed = 0;
  let settled = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    const done = () => {
      if (++settled < total) return;
      agent.destroy();
      resolve({ responses, failed, elapsedMs: performance.now() - started, latencies: latencies.taken() });
    };
    const send = (i: number) => {
      const due = started + (i * 1000) / rate;
      const req = request(
        { host: url.hostname, port: url.port, path: paths[i % paths.length], method: job.request?.method ?? 'GET', headers: job.request?.headers as Record<string, string>, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            responses++;
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) failed++;
            else latencies.add(performance.now() - due);
            done();
          });
        },
      );
      req.on('error', () => {
        failed++;
        done();
      });
      req.end(job.request?.body as string | undefined);
    };
    let i = 0;
    const tick = () => {
      // Every request due by now is sent (late timers catch up), then the next one is waited for.
      for (; i < total && started + (i * 1000) / rate <= performance.now(); i++) send(i);
      if (i < total) setTimeout(tick, Math.max(0, started + (i * 1000) / rate - performance.now()));
    };
    tick();
  });
}

function run(job: LoadJob, seconds: number): Promise<LoadResult> {
  if (job.rate) return evenRate(job, seconds);
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
