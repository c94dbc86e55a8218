import { describe, expect, it } from 'vitest';
import type { Me } from '#contract/api';
import { requireGuest } from './guards.ts';

const me = { _id: '00000000-0000-4000-8000-000000000001', roles: ['customer'] } as unknown as Me;

/** Where requireGuest sends a signed-in visitor of `url` (the Location of the redirect it throws). */
function redirectOf(url: string): string | null {
  try {
    requireGuest(me, new Request(url));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('location');
    throw thrown;
  }
  return null;
}

describe('requireGuest', () => {
  it('lets a guest stay', () => {
    expect(requireGuest(null, new Request('https://podryad.test/login?from=%2Fprofile'))).toBeUndefined();
  });

  it('sends a signed-in visitor to ?from= when it is a path of our own', () => {
    expect(redirectOf('https://podryad.test/login?from=%2Fprofile%2Forders%3Ftab%3D2')).toBe('/profile/orders?tab=2');
    expect(redirectOf('https://podryad.test/reg')).toBe('/');
  });

  it.each([
    '/%5Cevil.example',
    '%2F%5Cevil.example',
    '%2F%2Fevil.example',
    '/%09/evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    '%2F..%2F%2Fevil.example',
  ])('never sends a signed-in visitor of /login?from=%s to another host', (from) => {
    const location = redirectOf(`https://podryad.test/login?from=${from}`)!;
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, 'https://podryad.test').origin).toBe('https://podryad.test');
  });
});
