/**
 * Chat benchmark: BENCH_CLIENTS (1000) socket.io clients on long polling against the real server in a child
 * process; the first BENCH_ACTIVE (200) of them, in pairs, send direct messages to each other through
 * POST /api/messages/, one every 2.5–3 s each (under the 30-a-minute limit per user): BENCH_WARMUP_SECONDS (5) of
 * warm-up, whose figures are printed apart (each pair's first message opens their chat, the server's code is not
 * compiled yet), then BENCH_SECONDS (20) measured. The partner measures delivery latency (receive time − the send
 * timestamp in the message; Date.now() is one clock for every thread). The server's memory is its child process's
 * VmRSS (/proc/<pid>/status), sampled from the moment the clients are connected; its CPU time, and that of the
 * PostgreSQL backends serving it, are counted over the measured phase and the drain.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/chat.ts
 *
 * The clients do not run on the benchmark's main thread: BENCH_WORKERS (2) worker threads each hold an equal share
 * of them (and of the active pairs) with their own event loop, so that what is measured is the server, not a
 * load generator whose single event loop juggles 1,000 polling clients (that alone delayed deliveries by up to a
 * few hundred ms). They poll as a browser does: with fetch() (BENCH_TRANSPORT=fetch, the default), over persistent
 * connections and accepting gzip, so the server compresses the larger answers as it would for real visitors;
 * BENCH_TRANSPORT=xhr uses node's XMLHttpRequest instead (kept alive too, never compressed). The main thread only
 * starts the server, makes the users and collects the figures. Each worker reports its event-loop delay: if it is
 * high, the clients' side is part of the latency. On a small machine the workers, the server and PostgreSQL still
 * share the cores, and so does anything else running: the CPU time of each and the load average are printed too.
 *
 * PostgreSQL only: PGlite keeps its directory to one process, and the users are inserted from this one while
 * the server runs in the child. The benchmark makes a fresh database podryad_bench_chat and drops it after.
 * BENCH_SERVER_NODE_ARGS passes node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof");
 * BENCH_SERVER_OUTPUT=<file> keeps the server's standard output (e.g. --trace-gc), and BENCH_LATENCY_CSV=<file> writes
 * every delivery as "seconds since the measured phase began,latency ms".
 * `npm run bench` runs this too when BENCH_CHAT=1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { Fetch, io, NodeXHR, type Socket } from 'socket.io-client';
import { percentile, tsWorker } from './lib.ts';

const TARGETS = { p99Ms: 150, rssMb: 400, atClients: 1000 } as const;
const DB_NAME = 'podryad_bench_chat';
const JWT_SECRET = 'bench-only-secret-bench-only-secret-bench-only-s'; // 48 characters
const CONNECT_BATCH = 50; // in all workers together
const SEND_EVERY_MS = 2500; // + up to 500 ms jitter: at most 24 a minute per user (limit 30)
const SEND_JITTER_MS = 500;
const DRAIN_MS = 3000;

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const log = (message: string) => console.error(message); // progress on stderr keeps stdout pasteable
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** VmRSS and VmHWM (peak RSS) of a process, in bytes. */
function procMemory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Spawns `node --import tsx server/main.ts` and resolves with its URL once it listens. */
export function startChild(root: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s\n${out}${err}`)), 60_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /is running at (http:\/\/[^\s]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.off('exit', early);
        child.stdout!.removeAllListeners('data');
        // BENCH_SERVER_OUTPUT=<file> keeps what the server prints from then on (e.g. with --trace-gc).
        if (process.env.BENCH_SERVER_OUTPUT) child.stdout!.pipe(createWriteStream(process.env.BENCH_SERVER_OUTPUT));
        else child.stdout!.resume();
        resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1') });
      }
    });
    const early = (code: number | null, signal: string | null) => fail(new Error(`server exited early (${code ?? signal})\n${out}${err}`));
    child.once('exit', early);
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const t0 = performance.now();
    child.once('exit', (code, signal) => {
      clearTimeout(kill);
      log(`server stopped (${code ?? signal}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system) of a process so far, in seconds (/proc/<pid>/stat, clock ticks of 1/100 s). */
export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14 and 15 of the line)
}

// ---------------------------------------------------------------------------------------------------------
// Worker thread: a share of the clients
// ---------------------------------------------------------------------------------------------------------

interface WorkerJob {
  role: 'chat-clients';
  url: string;
  users: { id: string; token: string }[];
  /** How many of them (the first ones connected, in pairs) send. */
  active: number;
  connectBatch: number;
  transport: 'fetch' | 'xhr';
}

type ToWorker = { type: 'start'; warmupSeconds: number; seconds: number } | { type: 'stop' };

interface Connected {
  type: 'connected';
  connected: number;
  failed: number;
  active: number;
}

interface Results {
  type: 'results';
  /** Each delivery to the partner: when the message was sent (epoch ms, as written in it) and the latency. */
  deliveries: [sentAt: number, latencyMs: number][];
  /** Each POST: when it was sent (epoch ms), its response time, and "ok" or what went wrong. */
  posts: [sentAt: number, ms: number, outcome: string][];
  disconnects: number;
  /** Event-loop delay after the warm-up. */
  loopP99Ms: number;
  loopMaxMs: number;
}

interface Client {
  userId: string;
  token: string;
  socket: Socket;
}

function connectClient(url: string, userId: string, token: string, transport: WorkerJob['transport'], agent: Agent): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = io(url, {
      path: '/socket.io/',
      // Long polling either way: fetch() as a browser polls (persistent connections, gzip accepted), or node's
      // XMLHttpRequest, given a keep-alive agent (without one it opens a TCP connection per poll; it never asks
      // for compression).
      transports: [transport === 'fetch' ? Fetch : NodeXHR],
      agent: agent as never,
      multiplex: false,
      reconnection: false,
      timeout: 20_000,
      auth: { token: `Bearer ${token}` },
    });
    socket.once('connect', () => resolve({ userId, token, socket }));
    socket.once('connect_error', (e) => {
      socket.close();
      reject(e);
    });
  });
}

async function clientWorker(job: WorkerJob): Promise<void> {
  const port = parentPort!;
  const agent = new Agent({ keepAlive: true });
  const clients: Client[] = [];
  let failed = 0;
  for (let i = 0; i < job.users.length; i += job.connectBatch) {
    const batch = await Promise.allSettled(job.users.slice(i, i + job.connectBatch).map((u) => connectClient(job.url, u.id, u.token, job.transport, agent)));
    for (const r of batch) {
      if (r.status === 'fulfilled') clients.push(r.value);
      else failed++;
    }
  }
  let disconnects = 0;
  for (const c of clients) c.socket.on('disconnect', () => disconnects++);
  // Pairs among the first `active` connected clients: (0,1), (2,3), …
  const active = clients.slice(0, Math.min(job.active, clients.length) & ~1);
  port.postMessage({ type: 'connected', connected: clients.length, failed, active: active.length } satisfies Connected);

  const { warmupSeconds, seconds } = await new Promise<Extract<ToWorker, { type: 'start' }>>((resolve) =>
    port.once('message', (m: ToWorker) => m.type === 'start' && resolve(m)),
  );
  const deliveries: Results['deliveries'] = [];
  const posts: Results['posts'] = [];
  let sending = true;
  for (const c of active) {
    c.socket.on('new_message', (payload: { newMessage?: { message?: string; sender?: { _id?: string } } }) => {
      const now = Date.now();
      const m = payload.newMessage;
      if (!m?.message?.startsWith('t:') || m.sender?._id === c.userId) return; // the sender's own echo
      const sentAt = Number(m.message.slice(2));
      deliveries.push([sentAt, now - sentAt]);
    });
  }
  const send = async (from: Client, to: Client) => {
    const sentAt = Date.now();
    const t0 = performance.now();
    let outcome = 'ok';
    try {
      const res = await fetch(`${job.url}/api/messages/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: `t:${sentAt}`, recipient: to.userId }),
      });
      await res.arrayBuffer();
      if (!res.ok) outcome = String(res.status);
    } catch (e) {
      outcome = (e as Error).message;
    }
    posts.push([sentAt, performance.now() - t0, outcome]);
  };

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const timers: NodeJS.Timeout[] = [setTimeout(() => loopDelay.reset(), warmupSeconds * 1000)];
  for (let i = 0; i + 1 < active.length; i += 2) {
    for (const [from, to] of [
      [active[i]!, active[i + 1]!],
      [active[i + 1]!, active[i]!],
    ] as const) {
      const tick = () => {
        if (!sending) return;
        void send(from, to);
        timers.push(setTimeout(tick, SEND_EVERY_MS + Math.random() * SEND_JITTER_MS));
      };
      timers.push(setTimeout(tick, Math.random() * SEND_EVERY_MS)); // spread the first sends
    }
  }
  await sleep((warmupSeconds + seconds) * 1000);
  sending = false;
  await sleep(DRAIN_MS);
  loopDelay.disable();
  for (const t of timers) clearTimeout(t);
  port.postMessage({
    type: 'results',
    deliveries,
    posts,
    disconnects,
    loopP99Ms: loopDelay.percentile(99) / 1e6,
    loopMaxMs: loopDelay.max / 1e6,
  } satisfies Results);

  await new Promise<void>((resolve) => port.once('message', (m: ToWorker) => m.type === 'stop' && resolve()));
  for (const c of clients) c.socket.disconnect();
  agent.destroy();
  port.close();
}

/** The next message of a type from a worker (rejects if the worker fails or exits first). */
/** The worker's next message of this type (or its error, or its exit before it). */
export function next<T extends { type: string }>(worker: Worker, type: T['type']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: T) => {
      if (m.type !== type) return;
      cleanup();
      resolve(m);
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const onExit = (code: number) => onError(new Error(`client worker exited (${code}) before "${type}"`));
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Main thread
// ---------------------------------------------------------------------------------------------------------

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

export async function runChatBench(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    throw new Error(
      'The chat benchmark needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres). ' +
        'PGlite cannot be shared between the server child process and the benchmark that inserts the users.',
    );
  }
  // Only the main thread needs the server's modules (the workers load this file too).
  const { default: pg } = await import('pg');
  const { openPostgres } = await import('../server/db/client.ts');
  const { buildUser } = await import('../server/db/factories.ts');
  const { users } = await import('../server/modules/users/schema.ts');
  const { Tokens } = await import('../server/lib/auth.ts');

  const clientsN = envInt('BENCH_CLIENTS', 1000);
  const activeN = Math.min(envInt('BENCH_ACTIVE', 200), clientsN) & ~1; // whole pairs
  const seconds = envInt('BENCH_SECONDS', 20);
  const warmupSeconds = process.env.BENCH_WARMUP_SECONDS === '0' ? 0 : envInt('BENCH_WARMUP_SECONDS', 5);
  const workersN = Math.min(envInt('BENCH_WORKERS', 2), Math.max(1, activeN / 2));
  const transport = process.env.BENCH_TRANSPORT === 'xhr' ? 'xhr' : 'fetch';

  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
    log('No web build yet: running `npx react-router build`…');
    const build = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error(`react-router build failed (${build.status ?? build.signal})`);
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const benchUrl = databaseUrl(adminUrl, DB_NAME);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-chat-bench-'));

  let child: ChildProcess | undefined;
  const database = openPostgres(benchUrl, 4);
  const workers: Worker[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    log('starting the server (child process)…');
    const started = await startChild(root, {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      RATES_URL: '',
      SEED_DEMO: '0',
      // Registration is not measured: no bot check.
      TURNSTILE_DISABLED: 'true',
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      DATA_DIR: dataDir,
      DATABASE_URL: benchUrl,
    });
    child = started.child;
    const url = started.url;
    const pid = child.pid!;

    // The child has migrated by now: insert the users in bulk (one argon2 hash, cached by buildUser).
    log(`creating ${clientsN} users…`);
    const tokens = new Tokens(JWT_SECRET);
    const rows = [];
    for (let i = 0; i < clientsN; i += 500) {
      const chunk = await Promise.all(Array.from({ length: Math.min(500, clientsN - i) }, () => buildUser()));
      rows.push(...(await database.db.insert(users).values(chunk).returning({ id: users.id, tokenVersion: users.tokenVersion })));
    }
    const signed = await Promise.all(rows.map(async (u) => ({ id: u.id, token: await tokens.sign(u) })));

    await sleep(1000);
    const memIdle = procMemory(pid);

    // Equal shares: worker w gets every workersN-th user, and sends with the first of its share.
    log(`connecting ${clientsN} clients from ${workersN} worker threads, ${CONNECT_BATCH} at a time…`);
    const connectStarted = performance.now();
    for (let w = 0; w < workersN; w++) {
      const share = signed.filter((_, i) => i % workersN === w);
      const job: WorkerJob = {
        role: 'chat-clients',
        url,
        users: share,
        active: Math.floor(activeN / workersN / 2) * 2 + (w < (activeN / 2) % workersN ? 2 : 0),
        connectBatch: Math.max(1, Math.ceil(CONNECT_BATCH / workersN)),
        transport,
      };
      workers.push(tsWorker(import.meta.url, job));
    }
    const connected = await Promise.all(workers.map((w) => next<Connected>(w, 'connected')));
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const clientsConnected = connected.reduce((n, c) => n + c.connected, 0);
    const connectFailed = connected.reduce((n, c) => n + c.failed, 0);
    const activeConnected = connected.reduce((n, c) => n + c.active, 0);
    await sleep(2000);
    const memConnected = procMemory(pid);

    log(`${activeConnected} active clients sending: ${warmupSeconds} s of warm-up, then ${seconds} s measured…`);
    let peakRss = memConnected.rss;
    // PostgreSQL's share: the CPU time of the backends serving the bench database (sampled, as they may come and go).
    const backends = new Map<number, { first: number; last: number }>();
    let baseline = true; // backends found by the first sample count from then; later ones from their start
    const sampleBackends = async () => {
      const { rows: live } = await monitor.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [DB_NAME],
      );
      for (const { pid: backend } of live) {
        try {
          const cpu = procCpuSeconds(backend);
          const seen = backends.get(backend);
          if (seen) seen.last = cpu;
          else backends.set(backend, { first: baseline ? cpu : 0, last: cpu });
        } catch {
          // gone meanwhile, or another machine's PostgreSQL (no /proc entry): not counted
        }
      }
    };
    const monitor = new pg.Client({ connectionString: benchUrl });
    await monitor.connect();
    timers.push(setInterval(() => (peakRss = Math.max(peakRss, procMemory(pid).rss)), 500));

    const results = workers.map((w) => next<Results>(w, 'results'));
    for (const w of workers) w.postMessage({ type: 'start', warmupSeconds, seconds } satisfies ToWorker);
    const measureFrom = Date.now() + warmupSeconds * 1000;
    // The measured phase: CPU time from its start to the end of the drain.
    await sleep(warmupSeconds * 1000);
    const cpuStarted = procCpuSeconds(pid);
    const clientsCpuStarted = procCpuSeconds(process.pid);
    await sampleBackends();
    baseline = false;
    timers.push(setInterval(() => void sampleBackends().catch(() => {}), 500));
    const all = await Promise.all(results);
    const serverCpu = procCpuSeconds(pid) - cpuStarted;
    const clientsCpu = procCpuSeconds(process.pid) - clientsCpuStarted;
    await sampleBackends();
    const pgCpu = [...backends.values()].reduce((n, b) => n + b.last - b.first, 0);
    await monitor.end();
    const load = os.loadavg()[0]!;
    const memEnd = procMemory(pid);
    peakRss = Math.max(peakRss, memEnd.rss);

    const disconnects = all.reduce((n, r) => n + r.disconnects, 0);
    const deliveries = all.flatMap((r) => r.deliveries);
    const posts = all.flatMap((r) => r.posts);
    const measured = <T extends [number, ...unknown[]]>(rows: T[], yes: boolean) => rows.filter((r) => r[0] >= measureFrom === yes);
    const sorted = measured(deliveries, true).map(([, l]) => l).sort((a, b) => a - b);
    const warmSorted = measured(deliveries, false).map(([, l]) => l).sort((a, b) => a - b);
    const measuredPosts = measured(posts, true);
    const sent = measuredPosts.filter(([, , o]) => o === 'ok').length;
    const statuses = new Map<string, number>();
    for (const [, , o] of measuredPosts) if (o !== 'ok') statuses.set(o, (statuses.get(o) ?? 0) + 1);
    const sendFailed = measuredPosts.length - sent;
    const postSorted = measuredPosts.filter(([, , o]) => o === 'ok').map(([, t]) => t).sort((a, b) => a - b);
    const p99 = percentile(sorted, 0.99);
    if (process.env.BENCH_LATENCY_CSV) {
      // Each delivery as "seconds since the measured phase began (negative: warm-up),latency ms".
      const lines = [...deliveries].sort((a, b) => a[0] - b[0]).map(([t, l]) => `${((t - measureFrom) / 1000).toFixed(3)},${l}`);
      writeFileSync(process.env.BENCH_LATENCY_CSV, lines.join('\n') + '\n');
    }
    const atTargetScale = clientsConnected >= TARGETS.atClients;
    const met = (ok: boolean) => (atTargetScale ? (ok ? 'yes' : '**no**') : ok ? 'yes (below target scale)' : '**no** (below target scale)');
    const loops = all.map((r) => `p99 ${ms(r.loopP99Ms)} ms, max ${ms(r.loopMaxMs)} ms`).join('; ');

    console.log('## Подряд chat benchmark\n');
    console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`);
    console.log('- Server: `node --import tsx server/main.ts` in a child process, PostgreSQL (DATABASE_URL), memory presence (no Redis)');
    console.log(
      `- Clients: socket.io-client, long polling only over ${transport === 'fetch' ? 'fetch() (keep-alive, gzip accepted, as a browser)' : "node's XMLHttpRequest (keep-alive, no compression)"}, ` +
        `multiplex off, in ${workersN} worker threads of the benchmark process ` +
        `(connected ${CONNECT_BATCH} at a time in ${connectSeconds.toFixed(1)} s)`,
    );
    console.log(
      `- Load: ${activeConnected} active clients in ${activeConnected / 2} pairs, each POST /api/messages/ every ` +
        `${SEND_EVERY_MS / 1000}–${(SEND_EVERY_MS + SEND_JITTER_MS) / 1000} s: ${warmupSeconds} s of warm-up (each pair's first ` +
        `message opens their chat), then ${seconds} s measured (messages sent in it), then ${DRAIN_MS / 1000} s to drain`,
    );
    console.log(
      `- Warm-up, not in the table: ${warmSorted.length} deliveries, latency p50 / p99 / max ` +
        `${ms(percentile(warmSorted, 0.5))} / ${ms(percentile(warmSorted, 0.99))} / ${ms(warmSorted.at(-1) ?? NaN)} ms`,
    );
    console.log(`- Client workers' event-loop delay (the clients' side, measured phase): ${loops}\n`);
    const table: [string, string][] = [
      ['Connected clients', `${clientsConnected} / ${clientsN}${connectFailed ? ` (${connectFailed} failed)` : ''}`],
      ['Disconnects during the run', String(disconnects)],
      [`Messages sent (${activeConnected})`, String(sent)],
      ['Sends failed', sendFailed ? `${sendFailed} (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')})` : '0'],
      ['Messages received by the partner', String(sorted.length)],
      ['Messages per second (sent)', (sent / seconds).toFixed(1)],
      ['Delivery latency p50', `${ms(percentile(sorted, 0.5))} ms`],
      ['Delivery latency p95', `${ms(percentile(sorted, 0.95))} ms`],
      ['Delivery latency p99', `${ms(p99)} ms`],
      ['POST /api/messages/ response p50 / p99 (part of the delivery time)', `${ms(percentile(postSorted, 0.5))} / ${ms(percentile(postSorted, 0.99))} ms`],
      ['Delivery latency max', `${ms(sorted.at(-1) ?? NaN)} ms`],
      ['Server CPU time, measured phase and drain (per message sent)', `${serverCpu.toFixed(1)} s (${sent ? ((serverCpu * 1000) / sent).toFixed(1) : '–'} ms)`],
      ['PostgreSQL CPU time, the same (per message sent)', `${pgCpu.toFixed(1)} s (${sent ? ((pgCpu * 1000) / sent).toFixed(1) : '–'} ms)`],
      ['Benchmark process CPU time (the clients), the same (per message sent)', `${clientsCpu.toFixed(1)} s (${sent ? ((clientsCpu * 1000) / sent).toFixed(1) : '–'} ms)`],
      ['Machine load average (1 min) at the end of the run', `${load.toFixed(1)} on ${os.availableParallelism()} cores`],
      ['Server RSS, idle (users made, no clients)', mb(memIdle.rss)],
      ['Server RSS, clients connected', mb(memConnected.rss)],
      ['Server RSS, peak during warm-up and run (sampled / VmHWM)', `${mb(peakRss)} / ${mb(memEnd.hwm)}`],
      ['Server RSS, end', mb(memEnd.rss)],
      [`Target: p99 ≤ ${TARGETS.p99Ms} ms at ${TARGETS.atClients} clients`, met(p99 <= TARGETS.p99Ms)],
      [`Target: server memory ≤ ${TARGETS.rssMb} MB at ${TARGETS.atClients} clients`, met(Math.max(peakRss, memEnd.hwm) <= TARGETS.rssMb * 1024 * 1024)],
    ];
    const w = Math.max(...table.map(([k]) => k.length));
    const v = Math.max(...table.map(([, x]) => x.length), 5);
    console.log(`| ${'Metric'.padEnd(w)} | ${'Value'.padStart(v)} |`);
    console.log(`| ${'-'.repeat(w)} | ${'-'.repeat(v - 1)}: |`);
    for (const [k, x] of table) console.log(`| ${k.padEnd(w)} | ${x.padStart(v)} |`);
  } finally {
    for (const t of timers) clearTimeout(t);
    // The clients disconnect, then the workers end.
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => void w.terminate(), 10_000);
            w.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            w.postMessage({ type: 'stop' } satisfies ToWorker);
          }),
      ),
    );
    await database.close();
    if (child) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await cleanup.end();
  }
}

const job = workerData as WorkerJob | undefined;
if (!isMainThread && job?.role === 'chat-clients') await clientWorker(job);
else if (isMainThread && process.argv[1] === import.meta.filename) await runChatBench();
