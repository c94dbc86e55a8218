import { describe, expect, it } from 'vitest';
import { createPublicOrigin, requestOrigin } from './public-origin.ts';

const req = (host: string, protocol: 'http' | 'https' = 'http') => ({ host, protocol });

describe('requestOrigin', () => {
  it('is the origin the request was addressed to', () => {
    expect(requestOrigin(req('Podryad.Example:8080', 'https'))).toBe('https://podryad.example:8080');
    expect(requestOrigin(req('podryad.example:80'))).toBe('http://podryad.example');
    expect(requestOrigin(req('[::1]:3000'))).toBe('http://[::1]:3000');
  });

  it('refuses a Host that is not a host', () => {
    for (const host of ['evil.example/path', 'a@evil.example', 'evil.example?x', 'a b', '', 'x'.repeat(300)]) {
      expect(requestOrigin(req(host)), host).toBeNull();
    }
  });
});

describe('createPublicOrigin', () => {
  const fallback = () => 'http://localhost:3000';

  it('is PUBLIC_URL whenever it is set', () => {
    const origin = createPublicOrigin({ publicUrl: 'https://podryad.example', production: true, fallback });
    origin.observe(req('evil.example'));
    expect(origin.of(req('evil.example'))).toBe('https://podryad.example');
    expect(origin.site()).toBe('https://podryad.example');
  });

  it('in production, is the first origin seen, for answers and letters alike', () => {
    const learnt: string[] = [];
    const origin = createPublicOrigin({ publicUrl: undefined, production: true, fallback, onLearnt: (o) => learnt.push(o) });
    expect(origin.site()).toBe('http://localhost:3000');
    origin.observe(req('evil/x'));
    origin.observe(req('podryad.example', 'https'));
    origin.observe(req('evil.example'));
    expect(origin.of(req('evil.example'))).toBe('https://podryad.example');
    expect(origin.site()).toBe('https://podryad.example');
    expect(learnt).toEqual(['https://podryad.example']);
  });

  it('elsewhere, follows the request (a development machine is reached by many names)', () => {
    const origin = createPublicOrigin({ publicUrl: undefined, production: false, fallback });
    expect(origin.site()).toBe('http://localhost:3000');
    origin.observe(req('localhost:3000'));
    expect(origin.of(req('192.168.1.5:3000'))).toBe('http://192.168.1.5:3000');
    expect(origin.of(req('bad/host'))).toBe('http://localhost:3000');
    // Letters (issue 15) link to the address the developer used last, not to the one the server listens on.
    origin.observe(req('192.168.1.5:3000'));
    expect(origin.site()).toBe('http://192.168.1.5:3000');
    origin.observe(req('bad/host'));
    expect(origin.site()).toBe('http://192.168.1.5:3000');
  });
});
