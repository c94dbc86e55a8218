import { describe, expect, it } from 'vitest';
import type { Service } from '#contract/catalog';
import { breadcrumbLd, excerpt, jsonLdText, seoMeta, siteUrlOf } from './seo.ts';
import { serviceLd } from './service-ld.ts';
import { listingCanonicalPath, listingDescription, listingTitle } from './listing-seo.ts';

const matches = [{ id: 'root', data: { config: { brand: 'Подряд', siteUrl: 'https://podryad.example/' } } }];

describe('excerpt', () => {
  it('keeps short text, flattening whitespace', () => {
    expect(excerpt('  Сделаю\n\nлоготип   быстро ')).toBe('Сделаю логотип быстро');
  });
  it('cuts long text at a word with an ellipsis', () => {
    const text = 'слово '.repeat(60);
    const out = excerpt(text, 160);
    expect(out.length).toBeLessThanOrEqual(160);
    expect(out.endsWith('слово…')).toBe(true);
  });
});

describe('jsonLdText', () => {
  it('cannot close the script element it lives in', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script>' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script>' });
  });
});

describe('seoMeta', () => {
  it('adds canonical, Open Graph and the title template', () => {
    const meta = seoMeta(matches, { title: 'Логотип', description: 'Описание', path: '/services/design/1', type: 'product', image: '/uploads/x.png' });
    expect(siteUrlOf(matches)).toBe('https://podryad.example');
    expect(meta).toContainEqual({ title: 'Логотип - Подряд' });
    expect(meta).toContainEqual({ name: 'description', content: 'Описание' });
    expect(meta).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://podryad.example/services/design/1' });
    expect(meta).toContainEqual({ property: 'og:type', content: 'product' });
    expect(meta).toContainEqual({ property: 'og:url', content: 'https://podryad.example/services/design/1' });
    expect(meta).toContainEqual({ property: 'og:image', content: 'https://podryad.example/uploads/x.png' });
    expect(meta.some((m) => 'name' in m && m.name === 'robots')).toBe(false);
  });
});

describe('structured data', () => {
  it('describes breadcrumbs with absolute addresses', () => {
    expect(breadcrumbLd('https://s', [{ name: 'Главная', path: '/' }, { name: 'Дизайн' }])).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Главная', item: 'https://s/' },
        { '@type': 'ListItem', position: 2, name: 'Дизайн' },
      ],
    });
  });

  it('describes a service as a Product with an Offer in rubles', () => {
    const service = {
      _id: 'id1',
      title: 'Логотип',
      description: 'Нарисую логотип',
      category_title: 'Дизайн',
      images: ['/uploads/a.png'],
      price: 150_000,
      rating: 4.8,
      reviews_count: 3,
      seller: { name: 'Анна', surname: 'Соколова', user_name: 'anna' },
    } as unknown as Service;
    const ld = serviceLd('https://s', service, '/services/design/id1');
    expect(ld['@type']).toBe('Product');
    expect(ld.offers).toMatchObject({ '@type': 'Offer', priceCurrency: 'RUB', price: '1500.00', url: 'https://s/services/design/id1' });
    expect(ld.image).toEqual(['https://s/uploads/a.png']);
    expect(ld.aggregateRating).toMatchObject({ ratingValue: '4.8', reviewCount: 3 });
  });
});

describe('listing SEO', () => {
  it('points the home addresses and filters at one canonical page', () => {
    expect(listingCanonicalPath({ kind: 'services', category: null })).toBe('/');
    expect(listingCanonicalPath({ kind: 'services', category: { slug: 'design', title: 'Дизайн', subs: [] } })).toBe('/services/design');
    expect(listingCanonicalPath({ kind: 'projects', category: null })).toBe('/projects');
    expect(listingCanonicalPath({ kind: 'freelancers', category: null })).toBe('/freelancers/all');
  });
  it('keeps the default description on the home page and describes categories', () => {
    expect(listingDescription({ kind: 'services', category: null })).toBe(''); // pageMeta then uses the operator's default
    expect(listingDescription({ kind: 'services', category: { slug: 'design', title: 'Дизайн', subs: [{ title: 'Логотипы' }] } })).toContain(
      '«Дизайн»: логотипы и другое',
    );
    expect(listingTitle({ kind: 'projects', category: { slug: 'design', title: 'Дизайн', subs: [] } }, 'Биржа проектов')).toBe('Проекты: Дизайн');
    expect(listingTitle({ kind: 'services', category: null }, 'Услуги фрилансеров')).toBe('Услуги фрилансеров');
  });
});
