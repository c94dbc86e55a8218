import { describe, expect, it } from 'vitest';
import { describeMachine, machineCosts } from './machine.ts';

describe('machineCosts', () => {
  it('measures the loop, a page fault and a system call as positive, finite figures', () => {
    const costs = machineCosts();
    for (const figure of Object.values(costs)) {
      expect(Number.isFinite(figure)).toBe(true);
      expect(figure).toBeGreaterThan(0);
    }
    // A page fault maps and zeroes 4 KiB in the kernel: never cheaper than the loop's single addition.
    expect(costs.pageFaultUs * 1000).toBeGreaterThan(costs.loopMs / 1e2);
    expect(describeMachine(costs)).toMatch(/^loop \d+ ms, page fault \d+\.\d\d µs, system call \d+\.\d\d µs$/);
  });
});
