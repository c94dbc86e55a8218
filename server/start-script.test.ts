import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleStale, serverEnv } from '../scripts/start.mjs';
import { loadEnv } from './env.ts';

// `npm start` (scripts/start.mjs): the bare demo versus an operator's production.

const root = path.resolve(import.meta.dirname, '..');
const dataDir = () => mkdtempSync(path.join(tmpdir(), 'podryad-start-'));

describe('npm start', () => {
  it('run bare, is the demo: production mode, demo data, the bot-check stand-in', () => {
    const env = loadEnv(serverEnv({ DATA_DIR: dataDir() }));
    expect(env).toMatchObject({ NODE_ENV: 'production', DEMO_MODE: true, SEED_DEMO: true, TURNSTILE_DISABLED: true });
    // A Turnstile secret given to the demo is used.
    expect(loadEnv(serverEnv({ DATA_DIR: dataDir(), TURNSTILE_SECRET: 's' }))).toMatchObject({ TURNSTILE_DISABLED: false, TURNSTILE_SECRET: 's' });
  });

  it('with NODE_ENV=production from the operator, never seeds demo users', () => {
    const operator = { NODE_ENV: 'production', TURNSTILE_SECRET: 's', DATA_DIR: dataDir() };
    expect(serverEnv(operator)).toEqual(operator);
    expect(loadEnv(serverEnv(operator)).SEED_DEMO).toBe(false);
    expect(() => loadEnv(serverEnv({ ...operator, SEED_DEMO: '1' }))).toThrow(/SEED_DEMO/);
    // …and wants a bot check or an explicit choice to run without one.
    expect(() => loadEnv(serverEnv({ NODE_ENV: 'production', DATA_DIR: dataDir() }))).toThrow(/TURNSTILE_SECRET/);
  });
});

describe('the server bundle', () => {
  it('is rebuilt when missing or older than a file it is made of', () => {
    const base = dataDir();
    mkdirSync(path.join(base, 'server', 'db'), { recursive: true });
    const source = path.join(base, 'server', 'db', 'client.ts');
    const bundle = path.join(base, 'main.mjs');
    writeFileSync(source, '');
    writeFileSync(path.join(base, 'package.json'), '{}');
    expect(bundleStale(bundle, base)).toBe(true);
    writeFileSync(bundle, '');
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
    at(source, 1000);
    at(path.join(base, 'package.json'), 1000);
    at(bundle, 2000);
    expect(bundleStale(bundle, base)).toBe(false);
    // A picture beside the code is not part of the bundle.
    writeFileSync(path.join(base, 'server', 'cover.jpg'), '');
    expect(bundleStale(bundle, base)).toBe(false);
    at(source, 3000);
    expect(bundleStale(bundle, base)).toBe(true);
  });
});

describe("React Router's production build (scripts/production-builds.mjs)", () => {
  it('is what every import of React Router resolves to once the hook is registered, one copy for all importers', () => {
    const script = [
      "import { register } from 'node:module';",
      "import { pathToFileURL } from 'node:url';",
      `register('./scripts/production-builds.mjs', pathToFileURL(${JSON.stringify(root + '/')}));`,
      "const { createRequestHandler } = await import('react-router');",
      "console.log(JSON.stringify([import.meta.resolve('react-router'), import.meta.resolve('react-router/dom'), typeof createRequestHandler]));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const [main, dom, handler] = JSON.parse(run.stdout) as string[];
    expect(main).toMatch(/\/react-router\/dist\/production\/index\.mjs$/);
    expect(dom).toMatch(/\/react-router\/dist\/production\/dom-export\.mjs$/);
    expect(handler).toBe('function');
  });
});
