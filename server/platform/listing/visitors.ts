import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Logger } from 'pino';
import type { RateLimiter } from '../../lib/rate-limiter.ts';

// Popularity signals (page views, searches behind suggestions) count people, not requests: one visitor adds
// at most one to a thing a day (docs/decisions/011).

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Keys remembered in memory at most (about 100 bytes each); the oldest go first beyond it. */
export const MEMORY_CAP = 100_000;

/**
 * Who counts as one visitor: a signed-in user by id, else the address, an IPv6 one by its /64 — the block a
 * subscriber usually holds whole, so one machine cannot be 2^64 visitors.
 */
export function visitorOf(user: { id: string } | null, ip: string): string {
  return user ? `user:${user.id}` : `address:${addressKey(ip)}`;
}

/** An address as a visitor: IPv4 as it is (IPv4-mapped IPv6 too), IPv6 as its first 64 bits. */
export function addressKey(ip: string): string {
  const address = ip.split('%', 1)[0]!;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  // An IPv4 address has no colon: IPv6's long expression is not run for it.
  if (!address.includes(':') || !isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * "Is this the first time today?" per key (a thing and a visitor). With several instances the answer comes
 * from the shared rate limiter (Redis: a key per pair, expiring after a day); on one instance from memory,
 * bounded by MEMORY_CAP. Keys are hashed: no address is kept as it is. When the store cannot answer, the
 * visit is not counted (a popularity signal can afford to miss one; it cannot afford to be inflated).
 */
export class SeenToday {
  private readonly memory = new Map<string, number>();

  constructor(
    private readonly shared: RateLimiter | null,
    private readonly log?: Pick<Logger, 'warn'>,
    private readonly cap = MEMORY_CAP,
    private readonly windowMs = DAY_MS,
  ) {}

  async first(key: string): Promise<boolean> {
    const digest = hash('sha256', key, 'base64url').slice(0, 22);
    if (!this.shared) return this.remember(digest);
    try {
      return (await this.shared.hit(`seen:${digest}`, 1, this.windowMs)).allowed;
    } catch (err) {
      this.log?.warn({ err }, 'visitor not checked; not counted');
      return false;
    }
  }

  private remember(digest: string): boolean {
    const now = Date.now();
    const until = this.memory.get(digest);
    if (until !== undefined && until > now) return false;
    this.memory.delete(digest);
    // Every key lives the same window, so the Map's insertion order is expiry order: drop from the front what
    // has expired, and what exceeds the cap.
    for (const [key, end] of this.memory) {
      if (end > now && this.memory.size < this.cap) break;
      this.memory.delete(key);
    }
    this.memory.set(digest, now + this.windowMs);
    return true;
  }

  /** Keys held in memory (for tests). */
  get size(): number {
    return this.memory.size;
  }
}
