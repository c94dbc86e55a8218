/**
 * Benchmark helpers about processes: the ones a process started, waiting until they are all quiet (/proc), and running
 * with `npm start`'s V8 flags.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The V8 flags `npm start` gives Node (package.json's start script): `--max-semi-space-size=8`, say. */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/u).filter((word) => word.startsWith('--'));
}

/**
 * A benchmark of the server in its own process measures it with `npm start`'s V8 flags: the young generation's size
 * and V8's thread pool change how often, how long and on how many threads it collects garbage, which shows in the
 * latencies (bench/README, session 58). Run without them, the benchmark runs itself again with them, in a child
 * that shares its terminal, and exits with it. A flag given on the command line is kept as given.
 */
export function withStartFlags(): void {
  const named = (flag: string) => flag.split('=', 1)[0]!;
  const given = new Set(process.execArgv.map(named));
  const missing = startFlags().filter((flag) => !given.has(named(flag)));
  if (missing.length === 0) return;
  const child = spawnSync(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

/** CPU time (user + system) of a process so far, in clock ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The processes a process started, and theirs (the picture worker, ADR 072), from /proc/<pid>/task/<tid>/children. */
export function descendants(pid: number): number[] {
  const attempt = (list: () => string[]) => {
    try {
      return list();
    } catch {
      return []; // the process (or thread) ended meanwhile
    }
  };
  return attempt(() => readdirSync(`/proc/${pid}/task`)).flatMap((tid) =>
    attempt(() => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean))
      .map(Number)
      .flatMap((child) => [child, ...descendants(child)]),
  );
}

/** CPU ticks of a process and of those it started (a process that is gone counts nothing). */
function treeTicks(pid: number): { ticks: number; members: string } {
  const members = [pid, ...descendants(pid)];
  let ticks = 0;
  for (const member of members) {
    try {
      ticks += cpuTicks(member);
    } catch {
      // exited meanwhile
    }
  }
  return { ticks, members: members.join(',') };
}

/** Waits until the process and those it started used under 5 % of a core over 2 s (at most 5 minutes). */
export async function quiet(pid: number) {
  const deadline = Date.now() + 300_000;
  let before = treeTicks(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const now = treeTicks(pid);
    if (now.members === before.members && now.ticks - before.ticks < 10) return; // 100 ticks a second: 10 in 2 s is 5 %
    before = now;
  }
  throw new Error('the server did not quieten in 5 minutes');
}
