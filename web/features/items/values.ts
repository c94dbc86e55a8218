import type { z } from 'zod';
import ru from 'zod/v4/locales/ru.js';
import {
  PACKAGE_KINDS,
  projectInputSchema,
  serviceInputSchema,
  type Project,
  type ProjectInput,
  type Service,
  type ServiceInput,
} from '#contract/catalog';
import { belowMinPrice, MIN_SERVICE_PRICE } from '#contract/catalog-constants';
import { kopecksToRubles, parseWhole, rublesToKopecks, wholeToText } from '../../lib/money.ts';

// The service and project forms keep what the person typed (strings); these functions turn it into the API's body
// (kopecks, numbers, the packages that are switched on) and check it with the contract's own schemas, so the
// messages are the server's.

export type FieldErrors = Record<string, string[]>;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

export interface PackageValues {
  enabled: boolean;
  price: string;
  days: string;
  revisions: string;
  description: string;
}

export interface ExtraValues {
  /** A stable React key for the row. */
  key: string;
  title: string;
  price: string;
  days: string;
}

export interface ServiceFormValues {
  title: string;
  description: string;
  category: string;
  sub: string;
  tags: string[];
  images: string[];
  price: string;
  days: string;
  revisions: string;
  packages: Record<PackageKind, PackageValues>;
  extras: ExtraValues[];
}

export interface ProjectFormValues {
  title: string;
  description: string;
  category: string;
  sub: string;
  budget: string;
  days: string;
  attachments: string[];
}

export const DEFAULT_REVISIONS = 2;
const NOT_RUBLES = 'Введите сумму в рублях, например 1500';
const NOT_WHOLE = 'Введите целое число';

let extraKeys = 0;
export const newExtra = (): ExtraValues => ({ key: `extra-${++extraKeys}`, title: '', price: '', days: '0' });

const emptyPackage = (): PackageValues => ({
  enabled: false,
  price: '',
  days: '',
  revisions: String(DEFAULT_REVISIONS),
  description: '',
});

export function emptyServiceValues(): ServiceFormValues {
  return {
    title: '',
    description: '',
    category: '',
    sub: '',
    tags: [],
    images: [],
    price: '',
    days: '',
    revisions: String(DEFAULT_REVISIONS),
    packages: { economy: emptyPackage(), standard: emptyPackage(), business: emptyPackage() },
    extras: [],
  };
}

/** The form's values for a stored service (category and sub-category are slugs). */
export function serviceToValues(
  s: Pick<
    Service,
    | 'title'
    | 'description'
    | 'category'
    | 'sub'
    | 'tags'
    | 'images'
    | 'price'
    | 'days'
    | 'revisions'
    | 'packages'
    | 'extras'
  >,
): ServiceFormValues {
  const values = emptyServiceValues();
  for (const p of s.packages) {
    values.packages[p.kind] = {
      enabled: true,
      price: kopecksToRubles(p.price),
      days: wholeToText(p.days),
      revisions: wholeToText(p.revisions),
      description: p.description,
    };
  }
  return {
    ...values,
    title: s.title,
    description: s.description,
    category: s.category,
    sub: s.sub ?? '',
    tags: [...s.tags],
    images: [...s.images],
    price: kopecksToRubles(s.price),
    days: wholeToText(s.days),
    revisions: wholeToText(s.revisions),
    extras: s.extras.map((e) => ({
      ...newExtra(),
      title: e.title,
      price: kopecksToRubles(e.price),
      days: wholeToText(e.days),
    })),
  };
}

export const enabledKinds = (v: Pick<ServiceFormValues, 'packages'>): PackageKind[] =>
  PACKAGE_KINDS.filter((k) => v.packages[k].enabled);

/** Reads a typed amount or number, remembering the fields whose text is not a number at all. */
function reader(typos: FieldErrors) {
  return {
    rubles(text: string, key: string) {
      const value = rublesToKopecks(text);
      if (Number.isNaN(value)) typos[key] = [NOT_RUBLES];
      return value;
    },
    whole(text: string, key: string) {
      const value = parseWhole(text);
      if (Number.isNaN(value)) typos[key] = [NOT_WHOLE];
      return value;
    },
  };
}

/** The body of POST/PUT /api/services, and the fields whose text is not a number (their own messages). */
export function serviceBody(v: ServiceFormValues, publish: boolean): { body: ServiceInput; typos: FieldErrors } {
  const typos: FieldErrors = {};
  const read = reader(typos);
  const body = {
    title: v.title.trim(),
    description: v.description.trim(),
    category: v.category,
    sub: v.sub || null,
    tags: v.tags,
    images: v.images,
    price: read.rubles(v.price, 'price'),
    days: read.whole(v.days, 'days'),
    revisions: read.whole(v.revisions, 'revisions') ?? DEFAULT_REVISIONS,
    packages: enabledKinds(v).map((kind, i) => {
      const p = v.packages[kind];
      return {
        kind,
        price: read.rubles(p.price, `packages.${i}.price`),
        days: read.whole(p.days, `packages.${i}.days`),
        revisions: read.whole(p.revisions, `packages.${i}.revisions`) ?? DEFAULT_REVISIONS,
        description: p.description.trim(),
      };
    }),
    extras: v.extras.map((e, i) => ({
      title: e.title.trim(),
      price: read.rubles(e.price, `extras.${i}.price`),
      days: read.whole(e.days, `extras.${i}.days`) ?? 0,
    })),
    publish,
  };
  // Blank required numbers stay undefined so that the schema says "Укажите цену"; the cast is what the schema checks.
  return { body: body as ServiceInput, typos };
}

export function emptyProjectValues(): ProjectFormValues {
  return { title: '', description: '', category: '', sub: '', budget: '', days: '', attachments: [] };
}

export function projectToValues(
  p: Pick<Project, 'title' | 'description' | 'category' | 'sub' | 'budget' | 'days' | 'attachments'>,
): ProjectFormValues {
  return {
    title: p.title,
    description: p.description,
    category: p.category,
    sub: p.sub ?? '',
    budget: kopecksToRubles(p.budget),
    days: wholeToText(p.days),
    attachments: [...p.attachments],
  };
}

/** The body of POST/PUT /api/projects: budget and days are optional (null when blank). */
export function projectBody(v: ProjectFormValues): { body: ProjectInput; typos: FieldErrors } {
  const typos: FieldErrors = {};
  const read = reader(typos);
  const body: ProjectInput = {
    title: v.title.trim(),
    description: v.description.trim(),
    category: v.category,
    sub: v.sub || null,
    budget: read.rubles(v.budget, 'budget') ?? null,
    days: read.whole(v.days, 'days') ?? null,
    attachments: v.attachments,
  };
  return { body, typos };
}

/** Zod issues as the server sends them: messages by dotted path ('packages.0.price'), the first one first. */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) (errors[issue.path.map(String).join('.') || '_'] ??= []).push(issue.message);
  return errors;
}

const russian = ru().localeError;

function check(schema: z.ZodType, body: unknown, typos: FieldErrors): FieldErrors {
  const result = schema.safeParse(body, { error: russian });
  const errors = result.success ? {} : issuesToErrors(result.error.issues);
  return { ...errors, ...typos };
}

/** Field errors of a service form as the server would answer them (empty when it may be sent). */
/** The schema's errors, and prices below the operator's minimum (`minPrice`, kopecks; the server checks it too). */
export function validateService(v: ServiceFormValues, publish = true, minPrice = MIN_SERVICE_PRICE): FieldErrors {
  const { body, typos } = serviceBody(v, publish);
  return { ...belowMinPrice(body, minPrice), ...check(serviceInputSchema, body, typos) };
}

export function validateProject(v: ProjectFormValues): FieldErrors {
  const { body, typos } = projectBody(v);
  return check(projectInputSchema, body, typos);
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;
