import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', RATES_URL: '', DATABASE_URL: '', REDIS_URL: '', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('server/main.ts', () => {
  // A child Node with tsx: its start alone can pass the unit default of 5 s on a loaded 2-core machine.
  it('stops with one list of every bad variable', { timeout: 60_000 }, async () => {
    const { exited, output } = run({ PORT: 'x', JWT_SECRET: 'short' });
    expect(await exited).toBe(1);
    expect(output()).toContain('Invalid environment');
    expect(output()).toContain('PORT');
    expect(output()).toContain('JWT_SECRET');
  });

  it('prints the URL and the demo accounts, serves, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-main-'));
    const { child, exited, output } = run({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1' });
    const deadline = Date.now() + 60_000;
    while (!/running at (http:\/\/\S+)/.test(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const url = output().match(/running at (http:\/\/\S+)/)![1]!;
    expect(output()).toContain('seller@example.com');
    // The data folder's own password, not a published one.
    const password = readFileSync(path.join(dataDir, 'demo-password'), 'utf8').trim();
    expect(output()).toContain(`admin@example.com  ${password}`);
    expect(output()).not.toContain('demo12345');
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});
