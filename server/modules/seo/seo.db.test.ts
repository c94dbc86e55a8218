import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { services } from '../services/schema.ts';
import { projects } from '../projects/schema.ts';
import { categories } from '../lookups/schema.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://podryad.example' });
  const { db } = t.database;
  const [design] = await db.select().from(categories).where(eq(categories.slug, 'design'));
  const seller = await createUser(db, { role: 'seller' });
  const blocked = await createUser(db, { role: 'seller', blockedAt: new Date() });
  const customer = await createUser(db);
  const base = { title: 'Логотип для кофейни', description: 'Нарисую логотип. '.repeat(5), categoryId: design!.id, price: 150_000, days: 3 };
  const [active, draft, hidden] = await db
    .insert(services)
    .values([
      { ...base, sellerId: seller.id, status: 'active' },
      { ...base, sellerId: seller.id, status: 'draft' },
      { ...base, sellerId: blocked.id, status: 'active' },
    ])
    .returning();
  const [project] = await db
    .insert(projects)
    .values({ customerId: customer.id, title: 'Нужен сайт', description: 'Лендинг для кофейни. '.repeat(3), categoryId: design!.id })
    .returning();
  Object.assign(ids, { active: active!.id, draft: draft!.id, blockedSellers: hidden!.id, project: project!.id, seller: seller.id, blocked: blocked.id });
});
afterAll(() => t.close());

describe('robots.txt', () => {
  it('closes the profile and admin areas and points at the sitemap', async () => {
    const res = await t.app.inject({ url: '/robots.txt' });
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('Disallow: /profile');
    expect(res.body).toContain('Disallow: /admin');
    expect(res.body).toContain('Sitemap: https://podryad.example/sitemap.xml');
  });
});

describe('sitemap', () => {
  it('is an index of parts', async () => {
    const res = await t.app.inject({ url: '/sitemap.xml' });
    expect(res.headers['content-type']).toContain('application/xml');
    for (const part of ['static-0', 'categories-0', 'blog-0', 'services-0', 'projects-0', 'freelancers-0']) {
      expect(res.body).toContain(`<loc>https://podryad.example/sitemaps/${part}.xml</loc>`);
    }
  });

  it('lists only active services of sellers who are not blocked', async () => {
    const body = (await t.app.inject({ url: '/sitemaps/services-0.xml' })).body;
    expect(body).toContain(`https://podryad.example/services/design/${ids.active}`);
    expect(body).not.toContain(ids.draft);
    expect(body).not.toContain(ids.blockedSellers);
  });

  it('lists categories, projects and freelancers', async () => {
    expect((await t.app.inject({ url: '/sitemaps/categories-0.xml' })).body).toContain('https://podryad.example/freelancers/design');
    expect((await t.app.inject({ url: '/sitemaps/projects-0.xml' })).body).toContain(`/projects/design/${ids.project}`);
    const people = (await t.app.inject({ url: '/sitemaps/freelancers-0.xml' })).body;
    expect(people).toContain(`/user/${ids.seller}`);
    expect(people).not.toContain(ids.blocked);
  });

  it('answers 404 for an unknown part', async () => {
    expect((await t.app.inject({ url: '/sitemaps/../../etc.xml' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/sitemaps/users-0.xml' })).statusCode).toBe(404);
  });
});
