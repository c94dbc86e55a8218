import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, keptPagePolicy, widgetOriginsOf } from './security.ts';

// The pages' policy allows ЮKassa's payout widget only when it is configured (ADR 050).

describe('the payout widget in the content security policy', () => {
  const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `))!;

  it('allows the widget’s origin for its script, frame and calls when configured', () => {
    const origins = widgetOriginsOf({ script_url: 'https://yookassa.ru/payouts-data/3.1.0/widget.js' });
    expect(origins).toEqual(['https://yookassa.ru']);
    const policy = contentSecurityPolicy({ nonce: 'n' }, origins);
    for (const name of ['script-src', 'frame-src', 'connect-src']) expect(directive(policy, name)).toContain('https://yookassa.ru');
  });

  it('allows nothing more for the sandbox’s own script or without a widget', () => {
    expect(widgetOriginsOf({ script_url: '/api/payments/sandbox-payouts/widget.js' })).toEqual([]);
    expect(widgetOriginsOf(null)).toEqual([]);
    expect(contentSecurityPolicy({ nonce: 'n' })).not.toContain('yookassa');
  });
});

describe('a kept page’s policy', () => {
  it('is the policy of its hashes, made once per page, and again when the payout widget changes', () => {
    let widget: { script_url: string } | null = null;
    const policy = keptPagePolicy(() => widget);
    const page = ["'sha256-a'", "'sha256-b'"];
    const first = policy(page);
    expect(first).toBe(contentSecurityPolicy({ hashes: page }));
    expect(first).toContain("script-src 'self' 'sha256-a' 'sha256-b' https://challenges.cloudflare.com");
    // Another page with other hashes gets its own.
    expect(policy(["'sha256-c'"])).toContain("'sha256-c'");
    expect(policy(page)).toBe(first);
    widget = { script_url: 'https://yookassa.ru/payouts-data/3.1.0/widget.js' };
    expect(policy(page)).toBe(contentSecurityPolicy({ hashes: page }, ['https://yookassa.ru']));
    widget = null;
    expect(policy(page)).toBe(first);
  });
});
