import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env.ts';
import { FastAnswers } from '../lib/fast-answers.ts';
import { createHttpApp } from './http.ts';

// The access log (issue 31): one line per request, with what an operator looks for, instead of Fastify's two.

describe('the access log', () => {
  it('is one line per request: its id, method, path, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = createHttpApp(loadEnv({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) }), logger, new FastAnswers({}), () => false);
    app.get('/ping', async () => ({ ok: true }));
    const res = await app.inject({ url: '/ping?x=1' });
    await app.inject({ url: '/missing' });
    await app.close();
    const access = lines.filter((l) => l.msg === 'request');
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    expect(access).toHaveLength(2);
    expect(access[0]).toMatchObject({ level: 30, method: 'GET', url: '/ping?x=1', status: 200, reqId: res.headers['x-request-id'] ?? expect.any(String) });
    expect(access[0]!.ms).toEqual(expect.any(Number));
    expect(access[1]).toMatchObject({ url: '/missing', status: 404 });
  });
});
