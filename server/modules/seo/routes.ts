import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { BlogService } from '../blog/index.ts';
import { sitemapParts, SITEMAP_PART_SIZE, xmlEscape, type Part } from './sitemap-parts.ts';

// sitemap.xml (an index of parts of at most 50,000 URLs) and robots.txt for crawlers.

export { SITEMAP_PART_SIZE } from './sitemap-parts.ts';
const CACHE_MS = 60 * 60_000;

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

  const { partCounts, part } = sitemapParts(db, blog);

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
