import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { RatesService, parseSimplePrice } from './service.ts';
import { settings as settingsTable } from '../../platform/schema.ts';

// A local stand-in for the public crypto-price service, speaking its simple-price protocol.
let answer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };
let lastQuery = '';
const fake = http.createServer((req, res) => {
  lastQuery = req.url ?? '';
  setTimeout(() => {
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  }, answer.delayMs ?? 0);
});
let ratesUrl = '';
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  ratesUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/api/v3/simple/price?ids=bitcoin,tether&vs_currencies=rub`;
  t = await createTestApp({ RATES_URL: ratesUrl });
});
afterAll(async () => {
  await t.close();
  fake.close();
});
beforeEach(() => {
  answer = { status: 200, body: { bitcoin: { rub: 8_500_000 }, tether: { rub: 95.5 } } };
});

describe('currency rates', () => {
  it('answers RUB 1 and zeros before anything is fetched', async () => {
    const res = await t.app.inject({ url: '/api/rates' });
    expect(res.json()).toEqual({ status: 200, result: { RUB: 1, USDT: 0, BTC: 0, lastUpdated: null } });
  });

  it('fetches the simple-price call and serves rubles per unit', async () => {
    expect(await t.app.services.rates.refresh()).toBe(true);
    expect(lastQuery).toContain('ids=bitcoin,tether');
    expect(lastQuery).toContain('vs_currencies=rub');
    const { result } = (await t.app.inject({ url: '/api/rates' })).json();
    expect(result).toMatchObject({ RUB: 1, USDT: 95.5, BTC: 8_500_000 });
    expect(Date.parse(result.lastUpdated)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps rates across restarts (a new service instance reads them from the database)', async () => {
    await t.app.services.rates.refresh();
    const fresh = new RatesService(t.database.db, '', pino({ level: 'silent' }));
    expect(await fresh.get()).toMatchObject({ USDT: 95.5, BTC: 8_500_000 });
  });

  it.each([
    ['a zero rate', { status: 200, body: { bitcoin: { rub: 0 }, tether: { rub: 95 } } }],
    ['a missing rate', { status: 200, body: { bitcoin: { rub: 8_000_000 } } }],
    ['an error status', { status: 503, body: { error: 'busy' } }],
    ['a non-numeric rate', { status: 200, body: { bitcoin: { rub: '1' }, tether: { rub: 90 } } }],
  ])('ignores %s silently and keeps the held rates', async (_name, bad) => {
    await t.app.services.rates.refresh();
    answer = bad;
    expect(await t.app.services.rates.refresh()).toBe(false);
    expect((await t.app.inject({ url: '/api/rates' })).json().result).toMatchObject({ USDT: 95.5, BTC: 8_500_000 });
  });

  it('does nothing when RATES_URL is empty (closed networks)', async () => {
    const off = new RatesService(t.database.db, '', pino({ level: 'silent' }));
    expect(await off.refresh()).toBe(false);
  });
});

describe('parseSimplePrice', () => {
  it('accepts only both rates above zero', () => {
    expect(parseSimplePrice({ bitcoin: { rub: 2 }, tether: { rub: 1 } })).toEqual({ BTC: 2, USDT: 1 });
    expect(parseSimplePrice({ bitcoin: { rub: -2 }, tether: { rub: 1 } })).toBeNull();
    expect(parseSimplePrice(null)).toBeNull();
    expect(parseSimplePrice('x')).toBeNull();
  });
});

describe('fallback rates (operator settings)', () => {
  it('are used while the service has given none, and never counted as held', async () => {
    const other = await createTestApp({ RATES_URL: '' });
    try {
      const fallback = { USDT: 92, BTC: 9_000_000 };
      const rates = new RatesService(other.database.db, '', pino({ level: 'silent' }), async () => fallback);
      expect(await rates.get()).toEqual({ RUB: 1, USDT: 92, BTC: 9_000_000, lastUpdated: null });
      expect(await rates.held()).toBe(false);
      // Half a fallback is none (SPEC §5: both rates above 0).
      const half = new RatesService(other.database.db, '', pino({ level: 'silent' }), async () => ({ USDT: 92, BTC: 0 }));
      expect(await half.get()).toMatchObject({ USDT: 0, BTC: 0 });
      // Through the app: the settings an admin sets.
      await other.database.db.insert(settingsTable).values([
        { key: 'rates.fallbackUSDT', value: 90 },
        { key: 'rates.fallbackBTC', value: 8_000_000 },
      ]);
      other.app.services.settings.forget();
      expect((await other.app.inject({ url: '/api/rates' })).json().result).toMatchObject({ USDT: 90, BTC: 8_000_000, lastUpdated: null });
    } finally {
      await other.close();
    }
  });
});
