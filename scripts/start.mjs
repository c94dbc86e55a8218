// `npm start`: builds the web app when no build exists, then runs the server (TypeScript through tsx).
// Run bare, it is the two-command demo: production mode with demo data. An operator who sets
// NODE_ENV themselves decides SEED_DEMO too (off in production unless set).
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  console.log('No build found: building the web app once…');
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const env = { ...process.env };
if (!env.NODE_ENV) {
  env.NODE_ENV = 'production';
  env.SEED_DEMO ??= '1';
}
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
