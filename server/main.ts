import path from 'node:path';
import { EnvError, loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { startServer } from './server.ts';

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
