import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PageRequest } from './page-request.mjs';

describe('PageRequest', () => {
  it('has the signal it was given, aborted when that is', () => {
    const controller = new AbortController();
    const request = new PageRequest('http://podryad.test/services?q=a', { method: 'GET', headers: { 'x-test': '1' } }, controller.signal);
    expect(request.signal).toBe(controller.signal);
    expect(request.signal.aborted).toBe(false);
    controller.abort();
    expect(request.signal.aborted).toBe(true);
    expect([request.url, request.method, request.headers.get('x-test')]).toEqual(['http://podryad.test/services?q=a', 'GET', '1']);
    expect(request).toBeInstanceOf(Request);
  });

  it('leaves no listener on the signal: nothing of undici follows it (ADR 086)', () => {
    const controller = new AbortController();
    new PageRequest('http://podryad.test/', { method: 'GET', headers: {} }, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // What undici's own Request does with a signal, which PageRequest avoids.
    new Request('http://podryad.test/', { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  });

  it('is what React Router derives its requests from: a copy follows the given signal', () => {
    const controller = new AbortController();
    const request = new PageRequest('http://podryad.test/', { method: 'GET', headers: {} }, controller.signal);
    const copy = new Request(request.url, { signal: request.signal });
    controller.abort();
    expect(copy.signal.aborted).toBe(true);
  });
});
