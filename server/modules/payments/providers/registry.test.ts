import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { OrderPaymentPort } from '../../orders/index.ts';
import { createProviderRegistry } from './registry.ts';

/** A registry with no database behind it: choosing a provider touches none. */
function registry(sandbox: boolean, more: Partial<Parameters<typeof createProviderRegistry>[0]> = {}) {
  const jobs: string[] = [];
  const platform = { dispatcher: { handle: (name: string) => jobs.push(name) } } as unknown as Platform;
  const made = createProviderRegistry({
    db: {} as Db,
    platform,
    orders: {} as OrderPaymentPort,
    clock: { now: () => new Date() },
    webhookSecret: 'a-webhook-secret-for-the-tests-0123456789',
    baseUrl: () => 'http://localhost',
    sandbox,
    ...more,
  });
  return { made, jobs };
}

describe('the payment provider registry', () => {
  it('sends card, USDT and BTC to the sandbox while it is on, and knows it by name', () => {
    const { made } = registry(true);
    for (const method of ['card', 'usdt', 'btc'] as const) expect(made.forMethod(method)?.name).toBe('sandbox');
    expect(made.byName('sandbox')).toBe(made.sandbox.provider);
    expect(made.byName('yookassa')).toBeNull();
  });

  it('has no provider for any method, nor for a webhook, while the sandbox is off', () => {
    const { made } = registry(false);
    for (const method of ['card', 'usdt', 'btc'] as const) expect(made.forMethod(method)).toBeNull();
    expect(made.byName('sandbox')).toBeNull();
  });

  it("handles the sandbox's webhook job either way: a job queued before a restart is still delivered", () => {
    expect(registry(true).jobs).toEqual(['payments.sandboxWebhook']);
    expect(registry(false).jobs).toEqual(['payments.sandboxWebhook']);
  });

  const yookassa = { shopId: '100500', secretKey: 'test_secret', apiUrl: 'http://127.0.0.1:1/v3', webhookIps: ['127.0.0.1'] };

  it('sends cards to ЮKassa once its shop is configured, the rest to the sandbox while it is on', () => {
    const { made } = registry(true, { yookassa });
    expect(made.forMethod('card')?.name).toBe('yookassa');
    expect(made.forMethod('usdt')?.name).toBe('sandbox');
    expect(made.describe()).toBe('card → yookassa, usdt → sandbox, btc → sandbox');
  });

  it('in production (no sandbox) offers only what a configured provider serves', () => {
    expect(registry(false, { yookassa }).made.describe()).toBe('card → yookassa, usdt → none, btc → none');
    expect(registry(false).made.describe()).toBe('card → none, usdt → none, btc → none');
  });

  it("follows the operator's choice per method, and refuses a choice no configured provider can serve", () => {
    expect(registry(true, { yookassa, methods: { card: 'sandbox', btc: 'none' } }).made.describe()).toBe('card → sandbox, usdt → sandbox, btc → none');
    // A provider no method uses still reads its webhooks: payments made before the change settle.
    expect(registry(true, { yookassa, methods: { card: 'sandbox' } }).made.byName('yookassa')?.name).toBe('yookassa');
    expect(() => registry(false, { methods: { card: 'yookassa' } })).toThrow('PAYMENTS_CARD=yookassa: that provider is not configured');
    expect(() => registry(true, { yookassa, methods: { btc: 'yookassa' } })).toThrow('PAYMENTS_BTC=yookassa: yookassa does not take btc');
  });
});
