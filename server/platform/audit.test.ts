import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS } from '#contract/audit-constants';

// The audit log in words (ADR 046): every action the server writes has its Russian label. The type of audit()
// enforces it at compile time; this reads the sources, so that an action built some other way is caught too.

const serverDir = join(import.meta.dirname, '..');
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.includes('.test.') ? [path] : [];
  });
}

/** The actions written by `audit(…, { …, action: … })` calls: string literals, and templates over a decision. */
function writtenActions(): string[] {
  const found = new Set<string>();
  for (const file of sources(serverDir)) {
    const text = readFileSync(file, 'utf8');
    for (const call of text.split('await audit(').slice(1)) {
      // Every call names the action just before the target type.
      const start = call.indexOf('action:');
      const end = call.indexOf('targetType', start);
      const expr = start >= 0 && end > start ? call.slice(start + 'action:'.length, end) : '';
      expect(expr, file).not.toBe('');
      // Literals with a dot: an action is "object.verb" (a condition's own literals are not).
      for (const m of expr.matchAll(/'([^'.]+\.[^']+)'/g)) found.add(m[1]!);
      // `service.${decision}` and `service.${decision}-edit`: every moderation decision.
      const template = /`([a-z]+)\.\$\{decision\}([^`]*)`/.exec(expr);
      if (template) {
        const decisions = template[2] ? ['approve', 'reject'] : ['approve', 'reject', 'hide', 'restore'];
        for (const d of decisions) found.add(`${template[1]}.${d}${template[2]}`);
      }
    }
  }
  return [...found].sort();
}

describe('the audit log’s labels', () => {
  it('cover every action the server writes', () => {
    const actions = writtenActions();
    expect(actions.length).toBeGreaterThan(25);
    for (const action of actions) expect(AUDIT_ACTION_LABELS, action).toHaveProperty([action]);
  });
});
