import { describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS, contentSecurityPolicy, DOCUMENT_HEADERS, keptPagePolicy, SECURITY_HEADERS, widgetOriginsOf } from './security.ts';

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

describe('helmet’s headers, read once', () => {
  it('are every header helmet sets with our options, the policy left to us, those only a document reads apart', () => {
    expect(SECURITY_HEADERS).toEqual({
      'cross-origin-resource-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    expect(DOCUMENT_HEADERS).toEqual({
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    expect(API_SECURITY_HEADERS).toEqual({ ...SECURITY_HEADERS, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" });
  });
});
