import { LOCALE } from '#contract/constants';
import { formatBasisPoints, formatRubles } from '#contract/money-format';
import { plural } from '../../lib/dates.ts';

// Labels of the dashboard and referral pages. Days are Moscow days as the API gives them (YYYY-MM-DD): they are
// shown as written, whatever the browser's time zone.

const dayFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', timeZone: 'UTC' });
const dayYearFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayShortFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const percentFormat = new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 });
const countFormat = new Intl.NumberFormat(LOCALE);

const at = (day: string) => new Date(`${day}T00:00:00Z`);
/** "23 ноября". */
export const dayLabel = (day: string) => dayFormat.format(at(day));
/** "23 ноября 2026 г.". */
export const dayYearLabel = (day: string) => dayYearFormat.format(at(day));
/** "23 нояб." (chart axes). */
export const dayLabelShort = (day: string) => dayShortFormat.format(at(day));
/** A ratio as percent: 0.0425 → "4,3 %". */
export const percent = (ratio: number) => percentFormat.format(ratio).replace(/\u202f/g, '\u00a0');
/** Basis points as percent: 350 → "3,5 %". */
export const basisPoints = formatBasisPoints;
export const count = (n: number) => countFormat.format(n).replace(/[\u00a0\u202f]/g, ' ');
/** Kopecks as rubles (contract/money-format): "1 200 руб.". */
export const rubles = formatRubles;

export const ordersWord = (n: number) => plural(n, 'заказ', 'заказа', 'заказов');
/** "1 оплаченный заказ", "2 оплаченных заказа", "5 оплаченных заказов" (the conversion's numerator, ADR 045). */
export const paidOrdersWord = (n: number) => plural(n, 'оплаченный заказ', 'оплаченных заказа', 'оплаченных заказов');
export const viewsWord = (n: number) => plural(n, 'просмотр', 'просмотра', 'просмотров');
export const peopleWord = (n: number) => plural(n, 'человек', 'человека', 'человек');
export const monthsWord = (n: number) => plural(n, 'месяц', 'месяца', 'месяцев');
export const daysWord = (n: number) => plural(n, 'день', 'дня', 'дней');
