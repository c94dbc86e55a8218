import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { passwordSchema } from '#contract/auth';
import { DEFAULT_PASSWORD } from '../factories.ts';
import { demoPassword, demoPasswordFile, newDemoPassword } from './demo.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'podryad-demo-'));

describe('demo password', () => {
  it('is generated once per data folder, kept there (owner-only) and read back on later starts', () => {
    const dir = path.join(dataDir(), 'nested');
    const first = demoPassword(dir);
    expect(readFileSync(demoPasswordFile(dir), 'utf8').trim()).toBe(first);
    expect(statSync(demoPasswordFile(dir)).mode & 0o777).toBe(0o600);
    expect(demoPassword(dir)).toBe(first);
    expect(demoPassword(dataDir())).not.toBe(first);
  });

  it('is random, meets the password rules and is never the published test password', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = newDemoPassword();
      expect(password).toMatch(/^[a-z2-9]{12}$/);
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      expect(password).not.toBe(DEFAULT_PASSWORD);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });
});
