import { failureKey, type Failure } from './run.ts';

// The failures of a fuzz run, grouped by endpoint × input class × kind, with one example each.

export interface FailureGroup {
  key: string;
  count: number;
  statuses: number[];
  actors: string[];
  /** Distinct positions that failed (first few). */
  wheres: string[];
  example: Failure;
}

export function groupFailures(failures: Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const f of failures) {
    const key = failureKey(f);
    let g = groups.get(key);
    if (!g) {
      g = { key, count: 0, statuses: [], actors: [], wheres: [], example: f };
      groups.set(key, g);
    }
    g.count++;
    if (!g.statuses.includes(f.status)) g.statuses.push(f.status);
    if (!g.actors.includes(f.actor)) g.actors.push(f.actor);
    if (!g.wheres.includes(f.where)) g.wheres.push(f.where);
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

const cell = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

/**
 * A compact table: one line per group, where it failed, the hostile value of one example and the request that
 * reproduces it (FUZZ_ONLY="<method> <path>" reruns that operation alone).
 */
export function failureTable(groups: FailureGroup[], known: Record<string, string>): string {
  const lines = [
    `${cell('method path', 44)} ${cell('input class', 15)} ${cell('kind', 12)} ${cell('status', 7)} ${cell('n', 4)} ${cell('actors', 20)} message / known as`,
  ];
  for (const g of groups) {
    const [method, path] = [g.example.method, g.example.path];
    const note = known[g.key] ? `KNOWN: ${known[g.key]}` : 'NEW';
    lines.push(
      `${cell(`${method} ${path}`, 44)} ${cell(g.example.cls, 15)} ${cell(g.example.kind, 12)} ${cell(g.statuses.join(','), 7)} ${cell(String(g.count), 4)} ${cell(g.actors.join(','), 20)} ${g.example.message} [${note}]`,
      `    at ${g.wheres.slice(0, 4).join('; ')}${g.wheres.length > 4 ? ` (+${g.wheres.length - 4})` : ''}${g.example.changed ? `; changed: ${g.example.changed}` : ''}`,
      `    e.g. ${g.example.where} = ${g.example.value}`,
      `         (${g.example.actor}) ${g.example.repro}`,
    );
  }
  return lines.join('\n');
}
