import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { DOCUMENT_HEADERS, SECURITY_HEADERS } from '../../app/security.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('health and readiness', () => {
  it('GET /api/health says alive', async () => {
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 200, result: { alive: true } });
  });
  it('GET /api/ready checks the database', async () => {
    const res = await t.app.inject({ url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.ready).toBe(true);
  });
});

describe('every answer', () => {
  it('carries the security headers and a request id', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('gives a JSON answer a policy that allows nothing, the early answers\' one', async () => {
    for (const url of ['/api/health', '/api/nothing-here', '/api/services?limit=1']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      // Nor a header that only a document reads (ADR 090).
      for (const name of Object.keys(DOCUMENT_HEADERS)) expect(res.headers[name], `${url} ${name}`).toBeUndefined();
    }
  });

  it('gives any other answer the pages\' policy, with a script nonce of its own', async () => {
    const policy = async () => {
      const res = await t.app.inject({ url: '/api/docs', headers: { accept: 'text/html' } });
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      // With every security header, those only a document reads too (a built page's: e2e/compression.e2e.ts).
      expect(res.headers).toMatchObject({ ...SECURITY_HEADERS, ...DOCUMENT_HEADERS });
      return String(res.headers['content-security-policy']);
    };
    const [a, b] = [await policy(), await policy()];
    expect(a).toContain("default-src 'self'");
    expect(a).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' https:\/\/challenges\.cloudflare\.com/);
    expect(a).toContain("frame-ancestors 'none'");
    expect(a).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(a).not.toBe(b);
  });

  it('keeps CORS closed', async () => {
    const res = await t.app.inject({ url: '/api/categories/', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/categories/', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('errors', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: 'Не найдено' });
  });
});

describe('OpenAPI', () => {
  it('documents the routes as JSON and as a readable page', async () => {
    const json = await t.app.inject({ url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    const doc = json.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/api/cities/', '/api/categories/', '/api/countries/', '/api/categories/sub', '/api/tag', '/api/rates', '/api/route-rules']) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(doc.paths['/api/route-rules'].get.parameters[0].name).toBe('path');
    const page = await t.app.inject({ url: '/api/docs', headers: { accept: 'text/html' } });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/categories/sub');
  });
});
