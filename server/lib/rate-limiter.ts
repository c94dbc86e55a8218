import { withTimeout } from './timeout.ts';

/** Fixed-window counters: in memory on one instance, in Redis (shared) when REDIS_URL is set. */
export interface RateLimiter {
  /** Counts one hit; `allowed` is false once `limit` hits fell into the current window. */
  hit(key: string, limit: number, windowMs: number): Promise<{ allowed: boolean; retryAfterMs: number }>;
  /** The hits counted so far in the window, without counting one. */
  count(key: string): Promise<number>;
  /** Takes one hit back: an attempt counted up front (so that parallel ones cannot all slip through) went well. */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** How many hits the memory limiter takes between sweeps of ended windows. */
const SWEEP_EVERY_HITS = 1000;

export function memoryRateLimiter(): RateLimiter & { readonly size: number } {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt <= Date.now()) windows.delete(key);
    return windows.get(key);
  };
  // Keys made of user input (emails, addresses) that are never seen again would otherwise stay forever.
  let hitsSinceSweep = 0;
  const sweep = () => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  };
  return {
    async hit(key, limit, windowMs) {
      if (++hitsSinceSweep >= SWEEP_EVERY_HITS) {
        hitsSinceSweep = 0;
        sweep();
      }
      const w = current(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      w.count++;
      windows.set(key, w);
      return { allowed: w.count <= limit, retryAfterMs: Math.max(0, w.resetAt - Date.now()) };
    },
    count: async (key) => current(key)?.count ?? 0,
    async undo(key) {
      const w = current(key);
      if (w) w.count = Math.max(0, w.count - 1);
    },
    /** Keys held now (ended windows are dropped as hits go by). */
    get size() {
      return windows.size;
    },
    reset: async (key) => void windows.delete(key),
    close: async () => windows.clear(),
  };
}

/** How long a limit waits for Redis before it counts on this instance alone (issue 29: never a hang). */
export const REDIS_LIMIT_TIMEOUT_MS = 300;

/**
 * Shared counters in Redis. While Redis is unreachable (or slower than REDIS_LIMIT_TIMEOUT_MS) each call is counted
 * by this instance's own memory limiter instead: limits keep holding, per instance, and nobody waits for Redis (its
 * offline queue is off, so a command fails at once rather than waiting for a reconnect).
 */
export async function redisRateLimiter(
  url: string,
  options: { timeoutMs?: number; onDegraded?: (err: unknown) => void; /** The deployment's key prefix (ADR 061). */ prefix?: string } = {},
): Promise<RateLimiter> {
  // Loaded only when REDIS_URL is set (ADR 018).
  const { createClient } = await import('redis');
  const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000) } });
  client.on('error', () => {
    /* reconnects by itself; commands fail meanwhile and the memory limiter stands in */
  });
  await client.connect();
  const local = memoryRateLimiter();
  const timeoutMs = options.timeoutMs ?? REDIS_LIMIT_TIMEOUT_MS;
  /** Redis's answer, or this instance's when Redis fails or takes too long. */
  async function shared<T>(inRedis: () => Promise<T>, alone: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(inRedis(), timeoutMs, 'redis did not answer');
    } catch (err) {
      options.onDegraded?.(err);
      return alone();
    }
  }
  const prefix = options.prefix ?? 'podryad:';
  const k = (key: string) => `${prefix}rl:${key}`;
  return {
    hit: (key, limit, windowMs) =>
      shared(
        async () => {
          const [count, , ttl] = (await client
            .multi()
            .incr(k(key))
            .pExpire(k(key), windowMs, 'NX')
            .pTTL(k(key))
            .exec()) as unknown as [number, number, number];
          return { allowed: count <= limit, retryAfterMs: Math.max(0, ttl) };
        },
        () => local.hit(key, limit, windowMs),
      ),
    count: (key) =>
      shared(
        async () => Number((await client.get(k(key))) ?? 0),
        () => local.count(key),
      ),
    undo: (key) =>
      shared(
        async () => {
          // DECR keeps the key's expiry; on a key that already expired it makes a -1 without one, which goes.
          if ((await client.decr(k(key))) <= 0) await client.del(k(key));
        },
        () => local.undo(key),
      ),
    reset: (key) =>
      shared(
        async () => void (await client.del(k(key))),
        () => local.reset(key),
      ),
    close: async () => {
      await local.close();
      // A graceful close waits for Redis's answer; with Redis away the connection is dropped instead of waited on.
      await withTimeout(client.close(), 3_000, 'redis close').catch(() => client.destroy());
    },
  };
}
