import { createClient } from 'redis';

/** Fixed-window counters: in memory on one instance, in Redis (shared) when REDIS_URL is set. */
export interface RateLimiter {
  /** Counts one hit; `allowed` is false once `limit` hits fell into the current window. */
  hit(key: string, limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
  /** The hits counted so far in the window, without counting one. */
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt <= Date.now()) windows.delete(key);
    return windows.get(key);
  };
  return {
    async hit(key, limit, windowMs) {
      const w = current(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      w.count++;
      windows.set(key, w);
      return { allowed: w.count <= limit, retryAfterMs: Math.max(0, w.resetAt - Date.now()) };
    },
    count: async (key) => current(key)?.count ?? 0,
    reset: async (key) => void windows.delete(key),
    close: async () => windows.clear(),
  };
}

export async function redisRateLimiter(url: string): Promise<RateLimiter> {
  const client = createClient({ url });
  client.on('error', () => {
    /* reconnects by itself; commands fail meanwhile */
  });
  await client.connect();
  const k = (key: string) => `podryad:rl:${key}`;
  return {
    async hit(key, limit, windowMs) {
      const [count, , ttl] = (await client
        .multi()
        .incr(k(key))
        .pExpire(k(key), windowMs, 'NX')
        .pTTL(k(key))
        .exec()) as unknown as [number, number, number];
      return { allowed: count <= limit, retryAfterMs: Math.max(0, ttl) };
    },
    count: async (key) => Number((await client.get(k(key))) ?? 0),
    reset: async (key) => void (await client.del(k(key))),
    close: async () => void (await client.quit().catch(() => {})),
  };
}
