import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { badRequest, decodedPath, installErrorHandler, ok } from './http.ts';

z.config(z.locales.ru());

async function appWithErrors() {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  app.post('/echo', { schema: { body: z.object({ email: z.email(), age: z.number().int().min(18) }) } }, async (req) => ok(req.body));
  app.get('/boom', async () => {
    throw new Error('secret internals');
  });
  // What drizzle throws when PostgreSQL terminated the connection under the query, and when the socket broke.
  app.get('/terminated', async () => {
    throw Object.assign(new Error('Failed query: select 1'), { cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) });
  });
  app.get('/dropped', async () => {
    throw Object.assign(new Error('Failed query: select 1'), { cause: new Error('Connection terminated unexpectedly') });
  });
  app.get('/refused', async () => {
    throw badRequest('Так нельзя', { field: ['Причина'] });
  });
  await app.ready();
  return app;
}

describe('error answers', () => {
  it('turns validation failures into a Russian 400 with field errors', async () => {
    const app = await appWithErrors();
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { email: 'nope', age: 3 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ status: 400, message: 'Проверьте правильность заполнения полей' });
    expect(Object.keys(body.errors).sort()).toEqual(['age', 'email']);
    expect(body.errors.email[0]).toMatch(/[а-я]/i);
  });

  it('answers a database that went away under the request with a Russian 503 (the client may retry)', async () => {
    const app = await appWithErrors();
    for (const url of ['/terminated', '/dropped']) {
      const res = await app.inject({ method: 'GET', url });
      expect([res.statusCode, res.json()]).toEqual([503, { status: 503, message: 'Сервис временно недоступен, повторите попытку' }]);
    }
    expect((await app.inject({ method: 'GET', url: '/boom' })).statusCode).toBe(500);
  });

  it('answers broken JSON with a Russian 400', async () => {
    const app = await appWithErrors();
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{broken' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Проверьте правильность заполнения полей');
  });

  it('passes an HttpError through as it is', async () => {
    const app = await appWithErrors();
    expect((await app.inject({ url: '/refused' })).json()).toEqual({ status: 400, message: 'Так нельзя', errors: { field: ['Причина'] } });
  });

  it('hides the internals of an unexpected error behind a Russian 500', async () => {
    const app = await appWithErrors();
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internals');
    expect(res.json().message).toMatch(/[а-я]/i);
  });

  it('answers a value PostgreSQL refuses with a 400, also when the driver wraps the error', async () => {
    const app = Fastify({ logger: false });
    installErrorHandler(app);
    app.get('/pg/:code', async (request) => {
      const { code } = request.params as { code: string };
      throw Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('invalid input syntax'), { code }) });
    });
    for (const code of ['22P02', '22P05', '22021', '22001', '22003']) {
      const res = await app.inject({ url: `/pg/${code}` });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().message).toBe('Проверьте правильность заполнения полей');
    }
    // Anything else from the database (a broken query, a lost connection) stays a 500.
    expect((await app.inject({ url: '/pg/42601' })).statusCode).toBe(500);
  });
});

describe('decodedPath', () => {
  it('is the path the router matches: decoded, without the query, a malformed escape left as it is', () => {
    expect(decodedPath('/services/design?q=%D0%BB%D0%BE#x')).toBe('/services/design');
    expect(decodedPath('/%70rofile/orders')).toBe('/profile/orders');
    expect(decodedPath('/blog/%D0%BF%D0%BE%D1%81%D1%82?page=2')).toBe('/blog/пост');
    expect(decodedPath('/broken/%E0%A4%A')).toBe('/broken/%E0%A4%A');
    expect(decodedPath('/')).toBe('/');
    expect(decodedPath('?q=1')).toBe('');
  });
});
