import { describe, expect, it } from 'vitest';
import { pageCacheControl } from './web-handler.ts';

describe('pageCacheControl', () => {
  it('keeps every page rendered for a signed-in user out of caches', () => {
    expect(pageCacheControl('/', true)).toBe('private, no-store');
    expect(pageCacheControl('/services/design/1', true)).toBe('private, no-store');
  });

  it('keeps the profile and admin areas, pages and data requests, out of caches for anyone', () => {
    for (const path of ['/profile', '/profile/items', '/profile.data', '/profile/items.data', '/admin', '/admin/users/1']) {
      expect(pageCacheControl(path, false), path).toBe('private, no-store');
    }
  });

  it('leaves public pages for guests to React Router', () => {
    for (const path of ['/', '/services', '/projects/design/1', '/_root.data', '/profiles', '/administration']) {
      expect(pageCacheControl(path, false), path).toBeNull();
    }
  });
});
