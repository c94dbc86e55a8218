/** Benchmark helpers about processes: the ones a process started, and waiting until they are all quiet (/proc). */
import { readdirSync, readFileSync } from 'node:fs';

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
