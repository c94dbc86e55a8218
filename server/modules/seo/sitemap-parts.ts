import { and, asc, count } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blogPath } from '#contract/blog';
import { categoryRefs } from '../lookups/index.ts';
import { offersServices, publicServiceCount, publicServiceLinks } from '../services/index.ts';
import { listedProjectCount, listedProjectLinks } from '../projects/index.ts';
import { people, visibleFreelancerOf } from '../users/index.ts';
import type { BlogService } from '../blog/index.ts';

export const SITEMAP_PART_SIZE = 50_000;
const STATIC_PATHS = ['/', '/projects', '/faq', '/help', '/about', '/contacts', '/conditions', '/blog', '/become-seller'];

export const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const urlset = (urls: { loc: string; lastmod?: Date }[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ''}</url>`)
    .join('\n')}\n</urlset>\n`;

export type Part = 'static' | 'categories' | 'services' | 'projects' | 'freelancers' | 'blog';

/** The sitemap's parts: how many of each there are, and one part's URLs from `base`. */
export function sitemapParts(db: Db, blog: BlogService) {
  // What a crawler may index is what the public sees (the modules' policies): public services, projects
  // open for bids, and freelancers with a public service.
  const person = people('person');
  const category = categoryRefs('category');
  const sellersWithServices = and(visibleFreelancerOf(person), offersServices(person.id));

  async function partCounts(): Promise<Record<'services' | 'projects' | 'freelancers', number>> {
    const [s, p, [f]] = await Promise.all([
      publicServiceCount(db),
      listedProjectCount(db),
      db.select({ n: count() }).from(person).where(sellersWithServices),
    ]);
    return { services: s, projects: p, freelancers: f?.n ?? 0 };
  }

  async function part(kind: Part, index: number, base: string): Promise<string> {
    const offset = index * SITEMAP_PART_SIZE;
    switch (kind) {
      case 'static':
        return urlset(STATIC_PATHS.map((p) => ({ loc: `${base}${p}` })));
      case 'categories': {
        const cats = await db.select({ slug: category.slug }).from(category).orderBy(asc(category.position));
        return urlset(cats.flatMap((c) => ['services', 'projects', 'freelancers'].map((area) => ({ loc: `${base}/${area}/${c.slug}` }))));
      }
      case 'services': {
        const rows = await publicServiceLinks(db, offset, SITEMAP_PART_SIZE);
        return urlset(rows.map((r) => ({ loc: `${base}/services/${r.slug}/${r.id}`, lastmod: r.updatedAt })));
      }
      case 'projects': {
        const rows = await listedProjectLinks(db, offset, SITEMAP_PART_SIZE);
        return urlset(rows.map((r) => ({ loc: `${base}/projects/${r.slug}/${r.id}`, lastmod: r.updatedAt })));
      }
      case 'freelancers': {
        const rows = await db
          .select({ id: person.id })
          .from(person)
          .where(sellersWithServices)
          .orderBy(asc(person.id))
          .limit(SITEMAP_PART_SIZE)
          .offset(offset);
        return urlset(rows.map((r) => ({ loc: `${base}/user/${r.id}` })));
      }
      case 'blog': {
        // Published articles only (a draft is a 404 to crawlers); a few hundred at most, one part.
        if (index > 0) return urlset([]);
        const rows = await blog.sitemapEntries();
        return urlset(rows.map((r) => ({ loc: `${base}${blogPath(r.id)}`, lastmod: r.updatedAt })));
      }
    }
  }

  return { partCounts, part };
}
