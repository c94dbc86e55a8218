import { describe, expect, it } from 'vitest';
import { memoryRateLimiter, type RateLimiter } from '../../lib/rate-limiter.ts';
import { addressKey, SeenToday, visitorOf } from './visitors.ts';

describe('visitorOf', () => {
  it('is the user when signed in, else the address', () => {
    expect(visitorOf({ id: 'u1' }, '203.0.113.1')).toBe(visitorOf({ id: 'u1' }, '203.0.113.2'));
    expect(visitorOf(null, '203.0.113.1')).not.toBe(visitorOf(null, '203.0.113.2'));
    expect(visitorOf(null, '203.0.113.1')).not.toBe(visitorOf({ id: '203.0.113.1' }, '203.0.113.1'));
  });

  it('takes an IPv6 address by its /64, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0db8:0001:0002::abcd', '2001:DB8:1:2:0:0:0:9', '2001:db8:1:2::1%eth0']) {
      expect(addressKey(same)).toBe(key);
    }
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('SeenToday', () => {
  it('answers true once per key in memory, and again after the window', async () => {
    const seen = new SeenToday(null, undefined, 100, 30);
    expect(await seen.first('a')).toBe(true);
    expect(await seen.first('a')).toBe(false);
    expect(await seen.first('b')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await seen.first('a')).toBe(true);
  });

  it('keeps at most its cap of keys, dropping the oldest', async () => {
    const seen = new SeenToday(null, undefined, 1000);
    for (let i = 0; i < 5000; i++) await seen.first(`key${i}`);
    expect(seen.size).toBe(1000);
    expect(await seen.first('key4999')).toBe(false);
    expect(await seen.first('key0')).toBe(true);
  });

  it('uses the shared limiter when there is one, and counts nothing when it fails', async () => {
    const limiter = memoryRateLimiter();
    const one = new SeenToday(limiter);
    const other = new SeenToday(limiter);
    expect(await one.first('k')).toBe(true);
    expect(await other.first('k')).toBe(false);
    expect(one.size).toBe(0);
    const broken = { hit: async () => Promise.reject(new Error('redis down')) } as unknown as RateLimiter;
    expect(await new SeenToday(broken, { warn: () => {} }).first('k')).toBe(false);
  });
});
