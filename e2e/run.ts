import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BROWSERS } from './browsers.ts';

// `npm run test:e2e` builds the web app first, then runs this: checks the prerequisites and runs the
// e2e specs with vitest (vitest.e2e.config.ts), exiting with vitest's code.

const root = path.resolve(import.meta.dirname, '..');

if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  console.error('e2e: build/server/index.js is missing — run `npm run build` first (`npm run test:e2e` does it).');
  process.exit(1);
}

const missing = Object.values(BROWSERS).filter((browser) => !existsSync(browser.path));
if (missing.length) {
  const paths = missing.map((browser) => browser.path).join(' and ');
  const install = `apt-get install ${missing.map((browser) => browser.debianPackage).join(' ')}`;
  if (process.env.CI) {
    console.error(`e2e: ${paths} missing; the end-to-end tests cannot run in CI without them (${install}).`);
    process.exit(1);
  }
  console.warn(`e2e: SKIPPED — ${paths} missing (${install} to run the end-to-end tests).`);
  process.exit(0);
}

const started = Date.now();
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '-c', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
if (result.error) {
  console.error('e2e: could not start vitest:', result.error);
  process.exit(1);
}
console.log(`e2e: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.status ?? 1);
