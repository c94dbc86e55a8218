import pino, { type Logger } from 'pino';
import type { Env } from './env.ts';

/** The process's logger: JSON lines on stdout, or appended to the file at `file` (the benchmarks keep theirs apart). */
export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, file?: string): Logger {
  const options = {
    level: env.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password'], censor: '[hidden]' },
  };
  // The file is written as pino writes stdout: asynchronously, nothing held back but what waits for a write in flight.
  return file ? pino(options, pino.destination(file)) : pino(options);
}
