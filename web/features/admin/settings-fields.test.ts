import { describe, expect, it } from 'vitest';
import { SETTING_KEYS, settingsSchema, type Settings } from '#contract/settings';
import {
  describeSetting,
  DESCRIPTORS,
  editableKeys,
  fieldError,
  GROUPS,
  initialTexts,
  keysOfGroup,
  type Kind,
  settingsPatch,
  settingText,
  settingValue,
} from './settings-fields.ts';

const defaults = (): Settings => settingsSchema.parse({});
const MIB = 1024 * 1024;

describe('the descriptors', () => {
  it('describe only keys the contract has, each in a known group', () => {
    const groups = new Set<string>(GROUPS.map(([id]) => id));
    for (const [key, d] of Object.entries(DESCRIPTORS)) {
      expect(SETTING_KEYS).toContain(key);
      expect(groups.has(d!.group)).toBe(true);
      expect(d!.label.trim()).not.toBe('');
    }
  });
  it('leave no contract key without a home: described, edited elsewhere or shown under "Прочее"', () => {
    const described = new Set(Object.keys(DESCRIPTORS));
    const undescribed = editableKeys(defaults()).filter((k) => !described.has(k));
    expect(undescribed).toEqual([]);
  });
});

describe('describeSetting', () => {
  it('takes the table for a known key', () => {
    expect(describeSetting('orders.commissionBp', 1500)).toMatchObject({ group: 'money', kind: 'percentBp', unit: '%' });
    expect(describeSetting('uploads.quotaBytes', 1)).toMatchObject({ group: 'uploads', kind: 'mib' });
  });
  it.each([
    [7, 'int'],
    [0, 'int'],
    [-3, 'int'],
    [1.5, 'number'],
    ['слово', 'text'],
    ['', 'text'],
    [true, 'bool'],
    [false, 'bool'],
    [null, 'json'],
    [{ a: 1 }, 'json'],
    [[1, 2], 'json'],
  ])('an unknown key with %j is shown by its key as %s under "Прочее"', (value, kind) => {
    expect(describeSetting('future.key', value)).toEqual({ group: 'other', label: 'future.key', kind });
  });
});

describe('settingText', () => {
  it.each<[Kind, unknown, string]>([
    ['percentBp', 1500, '15'],
    ['percentBp', 350, '3.5'],
    ['percentBp', 0, '0'],
    ['rubles', 50_000, '500'],
    ['rubles', 50_050, '500,50'],
    ['mib', 1024 * MIB, '1024'],
    ['mib', MIB / 2, '0.5'],
    ['int', 30, '30'],
    ['number', 92.5, '92.5'],
    ['text', 'Подряд', 'Подряд'],
    ['json', { a: [1] }, '{"a":[1]}'],
    ['bool', true, 'true'],
    ['bool', false, 'false'],
  ])('%s %j → %j', (kind, value, text) => {
    expect(settingText(kind, value)).toBe(text);
  });
});

describe('settingValue', () => {
  it('reads a yes/no field back as a boolean (the second factor\u2019s policy, ADR 054)', () => {
    expect(settingValue('bool', 'true')).toEqual({ value: true });
    expect(settingValue('bool', 'false')).toEqual({ value: false });
    expect(describeSetting('twoFactor.admins', true)).toMatchObject({ group: 'security', kind: 'bool' });
  });
  it.each<[Kind, string, unknown]>([
    ['percentBp', '15', 1500],
    ['percentBp', '3,5', 350],
    ['percentBp', '3.55', 355],
    // Basis points are whole: a third decimal rounds.
    ['percentBp', '3.555', 356],
    ['rubles', '500', 50_000],
    ['rubles', '1 500,5', 150_050],
    ['rubles', '0', 0],
    ['mib', '1024', 1024 * MIB],
    ['mib', '0,5', MIB / 2],
    ['int', '30', 30],
    ['int', ' 30 ', 30],
    ['int', '-1', -1],
    ['number', '92,5', 92.5],
    ['text', '  с пробелами  ', '  с пробелами  '],
    ['text', '', ''],
    ['json', '[["a","b"]]', [['a', 'b']]],
    ['json', 'null', null],
  ])('%s %j → %j', (kind, text, value) => {
    expect(settingValue(kind, text)).toEqual({ value });
  });

  it.each<[Kind, string, string]>([
    ['int', '', 'Введите число'],
    ['int', '   ', 'Введите число'],
    ['int', 'abc', 'Введите число'],
    ['int', '1,5', 'Введите целое число'],
    ['rubles', '12р', 'Введите число'],
    ['percentBp', 'Infinity', 'Введите число'],
    ['number', '1e400', 'Введите число'],
    ['json', '{a:1}', 'Неверный JSON'],
    ['json', '', 'Неверный JSON'],
  ])('%s %j is refused: %s', (kind, text, error) => {
    expect(settingValue(kind, text)).toEqual({ error });
  });

  it.each<[Kind, unknown]>([
    ['percentBp', 1500],
    ['percentBp', 1],
    ['rubles', 123_456],
    ['mib', 3 * MIB],
    ['int', 0],
    ['number', 0.25],
    ['text', 'Биржа услуг'],
    ['json', { card: { fee: 1.5 } }],
  ])('%s %j survives a round trip through its field', (kind, value) => {
    expect(settingValue(kind, settingText(kind, value))).toEqual({ value });
  });
});

describe('the form over the default settings', () => {
  const settings = defaults();
  const keys = editableKeys(settings);

  it('leaves out what has an editor of its own', () => {
    expect(keys).not.toContain('payments.methods');
    expect(keys).not.toContain('search.synonyms');
    expect(keys).toContain('orders.commissionBp');
    expect(keys.length).toBe(Object.keys(settings).length - 2);
  });

  it('opens with the units people think in', () => {
    const texts = initialTexts(settings, keys);
    expect(texts['orders.commissionBp']).toBe('15');
    expect(texts['referrals.buyerBp']).toBe('3.5');
    expect(texts['withdrawals.minAmount']).toBe('500');
    expect(texts['uploads.quotaBytes']).toBe('1024');
    expect(texts['brand.name']).toBe('Подряд');
    expect(Object.keys(texts)).toEqual(keys);
  });

  it('puts each key in its group, in the settings order', () => {
    expect(keysOfGroup(settings, keys, 'money')).toEqual(['orders.commissionBp', 'referrals.buyerBp', 'referrals.sellerBp', 'referrals.months']);
    expect(keysOfGroup(settings, keys, 'brand')).toEqual(['brand.name', 'brand.description']);
    expect(keysOfGroup(settings, keys, 'other')).toEqual([]);
    const all = GROUPS.flatMap(([group]) => keysOfGroup(settings, keys, group));
    expect([...all].sort()).toEqual([...keys].sort());
  });

  it('sends nothing when nothing changed', () => {
    expect(settingsPatch(settings, keys, initialTexts(settings, keys))).toEqual({ errors: {}, patch: {} });
  });

  it('sends only the changed fields, in stored units', () => {
    const texts = { ...initialTexts(settings, keys), 'orders.commissionBp': '12,5', 'withdrawals.minAmount': '1 000', 'brand.name': 'Артель' };
    expect(settingsPatch(settings, keys, texts)).toEqual({
      errors: {},
      patch: { 'orders.commissionBp': 1250, 'withdrawals.minAmount': 100_000, 'brand.name': 'Артель' },
    });
  });

  it('does not send a value typed differently but stored the same', () => {
    const texts = { ...initialTexts(settings, keys), 'orders.commissionBp': '15,00', 'bids.perDay': ' 30 ' };
    expect(settingsPatch(settings, keys, texts).patch).toEqual({});
  });

  it('says what is wrong and keeps sending the rest out of the patch', () => {
    const texts = { ...initialTexts(settings, keys), 'bids.perDay': '2.5', 'orders.draftHours': '', 'brand.name': 'Новое' };
    const { errors, patch } = settingsPatch(settings, keys, texts);
    expect(errors).toEqual({ 'bids.perDay': ['Введите целое число'], 'orders.draftHours': ['Введите число'] });
    expect(patch).toEqual({ 'brand.name': 'Новое' });
  });

  it('reads a missing field as empty', () => {
    const texts = initialTexts(settings, keys);
    delete texts['reviews.minText'];
    expect(settingsPatch(settings, keys, texts).errors).toEqual({ 'reviews.minText': ['Введите число'] });
  });
});

describe('fieldError', () => {
  const errors = {
    'orders.commissionBp': ['Не больше 50%', 'второе'],
    'payments.methods.card.fee': ['Комиссия от 0 до 100'],
    'payments.methodsX': ['чужое'],
  };
  it.each([
    ['orders.commissionBp', 'Не больше 50%'],
    ['payments.methods', 'Комиссия от 0 до 100'],
    ['payments.methods.card', 'Комиссия от 0 до 100'],
    // A group's key takes its parts' errors: that is how a composite editor finds its own.
    ['orders', 'Не больше 50%'],
    ['orders.commission', undefined],
    ['brand.name', undefined],
  ])('%s → %j', (key, error) => {
    expect(fieldError(errors, key)).toBe(error);
  });
  it('is undefined for an empty list', () => {
    expect(fieldError({ 'brand.name': [] }, 'brand.name')).toBeUndefined();
  });
});
