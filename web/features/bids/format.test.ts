import { describe, expect, it } from 'vitest';
import { bidProjectPath, charCount } from './format.tsx';

describe('bids format', () => {
  it('counts characters as the server does: code points, trimmed', () => {
    expect(charCount('  абв  ')).toBe(3);
    expect(charCount('👍🏽 ок')).toBe(5);
  });
  it('links a bid to its project page', () => {
    expect(bidProjectPath({ project: { _id: 'p1', category: 'design', title: '', status: 'active', customer_id: 'c' } })).toBe('/projects/design/p1');
  });
});
