import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { serviceUrl } from '../test/services.ts';

const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');

const limiters: [string, () => Promise<RateLimiter>][] = [['memory', async () => memoryRateLimiter()]];
if (redisUrl) limiters.push(['redis', () => redisRateLimiter(redisUrl)]);

describe.each(limiters)('%s rate limiter', (_name, make) => {
  it('allows `limit` hits per window, then refuses with the time left', async () => {
    const limiter = await make();
    const key = `test:${Math.random()}`;
    for (let i = 0; i < 3; i++) expect((await limiter.hit(key, 3, 60_000)).allowed).toBe(true);
    const refused = await limiter.hit(key, 3, 60_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(50_000);
    expect(await limiter.count(key)).toBe(4);
    await limiter.reset(key);
    expect((await limiter.hit(key, 3, 60_000)).allowed).toBe(true);
    await limiter.close();
  });

  it('opens a new window when the old one ends', async () => {
    const limiter = await make();
    const key = `test:${Math.random()}`;
    await limiter.hit(key, 1, 100);
    expect((await limiter.hit(key, 1, 100)).allowed).toBe(false);
    await new Promise((r) => setTimeout(r, 150));
    expect((await limiter.hit(key, 1, 100)).allowed).toBe(true);
    await limiter.close();
  });

  it('takes a hit back with undo, never below zero, keeping the window', async () => {
    const limiter = await make();
    const key = `test:${Math.random()}`;
    await limiter.hit(key, 2, 60_000);
    await limiter.hit(key, 2, 60_000);
    await limiter.undo(key);
    expect(await limiter.count(key)).toBe(1);
    expect((await limiter.hit(key, 2, 60_000)).allowed).toBe(true);
    expect((await limiter.hit(key, 2, 60_000)).allowed).toBe(false);
    await limiter.undo(key);
    await limiter.undo(key);
    await limiter.undo(key);
    await limiter.undo(key);
    expect(await limiter.count(key)).toBe(0);
    const unknown = `test:${Math.random()}`;
    await limiter.undo(unknown);
    expect(await limiter.count(unknown)).toBe(0);
    expect((await limiter.hit(unknown, 1, 60_000)).allowed).toBe(true);
    expect((await limiter.hit(unknown, 1, 60_000)).allowed).toBe(false);
    await limiter.close();
  });
});

describe('memory rate limiter', () => {
  it('forgets ended windows of keys that never come back', async () => {
    const limiter = memoryRateLimiter();
    for (let i = 0; i < 500; i++) await limiter.hit(`gone:${i}`, 1, 1);
    await new Promise((r) => setTimeout(r, 10));
    for (let i = 0; i < 600; i++) await limiter.hit(`kept:${i % 10}`, 1000, 60_000);
    expect(limiter.size).toBeLessThanOrEqual(10 + 100);
    await limiter.close();
  });
});
