import { LOCALE } from '#contract/constants';
import { plural, pluralWithCount } from '../../lib/dates.ts';
import type { ListingKind } from './filters.ts';

// Russian counts of the catalogue (Intl.PluralRules through lib/dates.ts): 1 услуга, 2 услуги, 5 услуг.

type Forms = readonly [one: string, few: string, many: string];

export const FORMS = {
  services: ['услуга', 'услуги', 'услуг'],
  projects: ['проект', 'проекта', 'проектов'],
  freelancers: ['фрилансер', 'фрилансера', 'фрилансеров'],
  days: ['день', 'дня', 'дней'],
  revisions: ['правка', 'правки', 'правок'],
  reviews: ['отзыв', 'отзыва', 'отзывов'],
  bids: ['отклик', 'отклика', 'откликов'],
  orders: ['заказ', 'заказа', 'заказов'],
  views: ['просмотр', 'просмотра', 'просмотров'],
} as const satisfies Record<string, Forms>;

export const count = (n: number, forms: Forms) => pluralWithCount(n, ...forms);

/** "1 заказ выполнен", "3 заказа выполнено", "5 заказов выполнено": the participle agrees with the count too. */
export const ordersDoneText = (n: number) =>
  `${count(n, FORMS.orders)} ${plural(n, 'выполнен', 'выполнено', 'выполнено')}`;

/**
 * A listing's total as people say it: "1 услуга", "5 услуг", or for the server's estimate of a big set
 * (`exact` false) "около 72 000 услуг" (после "около" — родительный падеж множественного числа).
 */
export function totalText(kind: ListingKind, total: number, exact = true): string {
  return exact ? count(total, FORMS[kind]) : `около ${total.toLocaleString(LOCALE)}\u00a0${FORMS[kind][2]}`;
}

/** "Найдено 1 услуга", "Найдено 2 услуги", "Найдено 5 услуг", "Найдено около 72 000 услуг". */
export const foundText = (kind: ListingKind, total: number, exact = true) => `Найдено ${totalText(kind, total, exact)}`;

// Made once: toLocaleString with options builds a formatter on every call (4 % of a rendered home page's CPU).
const ratingFormat = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Rating as people write it: "4,9". */
export const formatRating = (rating: number) => ratingFormat.format(rating);

/** "4,9 (12 отзывов)" or "Нет отзывов". */
export function ratingText(rating: number, reviews: number): string {
  return reviews > 0 ? `${formatRating(rating)} (${count(reviews, FORMS.reviews)})` : 'Нет отзывов';
}

/** "3 дня", "1 день". */
export const daysText = (days: number) => count(days, FORMS.days);

/** "без правок" for 0, else "2 правки". */
export const revisionsText = (n: number) => (n > 0 ? count(n, FORMS.revisions) : 'без правок');

/** An uploaded file's label: "Файл 1 · PDF" (stored names are random). */
export function attachmentLabel(path: string, index: number): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(path)?.[1];
  return `Файл ${index + 1}${ext ? ` · ${ext.toUpperCase()}` : ''}`;
}
