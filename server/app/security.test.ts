import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, widgetOriginsOf } from './security.ts';

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
