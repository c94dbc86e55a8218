/**
 * Chat benchmark: BENCH_CLIENTS (1000) socket.io clients on long polling against the real server in a child
 * process; the first BENCH_ACTIVE (200) of them, in pairs, send direct messages to each other through
 * POST /api/messages/ for BENCH_SECONDS (20), one every 2.5–3 s each (under the 30-a-minute limit per user).
 * The partner measures delivery latency (receive time − the send timestamp in the message, same clock).
 * The server's memory is its child process's VmRSS (/proc/<pid>/status).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/chat.ts
 *
 * PostgreSQL only: PGlite keeps its directory to one process, and the users are inserted from this one while
 * the server runs in the child. The benchmark makes a fresh database podryad_bench_chat and drops it after.
 * `npm run bench` runs this too when BENCH_CHAT=1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { openPostgres } from '../server/db/client.ts';
import { buildUser } from '../server/db/factories.ts';
import { users } from '../server/db/schema/users.ts';
import { Tokens } from '../server/lib/auth.ts';

const TARGETS = { p99Ms: 150, rssMb: 400, atClients: 1000 } as const;
const DB_NAME = 'podryad_bench_chat';
const JWT_SECRET = 'bench-only-secret-bench-only-secret-bench-only-s'; // 48 characters
const CONNECT_BATCH = 50;
const SEND_EVERY_MS = 2500; // + up to 500 ms jitter: at most 24 a minute per user (limit 30)
const SEND_JITTER_MS = 500;
const DRAIN_MS = 3000;

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};
const log = (message: string) => console.error(message); // progress on stderr keeps stdout pasteable
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function databaseUrl(adminUrl: string, name: string): string {
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
function startChild(root: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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
        child.stdout!.resume();
        resolve({ child, url: match[1]!.replace('localhost', '127.0.0.1') });
      }
    });
    const early = (code: number | null, signal: string | null) => fail(new Error(`server exited early (${code ?? signal})\n${out}${err}`));
    child.once('exit', early);
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Client {
  userId: string;
  token: string;
  socket: Socket;
}

function connectClient(url: string, userId: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = io(url, {
      path: '/socket.io/',
      transports: ['polling'],
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

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
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
  const clientsN = envInt('BENCH_CLIENTS', 1000);
  const activeN = Math.min(envInt('BENCH_ACTIVE', 200), clientsN) & ~1; // whole pairs
  const seconds = envInt('BENCH_SECONDS', 20);

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
  const clients: Client[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    log('starting the server (child process)…');
    const started = await startChild(root, {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      RATES_URL: '',
      SEED_DEMO: '0',
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

    log(`connecting ${clientsN} clients, ${CONNECT_BATCH} at a time…`);
    const connectStarted = performance.now();
    let connectFailed = 0;
    for (let i = 0; i < signed.length; i += CONNECT_BATCH) {
      const batch = await Promise.allSettled(signed.slice(i, i + CONNECT_BATCH).map((u) => connectClient(url, u.id, u.token)));
      for (const r of batch) {
        if (r.status === 'fulfilled') clients.push(r.value);
        else connectFailed++;
      }
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    let disconnects = 0;
    for (const c of clients) c.socket.on('disconnect', () => disconnects++);
    await sleep(2000);
    const memConnected = procMemory(pid);

    // Pairs among the first activeN connected clients: (0,1), (2,3), …
    const active = clients.slice(0, activeN - (Math.min(activeN, clients.length) % 2));
    const latencies: number[] = [];
    let sent = 0;
    let sendFailed = 0;
    const statuses = new Map<string, number>();
    let received = 0;
    let sending = true;
    for (const c of active) {
      c.socket.on('new_message', (payload: { newMessage?: { message?: string; sender?: { _id?: string } } }) => {
        const now = Date.now();
        const m = payload.newMessage;
        if (!m?.message?.startsWith('t:') || m.sender?._id === c.userId) return; // the sender's own echo
        received++;
        latencies.push(now - Number(m.message.slice(2)));
      });
    }

    const postMs: number[] = [];
    const send = async (from: Client, to: Client) => {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}/api/messages/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message: `t:${Date.now()}`, recipient: to.userId }),
        });
        await res.arrayBuffer();
        if (res.ok) {
          sent++;
          postMs.push(performance.now() - t0);
        }
        else {
          sendFailed++;
          statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
        }
      } catch (e) {
        sendFailed++;
        const key = (e as Error).message;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };

    log(`${active.length} active clients sending for ${seconds} s…`);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    let peakRss = memConnected.rss;
    timers.push(setInterval(() => (peakRss = Math.max(peakRss, procMemory(pid).rss)), 500));
    const runStarted = performance.now();
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
    await sleep(seconds * 1000);
    sending = false;
    const runSeconds = (performance.now() - runStarted) / 1000;
    await sleep(DRAIN_MS);
    loopDelay.disable();
    const memEnd = procMemory(pid);
    peakRss = Math.max(peakRss, memEnd.rss);

    const sorted = latencies.sort((a, b) => a - b);
    const p99 = percentile(sorted, 0.99);
    const postSorted = postMs.sort((a, b) => a - b);
    const atTargetScale = clients.length >= TARGETS.atClients;
    const met = (ok: boolean) => (atTargetScale ? (ok ? 'yes' : '**no**') : ok ? 'yes (below target scale)' : '**no** (below target scale)');

    console.log('## Подряд chat benchmark\n');
    console.log(`- Machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`);
    console.log('- Server: `node --import tsx server/main.ts` in a child process, PostgreSQL (DATABASE_URL), memory presence (no Redis)');
    console.log(
      `- Clients: socket.io-client, long polling only, multiplex off, all in the benchmark process (connected ${CONNECT_BATCH} at a time in ${connectSeconds.toFixed(1)} s)`,
    );
    console.log(
      `- Load: ${active.length} active clients in ${active.length / 2} pairs, each POST /api/messages/ every ` +
        `${SEND_EVERY_MS / 1000}–${(SEND_EVERY_MS + SEND_JITTER_MS) / 1000} s for ${seconds} s, then ${DRAIN_MS / 1000} s to drain`,
    );
    console.log(
      `- Benchmark process event-loop delay (the clients' side): p99 ${ms(loopDelay.percentile(99) / 1e6)} ms, max ${ms(loopDelay.max / 1e6)} ms\n`,
    );
    const table: [string, string][] = [
      ['Connected clients', `${clients.length} / ${clientsN}${connectFailed ? ` (${connectFailed} failed)` : ''}`],
      ['Disconnects during the run', String(disconnects)],
      ['Messages sent (200)', String(sent)],
      ['Sends failed', sendFailed ? `${sendFailed} (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')})` : '0'],
      ['Messages received by the partner', String(received)],
      ['Messages per second (sent)', (sent / runSeconds).toFixed(1)],
      ['Delivery latency p50', `${ms(percentile(sorted, 0.5))} ms`],
      ['Delivery latency p95', `${ms(percentile(sorted, 0.95))} ms`],
      ['Delivery latency p99', `${ms(p99)} ms`],
      ['POST /api/messages/ response p50 / p99 (part of the delivery time)', `${ms(percentile(postSorted, 0.5))} / ${ms(percentile(postSorted, 0.99))} ms`],
      ['Delivery latency max', `${ms(sorted.at(-1) ?? NaN)} ms`],
      ['Server RSS, idle (users made, no clients)', mb(memIdle.rss)],
      ['Server RSS, clients connected', mb(memConnected.rss)],
      ['Server RSS, peak during the run (sampled / VmHWM)', `${mb(peakRss)} / ${mb(memEnd.hwm)}`],
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
    for (const c of clients) c.socket.disconnect();
    await database.close();
    if (child) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await cleanup.end();
  }
}

if (process.argv[1] === import.meta.filename) await runChatBench();
