import { LOCALE } from '#contract/constants';
import { pluralWithCount } from '../../lib/dates.ts';
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

/** The listing API counts exactly up to this; one more means "more than". */
export const TOTAL_CAP = 10_000;

/** "Найдено 1 услуга", "Найдено 2 услуги", "Найдено 5 услуг", "Найдено более 10 000 услуг". */
export function foundText(kind: ListingKind, total: number): string {
  if (total > TOTAL_CAP) return `Найдено более ${TOTAL_CAP.toLocaleString(LOCALE)}\u00a0${FORMS[kind][2]}`;
  return `Найдено ${count(total, FORMS[kind])}`;
}

/** Rating as people write it: "4,9". */
export const formatRating = (rating: number) =>
  rating.toLocaleString(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

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
