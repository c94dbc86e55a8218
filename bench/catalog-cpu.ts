/**
 * CPU per request of the catalogue's listings on PostgreSQL, for comparing two versions on a busy machine: the real
 * server in this process, over the catalog benchmark's database (podryad_bench_<BENCH_SERVICES>, 1,000,000 by
 * default; made by generate-services.ts when missing), answers BENCH_REQUESTS (1500) sequential requests per target.
 * Printed per request: this process's CPU (server and client together), PostgreSQL's (every `postgres` process of the
 * machine, from /proc: run nothing else on it meanwhile) and the wall time. CPU time barely moves with other
 * processes' load, unlike requests per second.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/catalog-cpu.ts
 *
 * BENCH_TARGETS: paths separated by `|` instead of the default ones; `&cursor=NEXT` in a path is replaced by the
 * `next` cursor of the same path's first page. BENCH_PROFILE=file.cpuprofile also profiles each target (V8's sampling
 * profiler; the summary is printed). Linux only (/proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { register } from 'node:module';

process.env.NODE_ENV = 'production';
// As `npm start` runs: production builds of React and React Router.
register('../scripts/production-builds.mjs', import.meta.url);
const { BROWSER_HEADERS, startProfile, startServerOn } = await import('./lib.ts');
const { ensureBenchDatabase } = await import('./generate-services.ts');

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error('PostgreSQL only: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
const bench = await ensureBenchDatabase(adminUrl, Number(process.env.BENCH_SERVICES ?? 1_000_000));
const running = await startServerOn(bench.url, 'catalog-cpu');
const { server } = running;

/** CPU time (ms) of each `postgres` process now, by pid: a process's own counters, so one that ends is not subtracted. */
function postgresCpu(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime, in clock ticks (100 a second on Linux).
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

const DEFAULT_TARGETS = [
  '/api/services?category=design',
  '/api/services',
  '/api/services?category=design&cursor=NEXT',
  '/api/services?category=design&sort=price_desc',
  '/api/services?category=design&price_min=500000&price_max=3000000&days_max=7&sort=price_asc',
];
const targets = process.env.BENCH_TARGETS?.split('|') ?? DEFAULT_TARGETS;
const n = Number(process.env.BENCH_REQUESTS ?? 1500);
const rows: string[] = ['| Target | this process, CPU | PostgreSQL, CPU | wall |', '|---|---:|---:|---:|'];
try {
  for (const given of targets) {
    let target = given;
    if (target.includes('&cursor=NEXT')) {
      const first = (await (await fetch(server.url + target.replace('&cursor=NEXT', ''))).json()) as { next: string };
      target = target.replace('NEXT', first.next);
    }
    const get = async () => {
      const res = await fetch(server.url + target, { headers: { ...BROWSER_HEADERS, 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${target}: ${res.status}`);
    };
    for (let i = 0; i < 200; i++) await get();
    const profile = process.env.BENCH_PROFILE ? await startProfile() : null;
    const cpu = process.cpuUsage();
    const before = postgresCpu();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await get();
    const wall = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    let postgres = 0;
    for (const [pid, ms] of postgresCpu()) postgres += ms - (before.get(pid) ?? 0);
    if (profile) console.log(`${given}\n${await profile.stop(process.env.BENCH_PROFILE)}\n`);
    rows.push(`| ${given} | ${((used.user + used.system) / 1000 / n).toFixed(2)} ms | ${(postgres / n).toFixed(2)} ms | ${(wall / n).toFixed(2)} ms |`);
  }
  console.log(rows.join('\n'));
} finally {
  await running.close();
}
process.exit(0);
