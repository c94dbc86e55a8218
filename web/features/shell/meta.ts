import { isRouteErrorResponse, type MetaDescriptor } from 'react-router';
import { PAGE_MESSAGES as MESSAGES } from '#contract/page-messages';
import type { PublicConfig } from '#contract/ssr';

export const DEFAULT_DESCRIPTION = 'Биржа услуг';

interface MetaMatch {
  id: string;
  data?: unknown;
}

/** The brand from the root loader's data (configurable, "Подряд" by default). */
export function brandOf(matches: readonly (MetaMatch | undefined)[]): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { config?: PublicConfig } | undefined;
  return root?.config?.brand ?? 'Подряд';
}

/** SPEC §1: "{title} - {brand}", with the default description unless a page has its own. */
export function pageMeta(
  matches: readonly (MetaMatch | undefined)[],
  title: string,
  description: string = DEFAULT_DESCRIPTION,
): MetaDescriptor[] {
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
