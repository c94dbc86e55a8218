import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { normalisePath } from './service.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/route-rules', () => {
  it('answers no redirect for a path without a rule', async () => {
    const res = await t.app.inject({ url: '/api/route-rules?path=/faq' });
    expect(res.json()).toEqual({ status: 200, result: { redirect: null, block: false } });
  });

  it('answers relative and absolute redirects from the table', async () => {
    await t.app.services.routeRules.set('/old', '/services/design');
    await t.app.services.routeRules.set('/partners/', 'https://example.org/partners');
    expect((await t.app.inject({ url: '/api/route-rules?path=/old' })).json().result).toEqual({ redirect: '/services/design', block: false });
    expect((await t.app.inject({ url: '/api/route-rules?path=/partners?x=1' })).json().result).toEqual({
      redirect: 'https://example.org/partners',
      block: false,
    });
    await t.app.services.routeRules.removePath('/old');
    expect((await t.app.inject({ url: '/api/route-rules?path=/old' })).json().result).toEqual({ redirect: null, block: false });
  });

  it.each(['', 'relative', 'x'.repeat(3000)])('refuses path=%j with a Russian 400', async (path) => {
    const res = await t.app.inject({ url: `/api/route-rules?path=${encodeURIComponent(path)}` });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.status).toBe(400);
    expect(body.message).toBe('Проверьте правильность заполнения полей');
    expect(body.errors.path[0]).toMatch(/[а-я]/i);
  });

  it('refuses a missing path', async () => {
    expect((await t.app.inject({ url: '/api/route-rules' })).statusCode).toBe(400);
  });
});

describe('normalisePath', () => {
  it('drops query, hash and trailing slashes', () => {
    expect(normalisePath('/a/b/?x=1#y')).toBe('/a/b');
    expect(normalisePath('/')).toBe('/');
  });
});
