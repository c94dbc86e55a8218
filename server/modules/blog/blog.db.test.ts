import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call } from '../../test/api.ts';
import { multipartBody, PNG } from '../../test/multipart.ts';
import { auditLog } from '../../platform/schema.ts';
import { outbox } from '../../platform/schema.ts';
import { blogPosts } from './schema.ts';
import { PAGES_CHANGED_JOB } from '../../platform/page-cache.ts';
import { BLOG_MESSAGES, type BlogAdminPost, type BlogCard, type BlogPost } from '#contract/blog';

const server = useTestApp({}, { dispatch: false });
let admin: Person;
let member: Person;

beforeAll(async () => {
  admin = await server.person({ role: 'admin' });
  member = await server.person();
});

const send = <T>(who: Person | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, query?: Record<string, string>) =>
  call<T>(server.app, method, url, { token: who?.token, body, query });

const POST = {
  title: 'Как работает безопасная сделка',
  description: 'Деньги заказчика ждут, пока исполнитель сдаст работу: коротко о шагах.',
  body: '# Шаги\n\n- оплата\n- работа\n\n<script>window.__pwned=1</script>\n\n[x](javascript:alert(1))',
  cover: null,
};

async function create(body: Record<string, unknown> = POST) {
  const res = await send<BlogAdminPost>(admin, 'POST', '/api/admin/blog', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}
const publish = (id: string, status: 'published' | 'draft' = 'published') => send<BlogAdminPost>(admin, 'PATCH', `/api/admin/blog/${id}/status`, { status });
const pagesChangedJobs = async () => (await server.db.select().from(outbox).where(eq(outbox.name, PAGES_CHANGED_JOB))).length;
const clearOutbox = () => server.db.delete(outbox);

describe('blog', () => {
  it('creates a draft with the Markdown rendered and sanitised, invisible to anyone but admins, audited', async () => {
    const post = await create();
    expect(post.status).toBe('draft');
    expect(post.published_at).toBeNull();
    expect(post.body).toBe(POST.body);
    expect(post.html).toContain('<h2>Шаги</h2>');
    expect(post.html).toContain('<li>оплата</li>');
    expect(post.html).not.toContain('<script');
    expect(post.html).not.toContain('__pwned');
    expect(post.html).toContain('<p><a>x</a></p>');

    for (const who of [null, member]) {
      const res = await send(who, 'GET', `/api/blog/${post._id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: BLOG_MESSAGES.notFound });
    }
    // The admin's preview of the draft.
    expect((await send<BlogPost>(admin, 'GET', `/api/blog/${post._id}`)).body.result.title).toBe(POST.title);
    expect((await send<BlogCard[]>(null, 'GET', '/api/blog')).body.result.map((p) => p._id)).not.toContain(post._id);

    const entries = await server.db.select().from(auditLog).where(and(eq(auditLog.targetType, 'blog_post'), eq(auditLog.targetId, post._id)));
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([['blog.create', admin.user.id]]);
  });

  it('publishes (guests read it, pages cleared), unpublishes (404 again), each audited and refused twice', async () => {
    const post = await create();
    await clearOutbox();
    const published = await publish(post._id);
    expect(published.status).toBe(200);
    expect(published.body.result.status).toBe('published');
    expect(published.body.result.published_at).not.toBeNull();
    expect(await pagesChangedJobs()).toBe(1);

    const read = await send<BlogPost>(null, 'GET', `/api/blog/${post._id}`);
    expect(read.status).toBe(200);
    expect(read.body.result).not.toHaveProperty('body');
    expect(read.body.result.author?.name).toBeTruthy();
    const list = await send<BlogCard[]>(null, 'GET', '/api/blog');
    expect(list.body.result[0]!._id).toBe(post._id);

    const again = await publish(post._id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: BLOG_MESSAGES.alreadyPublished });

    await clearOutbox();
    expect((await publish(post._id, 'draft')).status).toBe(200);
    expect(await pagesChangedJobs()).toBe(1);
    expect((await send(null, 'GET', `/api/blog/${post._id}`)).status).toBe(404);
    expect((await publish(post._id, 'draft')).body).toMatchObject({ message: BLOG_MESSAGES.alreadyDraft });

    const actions = (await server.db.select().from(auditLog).where(eq(auditLog.targetId, post._id))).map((e) => e.action).sort();
    expect(actions).toEqual(['blog.create', 'blog.publish', 'blog.unpublish']);
  });

  it("updates a published post (its page changes at once) and deletes it; nobody else's writes pass", async () => {
    const post = await create();
    await publish(post._id);
    await clearOutbox();
    const updated = await send<BlogAdminPost>(admin, 'PUT', `/api/admin/blog/${post._id}`, { ...POST, title: '  Новый   заголовок статьи ', body: 'Новый **текст**' });
    expect(updated.status).toBe(200);
    expect(updated.body.result.title).toBe('Новый заголовок статьи');
    expect(updated.body.result.html).toBe('<p>Новый <strong>текст</strong></p>\n');
    expect(await pagesChangedJobs()).toBe(1);

    expect((await send(member, 'PUT', `/api/admin/blog/${post._id}`, POST)).status).toBe(403);
    expect((await send(member, 'DELETE', `/api/admin/blog/${post._id}`)).status).toBe(403);
    expect((await send(null, 'POST', '/api/admin/blog/preview', { body: 'x' })).status).toBe(401);

    expect((await send(admin, 'DELETE', `/api/admin/blog/${post._id}`)).status).toBe(200);
    expect((await send(null, 'GET', `/api/blog/${post._id}`)).status).toBe(404);
    expect((await send(admin, 'DELETE', `/api/admin/blog/${post._id}`)).status).toBe(404);
    const actions = (await server.db.select().from(auditLog).where(eq(auditLog.targetId, post._id))).map((e) => e.action).sort();
    expect(actions).toEqual(['blog.create', 'blog.delete', 'blog.publish', 'blog.update']);
  });

  it('answers bad input with 400 and a Russian message, nothing written', async () => {
    const before = (await server.db.select().from(blogPosts)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...POST, title: 'abc' }, 'title'],
      [{ ...POST, title: 'а \n\n\n б' }, 'title'],
      [{ ...POST, title: 'я'.repeat(151) }, 'title'],
      [{ ...POST, description: 'коротко' }, 'description'],
      [{ ...POST, body: '   ' }, 'body'],
      [{ ...POST, body: 'я'.repeat(100_001) }, 'body'],
      [{ ...POST, cover: '/uploads/../../etc/passwd' }, 'cover'],
      [{ ...POST, cover: `/uploads/${member.user.id}/0123456789abcdef0123456789abcdef.png` }, 'cover'],
      [{ ...POST, title: 5 }, 'title'],
      // Nesting that overflowed marked's stack (a 500 before), and a text it took seconds over.
      [{ ...POST, body: '>'.repeat(1809) + ' x' }, 'body'],
      [{ ...POST, body: '1. '.repeat(1184) + 'x' }, 'body'],
      [{ ...POST, body: '_a'.repeat(50_000) }, 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await send<unknown>(admin, 'POST', '/api/admin/blog', body);
      expect(res.status, field).toBe(400);
      const answer = res.body as { message: string; errors: Record<string, string[]> };
      expect(answer.message).toMatch(/[а-я]/i);
      expect(Object.keys(answer.errors), field).toContain(field);
    }
    expect((await send(admin, 'GET', '/api/admin/blog', undefined, { page: '0' })).status).toBe(400);
    expect((await send(admin, 'GET', '/api/admin/blog', undefined, { page: '1001' })).status).toBe(400);
    expect((await send(null, 'GET', '/api/blog/not-a-uuid')).status).toBe(404);
    expect((await send(admin, 'GET', '/api/admin/blog/not-a-uuid')).status).toBe(400);
    for (const body of ['>'.repeat(1809) + ' x', '1. '.repeat(1184) + 'x']) {
      const preview = await send<unknown>(admin, 'POST', '/api/admin/blog/preview', { body });
      expect(preview.status).toBe(400);
      expect((preview.body as { errors: Record<string, string[]> }).errors.body).toEqual([BLOG_MESSAGES.bodyDeep]);
    }
    expect((await server.db.select().from(blogPosts)).length).toBe(before);
  }, 30_000);

  it("takes a cover from the admin's own picture uploads only, and keeps it from the unused-files sweep", async () => {
    const upload = async (who: Person) => {
      const { payload, headers } = multipartBody([{ name: 'file', filename: 'cover.png', type: 'image/png', data: PNG }]);
      const res = await server.app.inject({ method: 'POST', url: '/api/files/single', payload, headers: { ...headers, authorization: `Bearer ${who.token}` } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { result: { url: string } }).result.url;
    };
    const own = await upload(admin);
    const theirs = await upload(member);
    const refused = await send(admin, 'POST', '/api/admin/blog', { ...POST, cover: theirs });
    expect(refused.status).toBe(400);
    const post = await create({ ...POST, cover: own });
    expect(post.cover).toBe(own);
    // Another admin keeps the cover the post has.
    const other = await server.person({ role: 'admin' });
    expect((await send(other, 'PUT', `/api/admin/blog/${post._id}`, { ...POST, cover: own })).status).toBe(200);

    const swept = await server.app.services.files.sweepUnused(new Date(Date.now() + 60_000));
    expect(swept).toBeGreaterThan(0); // the member's unused upload
    const still = await server.app.inject({ url: own });
    expect(still.statusCode).toBe(200);
  });

  it('previews Markdown as the article would show it, saving nothing', async () => {
    const before = (await server.db.select().from(blogPosts)).length;
    const res = await send<{ html: string }>(admin, 'POST', '/api/admin/blog/preview', { body: '## Раздел\n\n<img src=x onerror="alert(1)">текст' });
    expect(res.status).toBe(200);
    expect(res.body.result.html).toBe('<h2>Раздел</h2>\n<p>текст</p>\n');
    expect((await server.db.select().from(blogPosts)).length).toBe(before);
  });

  it('pages the public list newest first, 12 a page, with the total', async () => {
    await server.db.delete(blogPosts);
    const ids: string[] = [];
    for (let i = 0; i < 13; i++) {
      const p = await create({ ...POST, title: `Статья номер ${i}` });
      await publish(p._id);
      ids.push(p._id);
    }
    await create({ ...POST, title: 'Черновик в списке' });
    const first = await send<BlogCard[]>(null, 'GET', '/api/blog');
    expect(first.body.total).toBe(13);
    expect(first.body.result).toHaveLength(12);
    expect(first.body.result[0]!._id).toBe(ids[12]);
    const second = await send<BlogCard[]>(null, 'GET', '/api/blog', undefined, { page: '2' });
    expect(second.body.result.map((p) => p._id)).toEqual([ids[0]]);
    const adminList = await send<BlogCard[]>(admin, 'GET', '/api/admin/blog');
    expect(adminList.body.total).toBe(14);
    expect(adminList.body.result[0]!.status).toBe('draft');

    const sitemap = await server.app.inject({ url: '/sitemaps/blog-0.xml' });
    expect(sitemap.statusCode).toBe(200);
    for (const id of ids) expect(sitemap.body).toContain(`/blog/${id}</loc>`);
    expect((sitemap.body.match(/<url>/g) ?? []).length).toBe(13);
  });
});
