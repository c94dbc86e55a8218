import type { MetaDescriptor } from 'react-router';
import type { PublicConfig } from '#contract/ssr';
import { pageMeta } from '../../lib/meta.ts';
import { trimEnd } from '#contract/text';

// What crawlers read beyond the page itself: description, canonical address, Open Graph and JSON-LD.

interface MetaMatch {
  id: string;
  data?: unknown;
}

/** The public address of the site from the root loader (config.siteUrl), without a trailing slash. */
export function siteUrlOf(matches: readonly (MetaMatch | undefined)[]): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { config?: PublicConfig } | undefined;
  return trimEnd(root?.config?.siteUrl ?? '', '/');
}

/** An absolute address for a path of ours (already absolute ones pass through). */
export const absoluteUrl = (siteUrl: string, path: string) => (/^https?:\/\//i.test(path) ? path : `${siteUrl}${path}`);

/**
 * A meta description from free text: whitespace collapsed, at most `max` characters, cut at a word boundary
 * with an ellipsis when shortened.
 */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${trimEnd(space > max * 0.6 ? cut.slice(0, space) : cut, ' \t\n\r\u00a0,.;:!?—-')}…`;
}

export interface SeoOptions {
  title: string;
  description?: string;
  /** The canonical path of the page ("/services/design/…"). */
  path: string;
  type?: 'website' | 'product' | 'article' | 'profile';
  /** A picture for link previews (a path of ours or an absolute address). */
  image?: string | null;
  /** Keep the page out of search results (not published yet, filtered duplicates). */
  noindex?: boolean;
}

/** pageMeta (title template, description, og:title/description) plus canonical, og:url/type/image/site_name. */
export function seoMeta(matches: readonly (MetaMatch | undefined)[], options: SeoOptions): MetaDescriptor[] {
  const siteUrl = siteUrlOf(matches);
  const url = absoluteUrl(siteUrl, options.path);
  const meta: MetaDescriptor[] = [
    ...pageMeta(matches, options.title, options.description),
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: options.type ?? 'website' },
    { property: 'og:url', content: url },
    { property: 'og:locale', content: 'ru_RU' },
  ];
  if (options.image) meta.push({ property: 'og:image', content: absoluteUrl(siteUrl, options.image) });
  if (options.noindex) meta.push({ name: 'robots', content: 'noindex' });
  return meta;
}

/** JSON for an inline <script type="application/ld+json">: "<" escaped so no text can close the script. */
export const jsonLdText = (data: unknown) =>
  JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export interface LdCrumb {
  name: string;
  /** Path of ours; the last crumb (the page itself) may have none. */
  path?: string;
}

export function breadcrumbLd(siteUrl: string, crumbs: readonly LdCrumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      ...(c.path ? { item: absoluteUrl(siteUrl, c.path) } : {}),
    })),
  };
}
