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

export async function redisRateLimiter(url: string): Promise<RateLimiter> {
  // Loaded only when REDIS_URL is set (ADR 018).
  const { createClient } = await import('redis');
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
    async undo(key) {
      // DECR keeps the key's expiry; on a key that already expired it makes a -1 without one, which goes.
      if ((await client.decr(k(key))) <= 0) await client.del(k(key));
    },
    reset: async (key) => void (await client.del(k(key))),
    close: async () => void (await client.quit().catch(() => {})),
  };
}
