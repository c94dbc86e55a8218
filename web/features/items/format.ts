import type { Service } from '#contract/catalog';
import { formatMoney } from '../../lib/currency.ts';

/** An amount in kopecks as rubles ("1 500 руб."): the owner's and the moderator's pages show the stored currency. */
export const rub = (kopecks: number) => formatMoney(kopecks, 'RUB', null);

/** A service's price: "от …" the cheapest package when it has packages. */
export const servicePrice = (s: Pick<Service, 'price' | 'packages'>) =>
  s.packages.length ? `от ${rub(Math.min(s.price, ...s.packages.map((p) => p.price)))}` : rub(s.price);

/** A project's budget: "до …" or by agreement. */
export const projectBudget = (budget: number | null) => (budget ? `до ${rub(budget)}` : 'по договорённости');

/** A readable name for an attachment we only know by its address: "a1b2…e9.pdf" → "Файл PDF". */
export function fileLabel(url: string): string {
  const ext = url.split('.').pop()?.toUpperCase();
  return ext && ext.length <= 5 ? `Файл ${ext}` : 'Файл';
}
