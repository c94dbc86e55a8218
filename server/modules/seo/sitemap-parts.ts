import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { blogPath } from '#contract/blog';
import { services } from '../services/schema.ts';
import { projects } from '../projects/schema.ts';
import { categories } from '../lookups/schema.ts';
import { users } from '../users/schema.ts';
import { publicService } from '../services/index.ts';
import { listedProject } from '../projects/index.ts';
import { visibleFreelancer } from '../people/index.ts';
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
  const sellersWithServices = and(visibleFreelancer(), sql`exists (select 1 from ${services} where ${services.sellerId} = ${users.id} and ${services.status} = 'active')`);

  async function partCounts(): Promise<Record<'services' | 'projects' | 'freelancers', number>> {
    const [[s], [p], [f]] = await Promise.all([
      db.select({ n: count() }).from(services).where(publicService()),
      db.select({ n: count() }).from(projects).where(listedProject()),
      db.select({ n: count() }).from(users).where(sellersWithServices),
    ]);
    return { services: s?.n ?? 0, projects: p?.n ?? 0, freelancers: f?.n ?? 0 };
  }

  async function part(kind: Part, index: number, base: string): Promise<string> {
    const offset = index * SITEMAP_PART_SIZE;
    switch (kind) {
      case 'static':
        return urlset(STATIC_PATHS.map((p) => ({ loc: `${base}${p}` })));
      case 'categories': {
        const cats = await db.select({ slug: categories.slug }).from(categories).orderBy(asc(categories.position));
        return urlset(cats.flatMap((c) => ['services', 'projects', 'freelancers'].map((area) => ({ loc: `${base}/${area}/${c.slug}` }))));
      }
      case 'services': {
        const rows = await db
          .select({ id: services.id, slug: categories.slug, updatedAt: services.updatedAt })
          .from(services)
          .innerJoin(categories, eq(categories.id, services.categoryId))
          .where(publicService())
          .orderBy(asc(services.id))
          .limit(SITEMAP_PART_SIZE)
          .offset(offset);
        return urlset(rows.map((r) => ({ loc: `${base}/services/${r.slug}/${r.id}`, lastmod: r.updatedAt })));
      }
      case 'projects': {
        const rows = await db
          .select({ id: projects.id, slug: categories.slug, updatedAt: projects.updatedAt })
          .from(projects)
          .innerJoin(categories, eq(categories.id, projects.categoryId))
          .where(listedProject())
          .orderBy(asc(projects.id))
          .limit(SITEMAP_PART_SIZE)
          .offset(offset);
        return urlset(rows.map((r) => ({ loc: `${base}/projects/${r.slug}/${r.id}`, lastmod: r.updatedAt })));
      }
      case 'freelancers': {
        const rows = await db
          .select({ id: users.id })
          .from(users)
          .where(sellersWithServices)
          .orderBy(asc(users.id))
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
