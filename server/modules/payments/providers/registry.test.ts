import { describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { OrderPaymentPort } from '../../orders/index.ts';
import { createProviderRegistry } from './registry.ts';

/** A registry with no database behind it: choosing a provider touches none. */
function registry(sandbox: boolean) {
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
});
