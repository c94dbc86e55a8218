// `npm start`: builds the web app when no build exists, then runs the server (TypeScript through tsx).
// Run bare, it is the one-step demo: production mode with demo data whose password is random per data
// folder (printed at the first start). An operator who sets NODE_ENV runs the app as configured: demo
// users are never seeded then, and production needs TURNSTILE_SECRET (or TURNSTILE_DISABLED=true).
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The server's environment: the operator's, plus the demo settings when NODE_ENV is not set. */
export function serverEnv(operator) {
  const env = { ...operator };
  if (!env.NODE_ENV) {
    env.NODE_ENV = 'production';
    // The server refuses demo users in production unless this marks the run as the demo.
    env.DEMO_MODE = '1';
    env.SEED_DEMO ??= '1';
    // Closed networks cannot load Cloudflare's widget: the demo uses the local stand-in unless a secret is given.
    if (!env.TURNSTILE_SECRET) env.TURNSTILE_DISABLED ??= 'true';
  }
  return env;
}

function main() {
  const root = path.resolve(import.meta.dirname, '..');
  if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
    console.log('No build found: building the web app once…');
    const build = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnv(process.env),
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
