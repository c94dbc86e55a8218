/**
 * Chat failover benchmark (issue 29): two instances (`node --import tsx server/main.ts`, child processes) on one
 * PostgreSQL database and one Redis, each behind a TCP proxy playing nginx's upstream; BENCH_CLIENTS (2000)
 * socket.io clients on long polling, half through each; the first BENCH_ACTIVE (200) of them in pairs, one of each
 * pair on each instance (so every message crosses Redis), send direct messages every 2.5–3 s each. After
 * BENCH_WARMUP_SECONDS (5) of warm-up and BENCH_SECONDS (20) of steady run, instance A is killed with SIGKILL and its
 * proxy sends everyone to B at once (as nginx does when an upstream refuses); the run goes on BENCH_AFTER_SECONDS (20)
 * more. A's clients reconnect by themselves (the web app's settings: 1–5 s, randomisation 0.5) and catch up as the web
 * app does: on reconnect they GET the newest page of their chat, and the partner's messages found there that did not
 * arrive live count as "caught up". At the end every chat is read whole: a message sent (POST answered 200) that
 * arrived neither live nor by catch-up would show only after a reload; one not in the database is lost.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- chat-failover
 *
 * REDIS_URL defaults to redis://127.0.0.1:6379. BENCH_WORKERS (2) worker threads hold the clients. The benchmark makes
 * a fresh database podryad_bench_failover and drops it after. Not part of `npm test`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import type { ChildProcess } from 'node:child_process';
import { Fetch, io, type Socket } from 'socket.io-client';
import { percentile, tsWorker } from './lib.ts';
import { databaseUrl, next, startChild, stopChild } from './chat.ts';

const DB_NAME = 'podryad_bench_failover';
const JWT_SECRET = 'bench-only-secret-bench-only-secret-bench-only-s';
const CONNECT_BATCH = 50;
const SEND_EVERY_MS = 2500; // + jitter: at most 24 a minute per user (the limit is 30)
const SEND_JITTER_MS = 500;
const DRAIN_MS = 5000;
const PAGE = 50; // MESSAGES_MAX_LIMIT

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const log = (message: string) => console.error(message);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Worker thread: a share of the clients
// ---------------------------------------------------------------------------------------------------------

interface User {
  id: string;
  token: string;
}
interface WorkerJob {
  role: 'failover-clients';
  /** The two balancer entries: [to A, to B]. */
  urls: [string, string];
  pairs: [User, User][];
  idle: User[];
  connectBatch: number;
}
type ToWorker = { type: 'start'; warmupSeconds: number; seconds: number } | { type: 'stop' };
interface Connected {
  type: 'connected';
  connected: number;
  failed: number;
}
interface Results {
  type: 'results';
  /** Partner messages received live: key, sent at (epoch ms), latency ms. */
  live: [string, number, number][];
  /** Partner messages first seen in the catch-up read after a reconnect. */
  caught: string[];
  /** Every POST: key, sent at, "ok" or what went wrong. */
  posts: [string, number, string][];
  /** Every message of the bench in the chats at the end. */
  stored: string[];
  /** Reconnects: ms from the disconnect to the new connection. */
  reconnects: number[];
  disconnects: number;
  catchUpFailed: number;
  loopP99Ms: number;
}

interface Client extends User {
  socket: Socket;
  /** Which balancer entry it uses (0: A, 1: B). */
  via: 0 | 1;
  chatId?: string;
  partner?: Client;
}

function connect(url: string, user: User, via: 0 | 1): Promise<Client> {
  return new Promise((resolve, reject) => {
    // The web app's socket options (web/lib/socket.ts), polling over fetch() as a browser does.
    const socket = io(url, {
      path: '/socket.io/',
      transports: [Fetch],
      multiplex: false,
      reconnection: true,
      reconnectionAttempts: Infinity,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 5000,
      randomizationFactor: 0.5,
      timeout: 20_000,
      auth: { token: `Bearer ${user.token}` },
    });
    const fail = (e: Error) => {
      socket.close();
      reject(e);
    };
    socket.once('connect', () => {
      socket.off('connect_error', fail);
      resolve({ ...user, socket, via });
    });
    socket.once('connect_error', fail);
  });
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(String(res.status));
  return JSON.parse(text) as { result: unknown };
}

type Message = { message: string; sender: { _id: string } };
const readPage = async (c: Client, page: number) =>
  (await api(c.via === 0 ? job.urls[0] : job.urls[1], c.token, 'GET', `/api/messages/chat/${c.chatId}?page=${page}&limit=${PAGE}&chat_id=${c.chatId}`))
    .result as Message[];

const job = workerData as WorkerJob;

async function clientWorker(): Promise<void> {
  const port = parentPort!;
  const clients: Client[] = [];
  const active: [Client, Client][] = [];
  let failed = 0;
  const all = [...job.pairs.flatMap(([x, y]) => [[x, 0] as const, [y, 1] as const]), ...job.idle.map((u, i) => [u, (i % 2) as 0 | 1] as const)];
  const made = new Map<string, Client>();
  for (let i = 0; i < all.length; i += job.connectBatch) {
    const batch = await Promise.allSettled(all.slice(i, i + job.connectBatch).map(([u, via]) => connect(job.urls[via], u, via)));
    for (const r of batch) {
      if (r.status === 'fulfilled') {
        clients.push(r.value);
        made.set(r.value.id, r.value);
      } else failed++;
    }
  }
  for (const [x, y] of job.pairs) {
    const a = made.get(x.id);
    const b = made.get(y.id);
    if (!a || !b) continue;
    a.partner = b;
    b.partner = a;
    // The pair's chat opens with a first message (not measured).
    const res = (await api(job.urls[0], a.token, 'POST', '/api/messages/', { message: 'привет', recipient: b.id })).result as { chat_id: string };
    a.chatId = b.chatId = res.chat_id;
    active.push([a, b]);
  }
  port.postMessage({ type: 'connected', connected: clients.length, failed } satisfies Connected);

  const { warmupSeconds, seconds } = await new Promise<Extract<ToWorker, { type: 'start' }>>((resolve) =>
    port.once('message', (m: ToWorker) => m.type === 'start' && resolve(m)),
  );
  const results: Results = { type: 'results', live: [], caught: [], posts: [], stored: [], reconnects: [], disconnects: 0, catchUpFailed: 0, loopP99Ms: 0 };
  const seen = new Set<string>();
  let sending = true;
  // Every client, active or not, notes its disconnects and reconnects.
  for (const c of clients) {
    let droppedAt = 0;
    c.socket.on('disconnect', () => {
      results.disconnects++;
      droppedAt = Date.now();
    });
    c.socket.on('connect', () => droppedAt && results.reconnects.push(Date.now() - droppedAt));
  }
  for (const [a, b] of active) {
    for (const c of [a, b]) {
      c.socket.on('new_message', (payload: { newMessage?: Message; chat?: { _id?: string } }) => {
        const now = Date.now();
        const m = payload.newMessage;
        if (!m?.message.startsWith('t:') || m.sender._id !== c.partner!.id || seen.has(m.message)) return;
        seen.add(m.message);
        results.live.push([m.message, Number(m.message.split(':')[1]), now - Number(m.message.split(':')[1])]);
      });
      c.socket.on('connect', () => {
        // Back after a gap: read the chat's newest page, as the web app's chat store does (catchUp).
        readPage(c, 1).then(
          (messages) => {
            for (const m of messages) {
              if (!m.message.startsWith('t:') || m.sender._id !== c.partner!.id || seen.has(m.message)) continue;
              seen.add(m.message);
              results.caught.push(m.message);
            }
          },
          () => results.catchUpFailed++,
        );
      });
    }
  }
  let n = 0;
  const send = async (from: Client, to: Client) => {
    const sentAt = Date.now();
    const key = `t:${sentAt}:${from.id.slice(-6)}:${n++}`;
    let outcome = 'ok';
    try {
      await api(job.urls[from.via], from.token, 'POST', '/api/messages/', { message: key, chat_id: from.chatId, recipient: to.id });
    } catch (e) {
      outcome = (e as Error).message;
    }
    results.posts.push([key, sentAt, outcome]);
  };
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const timers: NodeJS.Timeout[] = [];
  for (const [a, b] of active) {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const tick = () => {
        if (!sending) return;
        void send(from, to);
        timers.push(setTimeout(tick, SEND_EVERY_MS + Math.random() * SEND_JITTER_MS));
      };
      timers.push(setTimeout(tick, Math.random() * SEND_EVERY_MS));
    }
  }
  await sleep((warmupSeconds + seconds) * 1000);
  sending = false;
  await sleep(DRAIN_MS);
  loopDelay.disable();
  for (const t of timers) clearTimeout(t);
  // Every chat read whole (through B's entry: A is gone).
  for (const [a] of active) {
    for (let page = 1; ; page++) {
      const messages = await readPage({ ...a, via: 1 }, page);
      for (const m of messages) if (m.message.startsWith('t:')) results.stored.push(m.message);
      if (messages.length < PAGE) break;
    }
  }
  results.loopP99Ms = loopDelay.percentile(99) / 1e6;
  port.postMessage(results);
  await new Promise<void>((resolve) => port.once('message', (m: ToWorker) => m.type === 'stop' && resolve()));
  for (const c of clients) c.socket.disconnect();
  port.close();
}


// ---------------------------------------------------------------------------------------------------------
// Main thread
// ---------------------------------------------------------------------------------------------------------

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '–');

export async function runChatFailoverBench(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('The chat failover benchmark needs PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const { default: pg } = await import('pg');
  const { openPostgres } = await import('../server/db/client.ts');
  const { buildUser } = await import('../server/db/factories.ts');
  const { users } = await import('../server/modules/users/schema.ts');
  const { Tokens } = await import('../server/lib/auth.ts');
  const { cuttableProxy } = await import('../server/test/cuttable-proxy.ts');

  const clientsN = envInt('BENCH_CLIENTS', 2000);
  const activeN = Math.min(envInt('BENCH_ACTIVE', 200), clientsN) & ~1;
  const warmupSeconds = envInt('BENCH_WARMUP_SECONDS', 5);
  const seconds = envInt('BENCH_SECONDS', 20);
  const afterSeconds = envInt('BENCH_AFTER_SECONDS', 20);
  const workersN = Math.min(envInt('BENCH_WORKERS', 2), Math.max(1, activeN / 2));

  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) throw new Error('No web build: run `npm run build` first.');

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME} with (force)`);
  await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const benchUrl = databaseUrl(adminUrl, DB_NAME);
  const dirs = [mkdtempSync(path.join(os.tmpdir(), 'podryad-failover-a-')), mkdtempSync(path.join(os.tmpdir(), 'podryad-failover-b-'))];
  const children: ChildProcess[] = [];
  const proxies: Awaited<ReturnType<typeof cuttableProxy>>[] = [];
  const workers: Worker[] = [];
  const database = openPostgres(benchUrl, 4);
  try {
    const env = (dataDir: string) => ({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      RATES_URL: '',
      SEED_DEMO: '0',
      TURNSTILE_DISABLED: 'true',
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      DATA_DIR: dataDir,
      DATABASE_URL: benchUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench-failover-${randomBytes(4).toString('hex')}`,
    });
    log('starting instance A, then B (child processes)…');
    const shared = env(dirs[0]!);
    const a = await startChild(root, shared);
    children.push(a.child);
    const b = await startChild(root, { ...shared, DATA_DIR: dirs[1]! });
    children.push(b.child);
    proxies.push(await cuttableProxy(a.url), await cuttableProxy(b.url));
    const urls: [string, string] = [proxies[0]!.url.replace(/\/$/, ''), proxies[1]!.url.replace(/\/$/, '')];

    log(`creating ${clientsN} users…`);
    const tokens = new Tokens(JWT_SECRET);
    const rows = [];
    for (let i = 0; i < clientsN; i += 500) {
      const chunk = await Promise.all(Array.from({ length: Math.min(500, clientsN - i) }, () => buildUser()));
      rows.push(...(await database.db.insert(users).values(chunk).returning({ id: users.id, tokenVersion: users.tokenVersion })));
    }
    const signed = await Promise.all(rows.map(async (u) => ({ id: u.id, token: await tokens.sign(u) })));
    const pairs: [User, User][] = [];
    for (let i = 0; i < activeN; i += 2) pairs.push([signed[i]!, signed[i + 1]!]);
    const idle = signed.slice(activeN);

    log(`connecting ${clientsN} clients (half through each instance) from ${workersN} worker threads…`);
    const connectStarted = performance.now();
    for (let w = 0; w < workersN; w++) {
      const job: WorkerJob = {
        role: 'failover-clients',
        urls,
        pairs: pairs.filter((_, i) => i % workersN === w),
        idle: idle.filter((_, i) => i % workersN === w),
        connectBatch: Math.max(1, Math.ceil(CONNECT_BATCH / workersN)),
      };
      workers.push(tsWorker(import.meta.url, job));
    }
    const connected = await Promise.all(workers.map((w) => next<Connected>(w, 'connected')));
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const clientsConnected = connected.reduce((n, c) => n + c.connected, 0);
    const connectFailed = connected.reduce((n, c) => n + c.failed, 0);

    log(`${activeN} clients sending: ${warmupSeconds} s warm-up, ${seconds} s steady, then SIGKILL of A and ${afterSeconds} s more…`);
    const results = workers.map((w) => next<Results>(w, 'results'));
    for (const w of workers) w.postMessage({ type: 'start', warmupSeconds, seconds: seconds + afterSeconds } satisfies ToWorker);
    const measureFrom = Date.now() + warmupSeconds * 1000;
    await sleep((warmupSeconds + seconds) * 1000);
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    // nginx's next upstream: the entry that led to A now leads to B.
    proxies[0]!.retarget(b.url);
    log('instance A killed (SIGKILL); its entry now leads to B');
    const all = await Promise.all(results);
    const load = os.loadavg()[0]!;

    const posts = all.flatMap((r) => r.posts).filter(([, t]) => t >= measureFrom);
    const ok = posts.filter(([, , o]) => o === 'ok');
    const failedPosts = posts.filter(([, , o]) => o !== 'ok');
    const live = new Map(all.flatMap((r) => r.live).map(([k, t, l]) => [k, { t, l }]));
    const caught = new Set(all.flatMap((r) => r.caught));
    const stored = new Set(all.flatMap((r) => r.stored));
    let nLive = 0;
    let nCaught = 0;
    let nReload = 0;
    let nLost = 0;
    for (const [k] of ok) {
      if (live.has(k)) nLive++;
      else if (caught.has(k)) nCaught++;
      else if (stored.has(k)) nReload++;
      else nLost++;
    }
    const failedButStored = failedPosts.filter(([k]) => stored.has(k)).length;
    const latencies = (from: number, to: number) =>
      ok
        .filter(([, t]) => t >= from && t < to)
        .map(([k]) => live.get(k)?.l)
        .filter((l): l is number => l !== undefined)
        .sort((x, y) => x - y);
    const steady = latencies(measureFrom, killedAt);
    const after = latencies(killedAt, Infinity);
    // The second half of the run after the kill: B alone with every client, once the reconnects have settled.
    const settledFrom = killedAt + (afterSeconds * 1000) / 2;
    const settled = latencies(settledFrom, Infinity);
    const reconnects = all.flatMap((r) => r.reconnects).sort((x, y) => x - y);
    const statuses = new Map<string, number>();
    for (const [, , o] of failedPosts) statuses.set(o, (statuses.get(o) ?? 0) + 1);

    console.log('## Подряд chat failover benchmark\n');
    console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}; load average (1 min) at the end ${load.toFixed(1)}`);
    console.log('- Servers: two `node --import tsx server/main.ts` child processes, one PostgreSQL database, one Redis; a TCP proxy in front of each (nginx)');
    console.log(`- Clients: ${clientsConnected} / ${clientsN} connected${connectFailed ? ` (${connectFailed} failed)` : ''} in ${connectSeconds.toFixed(1)} s, socket.io-client long polling over fetch(), half through each instance, in ${workersN} worker threads (event-loop p99 ${all.map((r) => ms(r.loopP99Ms)).join(' / ')} ms)`);
    console.log(`- Load: ${activeN} clients in ${activeN / 2} pairs across the instances, each sends every 2.5–3 s; ${warmupSeconds} s warm-up, ${seconds} s steady, SIGKILL of A, ${afterSeconds} s more, ${DRAIN_MS / 1000} s drain\n`);
    const table: [string, string][] = [
      ['Messages sent (POST 200), measured', String(ok.length)],
      ['POSTs failed (sent to A as it died: no answer)', failedPosts.length ? `${failedPosts.length} (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}); ${failedButStored} of them stored anyway` : '0'],
      ['Delivery latency before the kill p50 / p95 / p99', `${ms(percentile(steady, 0.5))} / ${ms(percentile(steady, 0.95))} / ${ms(percentile(steady, 0.99))} ms (${steady.length})`],
      ['Delivery latency after the kill p50 / p95 / p99 (live only)', `${ms(percentile(after, 0.5))} / ${ms(percentile(after, 0.95))} / ${ms(percentile(after, 0.99))} ms (${after.length})`],
      [
        `Delivery latency, last ${afterSeconds / 2} s (B alone) p50 / p95 / p99`,
        `${ms(percentile(settled, 0.5))} / ${ms(percentile(settled, 0.95))} / ${ms(percentile(settled, 0.99))} ms (${settled.length})`,
      ],
      ['Delivered live', `${nLive} (${pct(nLive, ok.length)})`],
      ['Caught up on reconnect', `${nCaught} (${pct(nCaught, ok.length)})`],
      ['Stored, shown only after a reload', `${nReload} (${pct(nReload, ok.length)})`],
      ['Lost (not in the database)', `${nLost} (${pct(nLost, ok.length)})`],
      ['Clients disconnected / reconnected (all, idle too)', `${all.reduce((n, r) => n + r.disconnects, 0)} / ${reconnects.length}`],
      ['Reconnect time p50 / p99 / max', `${ms(percentile(reconnects, 0.5))} / ${ms(percentile(reconnects, 0.99))} / ${ms(reconnects.at(-1) ?? NaN)} ms`],
      ['Catch-up reads failed', String(all.reduce((n, r) => n + r.catchUpFailed, 0))],
    ];
    const w = Math.max(...table.map(([k]) => k.length));
    const v = Math.max(...table.map(([, x]) => x.length));
    console.log(`| ${'Metric'.padEnd(w)} | ${'Value'.padStart(v)} |`);
    console.log(`| ${'-'.repeat(w)} | ${'-'.repeat(v - 1)}: |`);
    for (const [k, x] of table) console.log(`| ${k.padEnd(w)} | ${x.padStart(v)} |`);
    if (nLost > 0) process.exitCode = 1;
  } finally {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => void w.terminate(), 10_000);
            w.once('exit', () => (clearTimeout(kill), resolve()));
            w.postMessage({ type: 'stop' } satisfies ToWorker);
          }),
      ),
    );
    for (const p of proxies) await p.close();
    await database.close();
    for (const c of children) await stopChild(c);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await cleanup.end();
  }
}

if (!isMainThread && job?.role === 'failover-clients') await clientWorker();
else if (isMainThread && process.argv[1] === import.meta.filename) await runChatFailoverBench();
