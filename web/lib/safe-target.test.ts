import { describe, expect, it } from 'vitest';
import { safeTarget } from './safe-target.ts';

const ORIGIN = 'https://podryad.test';

describe('safeTarget', () => {
  it.each([
    ['/profile/orders', '/profile/orders'],
    ['/services?q=логотип&sort=new#top', `/services?q=${encodeURIComponent('логотип')}&sort=new#top`],
    ['/help', '/help'],
    ['profile', '/profile'],
    [`${ORIGIN}/profile`, '/profile'],
    ['/a/../profile', '/profile'],
  ])('keeps a path of our own: %j → %j', (from, expected) => {
    expect(safeTarget(from, ORIGIN)).toBe(expected);
  });

  it.each([
    '/\\evil.example',
    decodeURIComponent('/%5Cevil.example'),
    '\\\\evil.example',
    '//evil.example',
    '///evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '\t//evil.example',
    'https://evil.example',
    'http://podryad.test/profile',
    'https://podryad.test.evil.example/',
    'https://podryad.test@evil.example/',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://[::1',
  ])('sends %j home instead of elsewhere', (from) => {
    expect(safeTarget(from, ORIGIN)).toBe('/');
  });

  it.each([
    ['/..//evil.example', '/evil.example'],
    ['/.//evil.example', '/evil.example'],
    ['/a/..//evil.example/x', '/evil.example/x'],
    ['\t/evil', '/evil'],
    ['https:evil.example', '/evil.example'],
    ['/ /evil', '/%20/evil'],
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/%5Cevil.example', '/%5Cevil.example'],
  ])('turns %j into the path %j of our own origin, never a protocol-relative one', (from, expected) => {
    const target = safeTarget(from, ORIGIN);
    expect(target).toBe(expected);
    expect(target).toMatch(/^\/(?![/\\])/);
    expect(new URL(target, ORIGIN).origin).toBe(ORIGIN);
  });

  it('sends an empty or missing value home', () => {
    for (const from of ['', null, undefined]) expect(safeTarget(from, ORIGIN)).toBe('/');
  });
});
