import { describe, expect, it } from 'vitest';
import { ROLE_LABELS, roleList } from './labels.ts';

describe('roleList', () => {
  it.each([
    [[], ''],
    [['customer'], 'Покупатель'],
    [['seller'], 'Продавец'],
    [['admin'], 'Администратор'],
    [['customer', 'seller'], 'Покупатель, Продавец'],
    [['seller', 'customer', 'admin'], 'Продавец, Покупатель, Администратор'],
    // A role this page does not know yet is shown as recorded, not dropped.
    [['customer', 'moderator'], 'Покупатель, moderator'],
  ])('%j → %j', (roles, text) => {
    expect(roleList(roles)).toBe(text);
  });

  it('labels each role of the platform in Russian', () => {
    expect(Object.keys(ROLE_LABELS).sort()).toEqual(['admin', 'customer', 'seller']);
    for (const label of Object.values(ROLE_LABELS)) expect(label).toMatch(/^[А-ЯЁ][а-яё]+$/);
  });
});
