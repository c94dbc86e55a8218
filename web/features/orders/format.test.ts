import { describe, expect, it } from 'vitest';
import { countdown, overdue } from './format.ts';

describe('countdown', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('tells days and hours, hours and minutes, or minutes left', () => {
    expect(countdown(at(2 * 86_400_000 + 5 * 3_600_000), now)).toBe('2\u00a0дня 5 ч');
    expect(countdown(at(86_400_000), now)).toBe('1\u00a0день 0 ч');
    expect(countdown(at(5 * 86_400_000), now)).toBe('5\u00a0дней 0 ч');
    expect(countdown(at(3 * 3_600_000 + 10 * 60_000), now)).toBe('3 ч 10 мин');
    expect(countdown(at(12 * 60_000 + 30_000), now)).toBe('12 мин');
    expect(countdown(at(10_000), now)).toBe('1 мин');
  });

  it('says when the time has passed, and nothing without a date', () => {
    expect(countdown(at(-1), now)).toBe('срок прошёл');
    expect(overdue(at(-1), now)).toBe(true);
    expect(overdue(at(60_000), now)).toBe(false);
    expect(countdown(null, now)).toBeNull();
  });
});
