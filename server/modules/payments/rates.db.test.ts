import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/payments/rates', () => {
  it('needs a token', async () => {
    expect((await t.app.inject({ url: '/api/payments/rates' })).statusCode).toBe(401);
  });
  it('answers the keyed ways to pay with currency, fee and limits', async () => {
    const token = await t.app.services.tokens.sign(await createUser(t.database.db));
    const res = await t.app.inject({ url: '/api/payments/rates', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    const { result } = res.json();
    expect(Object.keys(result)).toEqual(['card', 'usdt', 'btc']);
    expect(result.card).toMatchObject({ currency: 'RUB', min: 50_000 });
  });
});
