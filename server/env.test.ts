import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv, DEFAULT_RATES_URL } from './env.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'podryad-env-'));

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    const env = loadEnv({ DATA_DIR: dataDir() });
    expect(env.PORT).toBe(3000);
    expect(env.BRAND_NAME).toBe('Подряд');
    expect(env.SEED_DEMO).toBe(true);
    expect(env.PUBLIC_DEV).toBe(false);
    expect(env.RATES_URL).toBe(DEFAULT_RATES_URL);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('turns demo data off by default in production', () => {
    expect(loadEnv({ NODE_ENV: 'production', TURNSTILE_SECRET: 's', DATA_DIR: dataDir() }).SEED_DEMO).toBe(false);
  });

  it('never seeds demo users when the operator set NODE_ENV=production, only in the demo `npm start` runs', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', SEED_DEMO: '1', TURNSTILE_SECRET: 's', DATA_DIR: dataDir() })).toThrow(
      /SEED_DEMO: demo users are never seeded with NODE_ENV=production/,
    );
    const demo = loadEnv({ NODE_ENV: 'production', SEED_DEMO: '1', DEMO_MODE: '1', TURNSTILE_DISABLED: 'true', DATA_DIR: dataDir() });
    expect(demo.SEED_DEMO).toBe(true);
    expect(demo.DEMO_MODE).toBe(true);
  });

  it('refuses production without TURNSTILE_SECRET unless TURNSTILE_DISABLED=true, listed with the other problems', () => {
    let error: unknown;
    try {
      loadEnv({ NODE_ENV: 'production', PORT: 'abc', DATA_DIR: dataDir() });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).problems).toEqual([expect.stringMatching(/^PORT: /), expect.stringMatching(/^TURNSTILE_SECRET: required with NODE_ENV=production/)]);
    expect(() => loadEnv({ NODE_ENV: 'production', TURNSTILE_DISABLED: 'false', DATA_DIR: dataDir() })).toThrow(/TURNSTILE_SECRET/);
    expect(loadEnv({ NODE_ENV: 'production', TURNSTILE_SECRET: 'the-secret', DATA_DIR: dataDir() }).TURNSTILE_DISABLED).toBe(false);
    expect(loadEnv({ NODE_ENV: 'production', TURNSTILE_DISABLED: 'true', DATA_DIR: dataDir() }).TURNSTILE_DISABLED).toBe(true);
    // Outside production the stand-in keeps working without configuration.
    expect(loadEnv({ DATA_DIR: dataDir() }).TURNSTILE_SECRET).toBeUndefined();
  });

  it('generates JWT_SECRET once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).JWT_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).JWT_SECRET).toBe(first);
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadEnv({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'http://x',
        JWT_SECRET: 'short',
        ADMIN_EMAIL: 'not-an-email',
        SEED_DEMO: 'maybe',
        RATES_URL: 'ftp://x',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'ADMIN_EMAIL', 'SEED_DEMO', 'RATES_URL']) {
      expect(problems).toContain(name);
    }
  });

  it('takes REDIS_PREFIX and INSTANCE_ID as printable names without spaces (ADR 061)', () => {
    const env = loadEnv({ REDIS_PREFIX: 'shop-a:', INSTANCE_ID: 'web-1', DATA_DIR: dataDir() });
    expect([env.REDIS_PREFIX, env.INSTANCE_ID]).toEqual(['shop-a:', 'web-1']);
    expect(loadEnv({ REDIS_PREFIX: '', DATA_DIR: dataDir() }).REDIS_PREFIX).toBeUndefined();
    expect(() => loadEnv({ REDIS_PREFIX: 'shop a', DATA_DIR: dataDir() })).toThrow(/REDIS_PREFIX/);
    expect(() => loadEnv({ INSTANCE_ID: 'x'.repeat(201), DATA_DIR: dataDir() })).toThrow(/INSTANCE_ID/);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadEnv({ ADMIN_EMAIL: 'a@b.ru', DATA_DIR: dataDir() })).toThrow(/ADMIN_PASSWORD/);
  });

  it('accepts an empty RATES_URL to switch the refresh off', () => {
    expect(loadEnv({ RATES_URL: '', DATA_DIR: dataDir() }).RATES_URL).toBe('');
  });

  it('takes TRUST_PROXY as the proxies\' addresses and CIDRs', () => {
    const trust = (v: string) => loadEnv({ TRUST_PROXY: v, DATA_DIR: dataDir() }).TRUST_PROXY;
    expect(loadEnv({ DATA_DIR: dataDir() }).TRUST_PROXY).toBe(false);
    for (const off of ['', '0', 'false', 'off']) expect(trust(off)).toBe(false);
    expect(trust('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trust(' 10.0.0.0/8, ::1 ,fd00::/8,loopback ')).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses a TRUST_PROXY that would let any client choose its address', () => {
    for (const bad of ['1', 'true', 'yes', '2']) {
      expect(() => loadEnv({ TRUST_PROXY: bad, DATA_DIR: dataDir() }), bad).toThrow(/TRUST_PROXY: .*would trust any client.*TRUST_PROXY=127\.0\.0\.1/);
    }
    for (const bad of ['nginx', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', '10.0.0.0/x']) {
      expect(() => loadEnv({ TRUST_PROXY: bad, DATA_DIR: dataDir() }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('keeps PUBLIC_URL as an origin', () => {
    expect(loadEnv({ PUBLIC_URL: 'https://Podryad.example/', DATA_DIR: dataDir() }).PUBLIC_URL).toBe('https://podryad.example');
    expect(() => loadEnv({ PUBLIC_URL: 'https://', DATA_DIR: dataDir() })).toThrow(/PUBLIC_URL/);
  });
});

describe('PAYMENTS_SANDBOX', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'podryad-env-'));
  const base = { JWT_SECRET: 'x'.repeat(40), TURNSTILE_DISABLED: 'true' };
  it('is on in development, tests and the demo; off in a production that did not choose it', () => {
    expect(loadEnv({ ...base, DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(true);
    expect(loadEnv({ ...base, NODE_ENV: 'test', DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(true);
    expect(loadEnv({ ...base, NODE_ENV: 'production', DEMO_MODE: '1', DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(true);
    expect(loadEnv({ ...base, NODE_ENV: 'production', SEED_DEMO: '0', DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(false);
    expect(loadEnv({ ...base, NODE_ENV: 'production', SEED_DEMO: '0', PAYMENTS_SANDBOX: 'true', DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(true);
    expect(loadEnv({ ...base, NODE_ENV: 'development', PAYMENTS_SANDBOX: '0', DATA_DIR: dir() }).PAYMENTS_SANDBOX).toBe(false);
  });
});

describe('the payment providers’ settings (ADR 048)', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'podryad-env-'));
  const base = { JWT_SECRET: 'x'.repeat(40), TURNSTILE_DISABLED: 'true' };
  const shop = { YOOKASSA_SHOP_ID: '100500', YOOKASSA_SECRET_KEY: 'live_secret' };

  it('take ЮKassa’s API and its published networks by default, and a list of networks of one’s own', () => {
    const env = loadEnv({ ...base, ...shop, DATA_DIR: dir() });
    expect(env.YOOKASSA_API_URL).toBe('https://api.yookassa.ru/v3');
    expect(env.YOOKASSA_WEBHOOK_IPS).toContain('185.71.76.0/27');
    expect(loadEnv({ ...base, ...shop, YOOKASSA_WEBHOOK_IPS: '10.0.0.0/8, ::1', DATA_DIR: dir() }).YOOKASSA_WEBHOOK_IPS).toEqual(['10.0.0.0/8', '::1']);
    expect(() => loadEnv({ ...base, ...shop, YOOKASSA_WEBHOOK_IPS: '10.0.0.0/33', DATA_DIR: dir() })).toThrow(/YOOKASSA_WEBHOOK_IPS/);
    expect(() => loadEnv({ ...base, ...shop, YOOKASSA_WEBHOOK_IPS: 'example.org', DATA_DIR: dir() })).toThrow(/YOOKASSA_WEBHOOK_IPS/);
  });

  it('want a shop’s id with its key, a BTCPay store whole, and a provider per method from the known ones', () => {
    expect(() => loadEnv({ ...base, YOOKASSA_SHOP_ID: '100500', DATA_DIR: dir() })).toThrow(/YOOKASSA_SECRET_KEY/);
    expect(() => loadEnv({ ...base, BTCPAY_URL: 'https://pay.example.org', DATA_DIR: dir() })).toThrow(/BTCPAY_URL/);
    expect(() => loadEnv({ ...base, PAYMENTS_CARD: 'stripe', DATA_DIR: dir() })).toThrow(/PAYMENTS_CARD/);
  });

  it('want PUBLIC_URL in production with a provider: a payment asked for again must be the same request', () => {
    const production = { ...base, ...shop, NODE_ENV: 'production', SEED_DEMO: '0' };
    expect(() => loadEnv({ ...production, DATA_DIR: dir() })).toThrow(/PUBLIC_URL/);
    expect(loadEnv({ ...production, PUBLIC_URL: 'https://podryad.example', DATA_DIR: dir() }).PUBLIC_URL).toBe('https://podryad.example');
  });
});

describe('the files’ bucket (ADR 060)', () => {
  const base = { JWT_SECRET: 'x'.repeat(40) };
  const dir = () => mkdtempSync(path.join(tmpdir(), 'podryad-env-'));

  it('keeps files in the data folder unless S3_BUCKET is set, and reads the bucket’s settings', () => {
    const local = loadEnv({ ...base, DATA_DIR: dir() });
    expect(local.S3_BUCKET).toBeUndefined();
    expect(local.S3_FORCE_PATH_STYLE).toBe(false);
    const bucket = loadEnv({
      ...base,
      DATA_DIR: dir(),
      S3_BUCKET: 'podryad-files',
      S3_ENDPOINT: 'https://storage.yandexcloud.net',
      S3_REGION: 'ru-central1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(bucket).toMatchObject({ S3_BUCKET: 'podryad-files', S3_REGION: 'ru-central1', S3_FORCE_PATH_STYLE: true });
    expect(loadEnv({ ...base, DATA_DIR: dir(), S3_BUCKET: 'b' }).S3_REGION).toBe('us-east-1');
  });

  it('wants the key id with its secret, a bucket with an endpoint or key, and an http(s) endpoint', () => {
    expect(() => loadEnv({ ...base, DATA_DIR: dir(), S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadEnv({ ...base, DATA_DIR: dir(), S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET/);
    expect(() => loadEnv({ ...base, DATA_DIR: dir(), S3_BUCKET: 'b', S3_ENDPOINT: 'storage.example' })).toThrow(/S3_ENDPOINT/);
  });
});
