import { describe, expect, it } from 'vitest';
import { auditActionLabel } from '#contract/audit-constants';
import { auditDetailValue } from './audit-format.ts';

describe('the audit log in words and rubles (ADR 046)', () => {
  it('names an action in Russian, an unknown one as recorded', () => {
    expect(auditActionLabel('withdrawal.approve')).toBe('Вывод одобрен');
    expect(auditActionLabel('service.reject-edit')).toBe('Правка услуги отклонена');
    expect(auditActionLabel('old.action')).toBe('old.action');
  });

  it('shows sums of money in rubles, not kopecks', () => {
    expect(auditDetailValue('amount', 150_000)).toBe('1\u00a0500\u00a0руб.');
    expect(auditDetailValue('commission', 1_550)).toBe('15,50\u00a0руб.');
    expect(auditDetailValue('sellerPercent', 70)).toBe('70');
    expect(auditDetailValue('method', 'card')).toBe('Банковская карта');
    expect(auditDetailValue('fields', ['title', 'price'])).toBe('title, price');
    expect(auditDetailValue('reason', '')).toBe('—');
  });
});
