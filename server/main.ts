import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EnvError, loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { prepareServer, startServer } from './server.ts';

/** Run with this argument, the process prepares the database (migrations, seed) and exits instead of serving. */
const PREPARE = '--prepare';

let env;
try {
  env = loadEnv();
} catch (err) {
  if (err instanceof EnvError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const logger = createLogger(env);
if (process.argv.includes(PREPARE)) {
  await prepareServer(env, logger);
  process.exit(0);
}
// The first start on an embedded database prepares it in a child process (ADR 072): the seed's garbage and the
// allocator's arenas it grows leave with that process, and this one starts as a restart does.
if (!env.DATABASE_URL && !existsSync(path.join(env.DATA_DIR, 'db'))) {
  const prepared = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, PREPARE], { stdio: 'inherit' });
  if (prepared.status !== 0) process.exit(prepared.status ?? 1);
}
const server = await startServer(env, logger);

const where = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${env.DATA_DIR}/db`;
const lines = [`${env.BRAND_NAME} is running at ${server.url.replace('0.0.0.0', 'localhost')}`, `Database: ${where}`];
if (server.demoAccounts) {
  lines.push(`Demo accounts (password shown after the email, the same for all and kept in ${path.join(env.DATA_DIR, 'demo-password')}):`);
  for (const a of server.demoAccounts) lines.push(`  ${a.role.padEnd(8)} ${a.email}  ${a.password}`);
}
logger.info(lines.join('\n'));
console.log(`\n${lines.join('\n')}\n`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
