import { describe, expect, it } from 'vitest';
import type { Me } from '#contract/api';
import { TWO_FACTOR_SETUP_PATH, pageNotFound, requireAdmin, requireGuest, requireSignedIn } from './guards.ts';

const me = { _id: '00000000-0000-4000-8000-000000000001', roles: ['customer'] } as unknown as Me;

/** Where requireGuest sends a signed-in visitor of `url` (the Location of the redirect it throws). */
function redirectOf(url: string): string | null {
  try {
    requireGuest(me, new URL(url));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('location');
    throw thrown;
  }
  return null;
}

describe('requireGuest', () => {
  it('lets a guest stay', () => {
    expect(requireGuest(null, new URL('https://podryad.test/login?from=%2Fprofile'))).toBeUndefined();
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

const person = (roles: string[]) => ({ _id: 'u1', roles }) as unknown as Me;

/** What a guard threw: the redirect's Location, or the status of a data response. */
function thrownBy(fn: () => unknown): { location?: string | null; status?: number } | null {
  try {
    fn();
  } catch (thrown) {
    if (thrown instanceof Response) return { location: thrown.headers.get('location'), status: thrown.status };
    if (thrown && typeof thrown === 'object' && 'init' in thrown) return { status: (thrown as { init: { status: number } }).init.status };
    throw thrown;
  }
  return null;
}

describe('requireSignedIn', () => {
  it('lets a signed-in person in and gives them back', () => {
    const me = person(['customer']);
    expect(requireSignedIn(me, new URL('https://podryad.test/profile'))).toBe(me);
  });

  it.each([
    ['https://podryad.test/profile', '/login?from=%2Fprofile'],
    ['https://podryad.test/profile/orders?tab=paid&o=1', '/login?from=%2Fprofile%2Forders%3Ftab%3Dpaid%26o%3D1'],
    ['https://podryad.test/profile/items/create?kind=project#top', '/login?from=%2Fprofile%2Fitems%2Fcreate%3Fkind%3Dproject'],
  ])('sends a guest of %s to sign in and back', (url, location) => {
    expect(thrownBy(() => requireSignedIn(null, new URL(url)))).toEqual({ location, status: 302 });
  });
});

describe('requireAdmin', () => {
  it('lets an admin in', () => {
    const me = person(['customer', 'admin']);
    expect(requireAdmin(me, new URL('https://podryad.test/admin'))).toBe(me);
  });

  it('sends a guest to sign in first', () => {
    expect(thrownBy(() => requireAdmin(null, new URL('https://podryad.test/admin/users')))?.location).toBe('/login?from=%2Fadmin%2Fusers');
  });

  it('sends an admin without a second factor to set one up while the policy asks for it (ADR 054)', () => {
    const plain = { ...person(['customer', 'admin']), two_factor: false };
    expect(thrownBy(() => requireAdmin(plain, new URL('https://podryad.test/admin/users'), true))?.location).toBe(TWO_FACTOR_SETUP_PATH);
    expect(requireAdmin(plain, new URL('https://podryad.test/admin'), false)).toBe(plain);
    const guarded = { ...plain, two_factor: true };
    expect(requireAdmin(guarded, new URL('https://podryad.test/admin'), true)).toBe(guarded);
    // Someone who is no admin learns nothing of the policy: still 404.
    expect(thrownBy(() => requireAdmin({ ...person(['customer']), two_factor: false }, new URL('https://podryad.test/admin'), true))).toEqual({ status: 404 });
  });

  it.each([[['customer']], [['seller']], [['customer', 'seller']], [[]]])('answers 404 to a person with roles %j', (roles) => {
    expect(thrownBy(() => requireAdmin(person(roles), new URL('https://podryad.test/admin')))).toEqual({ status: 404 });
  });
});

describe('pageNotFound', () => {
  it('is SPEC §8’s 404 "Page Not Found"', () => {
    const answer = pageNotFound() as unknown as { data: unknown; init: { status: number; statusText: string } };
    expect(answer.data).toBe('Page Not Found');
    expect(answer.init).toMatchObject({ status: 404, statusText: 'Page Not Found' });
  });
});
