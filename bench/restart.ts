/**
 * Restart to ready (`node --import tsx bench/restart.ts`): the time from spawning the server to its first 200 from
 * /api/ready, for each way of starting it, on PGlite (a data folder seeded by one earlier start) and on PostgreSQL
 * (a fresh database, created here, seeded by one earlier start, dropped at the end). Prints the median of
 * BENCH_RUNS (3) runs. BENCH_ONLY=pglite|postgres keeps one database; BENCH_WAYS=start.mjs,main.mjs keeps the commands
 * containing one of these; BENCH_PG_ADMIN (postgres://postgres@127.0.0.1:5432/postgres) is where the database is created.
 * The machine's load average is printed with the table: the figures are wall-clock times.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, median } from './lib.ts';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_RUNS) || 3;
const only = process.env.BENCH_ONLY;
const waysWanted = process.env.BENCH_WAYS?.split(',').filter(Boolean);
const adminUrl = process.env.BENCH_PG_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Way {
  name: string;
  command: string[];
  /** Present only once built (the bundle). */
  available?: () => boolean;
}

const bundle = path.join(root, 'build', 'server-app', 'main.mjs');
const ways: Way[] = [
  { name: '`npm start`', command: ['npm', 'start', '--silent'] },
  { name: '`node scripts/start.mjs`', command: [process.execPath, 'scripts/start.mjs'] },
  { name: '`node --import tsx server/main.ts`', command: [process.execPath, '--import', 'tsx', 'server/main.ts'] },
  { name: '`node build/server-app/main.mjs`', command: [process.execPath, bundle], available: () => existsSync(bundle) },
];


/** Spawns the way, polls /api/ready until its first 200, stops it gracefully; answers the milliseconds to ready. */
async function timeToReady(way: Way, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const [cmd, ...args] = way.command;
  const started = performance.now();
  // Its own process group: whatever it spawns is cleaned up with it.
  const child = spawn(cmd!, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  let readyAt = 0;
  const deadline = Date.now() + 120_000;
  while (!readyAt) {
    if (exitedEarly) throw new Error(`${way.name} exited before it was ready:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${way.name} not ready in 120 s:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
      await res.arrayBuffer();
      if (res.status === 200) readyAt = performance.now();
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  // SIGTERM to the top process only (npm and start.mjs pass it on), then wait for the whole group to be gone, so that
  // the next run finds the data folder closed.
  child.kill('SIGTERM');
  await exited;
  for (let i = 0; i < 300 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 50));
  if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
  return readyAt - started;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}


/** The bare `npm start` demo: production mode, demo data, no bot check; quiet logs and no rates fetch. */
const baseEnv: Record<string, string> = {
  NODE_ENV: 'production',
  DEMO_MODE: '1',
  SEED_DEMO: '1',
  TURNSTILE_DISABLED: 'true',
  RATES_URL: '',
  REDIS_URL: '',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};

async function measureDatabase(label: string, env: Record<string, string>) {
  // One earlier start: migrations, reference and demo data are in place, as on any restart.
  await timeToReady(ways[2]!, env);
  const rows: string[] = [];
  for (const way of ways) {
    if (waysWanted && !waysWanted.some((w) => way.name.includes(w))) continue;
    if (way.available && !way.available()) {
      rows.push(`| ${label} | ${way.name} | (not built) | |`);
      continue;
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timeToReady(way, env));
    rows.push(`| ${label} | ${way.name} | ${(median(times) / 1000).toFixed(2)} s | ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} |`);
    console.error(rows.at(-1));
  }
  return rows;
}

const rows: string[] = [];
if (only !== 'postgres') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-restart-'));
  try {
    rows.push(...(await measureDatabase('PGlite', { ...baseEnv, DATA_DIR: dataDir, DATABASE_URL: '' })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (only !== 'pglite') {
  const name = `podryad_restart_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-restart-'));
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    rows.push(...(await measureDatabase('PostgreSQL', { ...baseEnv, DATA_DIR: dataDir, DATABASE_URL: url.href })));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `\n## Restart to ready (median of ${runs}; ${os.availableParallelism()} cores, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})\n`,
);
console.log('| Database | Command | Median | Runs |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
