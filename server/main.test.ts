import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onGlibc } from './lib/idle-memory.ts';

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

  it('prints the URL and the demo accounts, serves, and shuts down cleanly on SIGTERM; a restart names them again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-main-'));
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: '1' };
    const first = run(env);
    const url = await runningAt(first.output);
    expect(first.output()).toContain('seller@example.com');
    // The data folder's own password, not a published one.
    const password = readFileSync(path.join(dataDir, 'demo-password'), 'utf8').trim();
    expect(first.output()).toContain(`admin@example.com  ${password}`);
    expect(first.output()).not.toContain('demo12345');
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    // ADR 072: the first start seeded the embedded database in a process of its own, and the demo pictures' variants
    // are made by sharp in another: the process that serves never loads libvips.
    const variantMade = () => readdirSync(path.join(dataDir, 'uploads'), { recursive: true }).some((f) => String(f).endsWith('.webp'));
    for (const deadline = Date.now() + 60_000; !variantMade() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    expect(variantMade()).toBe(true);
    if (existsSync('/proc/self/maps')) expect(readFileSync(`/proc/${first.child.pid}/maps`, 'utf8')).not.toContain('libvips');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const again = run({ ...env, LOG_LEVEL: 'debug' });
    await runningAt(again.output);
    expect(again.output()).toContain(`seller@example.com  ${password}`);
    // ADR 073: once the start's work is over, the process gives memory back (glibc's malloc_trim, Linux only).
    if (onGlibc()) {
      const released = () => again.output().includes('memory given back while idle');
      for (const deadline = Date.now() + 60_000; !released() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 500));
      expect(released()).toBe(true);
    }
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 210_000);
});

/** The URL a started server prints, once it does (within 60 s). */
async function runningAt(output: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (!/running at (http:\/\/\S+)/.test(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  return output().match(/running at (http:\/\/\S+)/)![1]!;
}
