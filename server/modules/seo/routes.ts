import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { blogPath } from '#contract/blog';
import { services, projects } from '../../db/schema/catalog.ts';
import { categories } from '../../db/schema/lookups.ts';
import { users } from '../../db/schema/users.ts';
import { publicService } from '../services/index.ts';
import { listedProject } from '../projects/index.ts';
import { visibleFreelancer } from '../people/index.ts';
import type { BlogService } from '../blog/index.ts';

// sitemap.xml (an index of parts of at most 50,000 URLs) and robots.txt for crawlers.

export const SITEMAP_PART_SIZE = 50_000;
const CACHE_MS = 60 * 60_000;
const STATIC_PATHS = ['/', '/projects', '/faq', '/help', '/about', '/contacts', '/conditions', '/blog', '/become-seller'];

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const urlset = (urls: { loc: string; lastmod?: Date }[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : ''}</url>`)
    .join('\n')}\n</urlset>\n`;

type Part = 'static' | 'categories' | 'services' | 'projects' | 'freelancers' | 'blog';

/** `origin` is the app's public origin for a request (server/lib/public-origin.ts), without a trailing slash. */
export const seoRoutes: FastifyPluginAsync<{ db: Db; blog: BlogService; origin: (request: FastifyRequest) => string }> = async (app, { db, blog, origin }) => {
  const site = (request: FastifyRequest) => origin(request).replace(/\/$/, '');
  // One entry per part, whatever Host headers arrive: a body built for another origin is rebuilt, not kept beside.
  const cache = new Map<string, { at: number; base: string; body: string }>();
  const cached = async (key: string, base: string, build: () => Promise<string>) => {
    const hit = cache.get(key);
    if (hit && hit.base === base && Date.now() - hit.at < CACHE_MS) return hit.body;
    const body = await build();
    cache.set(key, { at: Date.now(), base, body });
    return body;
  };

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

  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const base = site(request);
    const body = await cached('index', base, async () => {
      const counts = await partCounts();
      const parts = ['static-0', 'categories-0', 'blog-0'];
      for (const kind of ['services', 'projects', 'freelancers'] as const) {
        for (let i = 0; i < Math.max(1, Math.ceil(counts[kind] / SITEMAP_PART_SIZE)); i++) parts.push(`${kind}-${i}`);
      }
      return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts
        .map((p) => `<sitemap><loc>${xmlEscape(`${base}/sitemaps/${p}.xml`)}</loc></sitemap>`)
        .join('\n')}\n</sitemapindex>\n`;
    });
    return reply.type('application/xml; charset=utf-8').send(body);
  });

  app.get<{ Params: { part: string } }>('/sitemaps/:part', { schema: { hide: true } }, async (request, reply) => {
    const match = /^(static|categories|services|projects|freelancers|blog)-(\d{1,4})\.xml$/.exec(request.params.part);
    if (!match) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const base = site(request);
    const body = await cached(request.params.part, base, () => part(match[1] as Part, Number(match[2]), base));
    return reply.type('application/xml; charset=utf-8').send(body);
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(
        ['User-agent: *', 'Disallow: /profile', 'Disallow: /admin', 'Disallow: /api/', 'Disallow: /test', 'Disallow: /verify', 'Allow: /', '', `Sitemap: ${site(request)}/sitemap.xml`, ''].join('\n'),
      ),
  );
};
