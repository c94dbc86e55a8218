import type { Service } from '#contract/catalog';
import { formatRubles } from '#contract/money-format';

/** An amount in kopecks as rubles ("1 500 руб."): the owner's and the moderator's pages show the stored currency. */
export const rub = formatRubles;

/** A service's price: "от …" the cheapest package when it has packages. */
export const servicePrice = (s: Pick<Service, 'price' | 'packages'>) =>
  s.packages.length ? `от ${rub(Math.min(s.price, ...s.packages.map((p) => p.price)))}` : rub(s.price);

/** A project's budget: "до …" or by agreement. */
export const projectBudget = (budget: number | null) => (budget ? `до ${rub(budget)}` : 'по договорённости');
