import { isRouteErrorResponse, type MetaDescriptor } from 'react-router';
import { PAGE_MESSAGES as MESSAGES } from '#contract/page-messages';
import type { PublicConfig } from '#contract/ssr';

export const DEFAULT_DESCRIPTION = 'Биржа услуг';

interface MetaMatch {
  id: string;
  data?: unknown;
}

const configOf = (matches: readonly (MetaMatch | undefined)[]) =>
  (matches.find((m) => m?.id === 'root')?.data as { config?: PublicConfig } | undefined)?.config;

/** The brand from the root loader's data (an operator setting, "Подряд" by default). */
export function brandOf(matches: readonly (MetaMatch | undefined)[]): string {
  return configOf(matches)?.brand ?? 'Подряд';
}

/** The description of a page without its own (an operator setting, "Биржа услуг" by default). */
export function descriptionOf(matches: readonly (MetaMatch | undefined)[]): string {
  return configOf(matches)?.description || DEFAULT_DESCRIPTION;
}

/** SPEC §1: "{title} - {brand}", with the operator's default description unless a page has its own. */
export function pageMeta(matches: readonly (MetaMatch | undefined)[], title: string, description?: string): MetaDescriptor[] {
  description ||= descriptionOf(matches);
  const full = `${title} - ${brandOf(matches)}`;
  return [
    { title: full },
    { name: 'description', content: description },
    { property: 'og:title', content: full },
    { property: 'og:description', content: description },
  ];
}

/** The title of the error screen: "Страница не найдена" for a 404, else the generic error. */
export function errorMeta(matches: readonly (MetaMatch | undefined)[], error: unknown): MetaDescriptor[] {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    ...pageMeta(matches, notFound ? MESSAGES.notFoundBreadcrumb : MESSAGES.unexpected),
    { name: 'robots', content: 'noindex' },
  ];
}
