import pino, { type Logger } from 'pino';
import type { Env } from './env.ts';

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>): Logger {
  return pino({
    level: env.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password'], censor: '[hidden]' },
  });
}
