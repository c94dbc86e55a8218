import { describe, expect, it } from 'vitest';
import type { Service } from '#contract/catalog';
import {
  emptyProjectValues,
  emptyServiceValues,
  issuesToErrors,
  projectBody,
  projectToValues,
  serviceBody,
  serviceToValues,
  validateProject,
  validateService,
  type ServiceFormValues,
} from './values.ts';

const IMAGE = '/uploads/0b8f2c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b/0123456789abcdef0123456789abcdef.png';

function filled(): ServiceFormValues {
  const v = emptyServiceValues();
  return {
    ...v,
    title: '  Нарисую логотип для вашей компании ',
    description: 'Разработаю современный логотип: три варианта на выбор, исходники в векторе и гайд по использованию.',
    category: 'design',
    sub: 'logo',
    tags: ['логотип', 'брендинг'],
    images: [IMAGE],
    price: '1 500',
    days: '3',
    revisions: '2',
  };
}

describe('serviceBody', () => {
  it('converts rubles to kopecks and text to numbers', () => {
    const { body, typos } = serviceBody(filled(), true);
    expect(typos).toEqual({});
    expect(body).toEqual({
      title: 'Нарисую логотип для вашей компании',
      description: filled().description,
      category: 'design',
      sub: 'logo',
      tags: ['логотип', 'брендинг'],
      images: [IMAGE],
      price: 150_000,
      days: 3,
      revisions: 2,
      packages: [],
      extras: [],
      publish: true,
    });
  });

  it('sends only the packages that are switched on, in Эконом → Стандарт → Бизнес order', () => {
    const v = filled();
    v.packages.business = { enabled: true, price: '9000', days: '10', revisions: '5', description: 'Всё и сразу' };
    v.packages.economy = { enabled: true, price: '1500', days: '3', revisions: '1', description: 'Один вариант' };
    v.packages.standard = { enabled: false, price: '4000', days: '5', revisions: '2', description: 'Не включён' };
    const { body } = serviceBody(v, false);
    expect(body.packages).toEqual([
      { kind: 'economy', price: 150_000, days: 3, revisions: 1, description: 'Один вариант' },
      { kind: 'business', price: 900_000, days: 10, revisions: 5, description: 'Всё и сразу' },
    ]);
    expect(body.publish).toBe(false);
  });

  it('maps extras, a blank sub-category to null and blank revisions to the default', () => {
    const v = { ...filled(), sub: '', revisions: '' };
    v.extras = [{ key: 'x', title: 'Срочно', price: '500,50', days: '' }];
    const { body } = serviceBody(v, true);
    expect(body.sub).toBeNull();
    expect(body.revisions).toBe(2);
    expect(body.extras).toEqual([{ title: 'Срочно', price: 50_050, days: 0 }]);
  });

  it('reports text that is not a number under the field path the server uses', () => {
    const v = filled();
    v.price = 'дорого';
    v.packages.standard = { enabled: true, price: '1e3', days: 'два', revisions: '1', description: 'Пакет' };
    const { typos } = serviceBody(v, true);
    expect(Object.keys(typos).sort()).toEqual(['packages.0.days', 'packages.0.price', 'price']);
  });
});

describe('serviceToValues', () => {
  it('is the inverse of serviceBody for a stored service', () => {
    const stored = {
      title: 'Нарисую логотип для вашей компании',
      description: filled().description,
      category: 'design',
      sub: null,
      tags: ['логотип'],
      images: [IMAGE],
      price: 150_050,
      days: 3,
      revisions: 4,
      packages: [
        { kind: 'standard' as const, price: 400_000, days: 5, revisions: 2, description: 'Стандартный пакет' },
      ],
      extras: [{ title: 'Исходники', price: 100_000, days: 1 }],
    } satisfies Partial<Service>;
    const values = serviceToValues(stored);
    expect(values.price).toBe('1500,50');
    expect(values.sub).toBe('');
    expect(values.packages.standard.enabled).toBe(true);
    expect(values.packages.economy.enabled).toBe(false);
    const { body } = serviceBody(values, true);
    expect(body).toMatchObject({ ...stored, publish: true });
  });
});

describe('validateService', () => {
  it('passes a complete service', () => {
    expect(validateService(filled())).toEqual({});
  });

  it("checks the operator's minimum price, in the server's words", () => {
    const v = filled();
    v.price = '600';
    expect(validateService(v, true, 100_000).price).toEqual(['Минимальная цена — 1\u00a0000\u00a0руб.']);
    expect(validateService(v, true, 50_000).price).toBeUndefined();
    expect(validateService(v).price).toBeUndefined();
  });

  it('uses the contract messages, keyed by dotted paths', () => {
    const v = emptyServiceValues();
    v.packages.economy = { enabled: true, price: '0,5', days: '0', revisions: '2', description: '' };
    const errors = validateService(v);
    expect(errors.title?.[0]).toBe('Название — от 10 символов');
    expect(errors.category?.[0]).toBe('Выберите категорию');
    expect(errors.price?.[0]).toBe('Укажите цену');
    expect(errors.days?.[0]).toBe('Укажите срок');
    // The floor only: the operator's minimum (services.minPrice) is the server's to check.
    expect(errors['packages.0.price']?.[0]).toBe('Цена — от 1\u00a0руб.');
    expect(errors['packages.0.days']?.[0]).toBe('Срок — от 1 дня');
    expect(errors['packages.0.description']?.[0]).toBe('Опишите, что входит в пакет');
  });

  it('prefers "not a number" over "required" for text in a number field', () => {
    const v = { ...filled(), price: 'пятьсот' };
    expect(validateService(v).price).toEqual(['Введите сумму в рублях, например 1500']);
  });

  it('speaks Russian where the contract has no message of its own', () => {
    const v = filled();
    v.tags = ['a'];
    expect(validateService(v)['tags.0']?.[0]).toMatch(/[а-я]/);
  });
});

describe('projects', () => {
  it('maps an optional budget and days to null when blank', () => {
    const v = {
      ...emptyProjectValues(),
      title: 'Нужен сайт-визитка для кафе',
      description: 'Одна страница с меню, контактами и картой проезда.',
      category: 'it',
    };
    expect(projectBody(v).body).toEqual({ ...v, sub: null, budget: null, days: null, attachments: [] });
    expect(validateProject(v)).toEqual({});
  });

  it('converts the budget and round-trips a stored project', () => {
    const stored = {
      title: 'Нужен сайт-визитка для кафе',
      description: 'x'.repeat(40),
      category: 'it',
      sub: 'sites',
      budget: 2_000_000,
      days: 14,
      attachments: [IMAGE],
    };
    const values = projectToValues(stored);
    expect(values.budget).toBe('20000');
    expect(projectBody(values).body).toEqual(stored);
  });

  it('checks the budget minimum and typos', () => {
    const v = { ...emptyProjectValues(), budget: '100' };
    expect(validateProject(v).budget).toEqual(['Бюджет — от 500\u00a0руб.']);
    expect(validateProject({ ...v, budget: 'много' }).budget).toEqual(['Введите сумму в рублях, например 1500']);
  });
});

describe('issuesToErrors', () => {
  it('joins paths with dots and keeps every message', () => {
    expect(
      issuesToErrors([
        { code: 'custom', path: ['packages', 0, 'price'], message: 'a', input: undefined },
        { code: 'custom', path: ['packages', 0, 'price'], message: 'b', input: undefined },
        { code: 'custom', path: [], message: 'c', input: undefined },
      ]),
    ).toEqual({ 'packages.0.price': ['a', 'b'], _: ['c'] });
  });
});
