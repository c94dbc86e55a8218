import type { MetaDescriptor } from 'react-router';
import { seoMeta } from './seo.ts';
import type { ListingData } from './listing-data.ts';

interface MetaMatch {
  id: string;
  data?: unknown;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The canonical address of a listing page: filters and the duplicate home addresses point at one URL each. */
export function listingCanonicalPath(data: Pick<ListingData, 'kind' | 'category'>): string {
  const slug = data.category?.slug;
  if (data.kind === 'services') return slug ? `/services/${slug}` : '/';
  if (data.kind === 'projects') return slug ? `/projects/${slug}` : '/projects';
  return `/freelancers/${slug ?? 'all'}`;
}

export function listingTitle(data: Pick<ListingData, 'kind' | 'category'>, fallback: string): string {
  const title = data.category?.title;
  if (!title) return fallback;
  if (data.kind === 'projects') return `Проекты: ${title}`;
  if (data.kind === 'freelancers') return `Фрилансеры: ${title}`;
  return title;
}

export function listingDescription(data: Pick<ListingData, 'kind' | 'category'>): string {
  const c = data.category;
  const subs = c?.subs ?? [];
  const examples = subs.length ? `: ${subs.slice(0, 4).map((s) => lowerFirst(s.title)).join(', ')} и другое` : '';
  switch (data.kind) {
    case 'services':
      // The home page keeps the default description (the operator's, pageMeta's fallback for an empty one).
      return c ? `Услуги фрилансеров в категории «${c.title}»${examples}. Цены от 500 руб., сроки, отзывы и рейтинг исполнителей.` : '';
    case 'projects':
      return c
        ? `Проекты заказчиков в категории «${c.title}»${examples}. Бюджет, сроки и отклики — выбирайте задачи и откликайтесь.`
        : 'Биржа проектов: задачи заказчиков с бюджетом и сроками. Выбирайте проекты и откликайтесь.';
    default:
      return c
        ? `Фрилансеры категории «${c.title}»: рейтинг, отзывы, уровень и статус «в сети».`
        : 'Фрилансеры биржи: рейтинг, отзывы, уровень и статус «в сети». Выберите исполнителя для своей задачи.';
  }
}

/** Title, description, canonical address and Open Graph of a listing page. */
export function listingSeo(matches: readonly (MetaMatch | undefined)[], data: ListingData, fallbackTitle: string): MetaDescriptor[] {
  return seoMeta(matches, {
    title: listingTitle(data, fallbackTitle),
    description: listingDescription(data),
    path: listingCanonicalPath(data),
  });
}
