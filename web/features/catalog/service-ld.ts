import type { Service } from '#contract/catalog';
import { absoluteUrl, excerpt } from './seo.ts';

// A service page's structured data: its own module, so that the listings' pages do not carry it (issue 11).

/** A service as a schema.org Product with one Offer in rubles (the base price; packages cost more). */
export function serviceLd(siteUrl: string, service: Service, path: string) {
  const url = absoluteUrl(siteUrl, path);
  const seller = `${service.seller.name} ${service.seller.surname}`.trim() || service.seller.user_name;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: service.title,
    description: excerpt(service.description, 500),
    sku: service._id,
    url,
    category: service.category_title,
    ...(service.images.length ? { image: service.images.map((src) => absoluteUrl(siteUrl, src)) } : {}),
    brand: { '@type': 'Brand', name: seller },
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'RUB',
      price: (service.price / 100).toFixed(2),
      availability: 'https://schema.org/InStock',
      seller: { '@type': 'Person', name: seller },
    },
    ...(service.reviews_count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: service.rating.toFixed(1),
            reviewCount: service.reviews_count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}
