// `npm start` (or `node scripts/start.mjs`, which skips npm's own start-up): builds what is missing or stale, then
// runs the precompiled server in this very process (no child process, no tsx: ADR 018).
// Run bare, it is the one-step demo: production mode with demo data whose password is random per data
// folder (printed at the first start). An operator who sets NODE_ENV runs the app as configured: demo
// users are never seeded then, and production needs TURNSTILE_SECRET (or TURNSTILE_DISABLED=true).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const bundleFile = path.join(root, 'build', 'server-app', 'main.mjs');
// Keep in step with scripts/build-server.mjs (imported only when a rebuild is due: esbuild is a dev dependency).
const BUNDLE_SOURCES = ['server', 'contract', 'package.json', 'scripts/build-server.mjs'];
const SOURCE_FILE = /\.(?:[cm]?[jt]s|json)$/;

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

/** The newest modification time (ms) of the files the bundle is made of: a few milliseconds for the whole tree. */
export function newestSource(base = root, entries = BUNDLE_SOURCES) {
  let newest = 0;
  const visit = (file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (SOURCE_FILE.test(file)) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(path.join(base, entry));
  return newest;
}

/** Whether the server bundle is missing or older than a file it is made of. */
export function bundleStale(file = bundleFile, base = root) {
  const built = statSync(file, { throwIfNoEntry: false });
  return !built || built.mtimeMs < newestSource(base);
}

async function main() {
  if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
    console.log('No build found: building the web app once…');
    const build = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  if (bundleStale()) {
    console.log('Server bundle missing or older than the sources: building it…');
    const { buildServer } = await import('./build-server.mjs');
    await buildServer();
  }
  // Before the server's modules load: React picks its production build from NODE_ENV when first imported.
  Object.assign(process.env, serverEnv(process.env));
  // React Router's production build too, which its package does not give Node by itself (production-builds.mjs).
  if (process.env.NODE_ENV === 'production') register('./production-builds.mjs', import.meta.url);
  // The server installs its own SIGINT/SIGTERM handlers (graceful shutdown) in this process.
  await import(pathToFileURL(bundleFile).href);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
