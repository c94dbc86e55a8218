import type { BlogPost } from '#contract/blog';

const absolute = (siteUrl: string, path: string) => (/^https?:\/\//i.test(path) ? path : `${siteUrl}${path}`);

/** schema.org Article of a published post (its page's JSON-LD). */
export function articleLd(siteUrl: string, brand: string, post: BlogPost, path: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: post.description,
    url: absolute(siteUrl, path),
    mainEntityOfPage: absolute(siteUrl, path),
    ...(post.cover ? { image: absolute(siteUrl, post.cover) } : {}),
    ...(post.published_at ? { datePublished: post.published_at } : {}),
    dateModified: post.updated_at,
    author: post.author ? { '@type': 'Person', name: post.author.name } : { '@type': 'Organization', name: brand },
    publisher: { '@type': 'Organization', name: brand, url: siteUrl },
    inLanguage: 'ru',
  };
}
