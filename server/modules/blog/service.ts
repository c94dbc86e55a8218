import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { blogPosts, type BlogPostRow } from './schema.ts';
import { people, type UserRow } from '../users/index.ts';
import { badRequest, HttpError, notFound } from '../../lib/http.ts';
import { displayName, isUuid } from '../../lib/text.ts';
import { MESSAGES } from '#contract/messages';
import type { Platform } from '../../platform/platform.ts';
import type { Actor } from '../../platform/policy.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { fileUrl, ownedFile, parseFilePath } from '../../platform/files.ts';
import { pagesChanged } from '../../platform/page-cache.ts';
import {
  BLOG_LIMITS,
  BLOG_MESSAGES,
  type BlogAdminPost,
  type BlogCard,
  type BlogPost,
  type blogPostInputSchema,
  type BlogStatus,
} from '#contract/blog';
import { blogPolicy } from './policy.ts';
import { MarkdownRefused, renderMarkdown } from './markdown.ts';

export interface BlogServiceDeps {
  db: Db;
  platform: Platform;
}

type PostInput = z.output<typeof blogPostInputSchema>;
type Joined = { post: BlogPostRow; author: Pick<UserRow, 'id' | 'name' | 'surname' | 'userName'> | null };

/** Pictures whose variants exist (ADR 022): a cover is shown through them. */
const COVER_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp']);
const AUDIT_TARGET = 'blog_post';

const author = people('author');

const card = (p: BlogPostRow): BlogCard => ({
  _id: p.id,
  title: p.title,
  description: p.description,
  cover: p.cover,
  status: p.status,
  published_at: p.publishedAt?.toISOString() ?? null,
  updated_at: p.updatedAt.toISOString(),
});

const present = ({ post, author }: Joined): BlogPost => ({
  ...card(post),
  html: post.html,
  created_at: post.createdAt.toISOString(),
  author: author ? { _id: author.id, name: displayName(author) } : null,
});

const cannotChange = (message: string) => new HttpError(409, message);

/** The body's HTML; a body the renderer refuses (too deep, too slow) is the admin's 400 on the body field. */
async function rendered(body: string): Promise<string> {
  try {
    return await renderMarkdown(body);
  } catch (err) {
    if (err instanceof MarkdownRefused) throw badRequest(MESSAGES.validation, { body: [err.message] });
    throw err;
  }
}

/** The blog (ADR 037): the public list and article, and the admin's writing, publishing and deleting. */
export class BlogService {
  constructor(private readonly deps: BlogServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /** Published posts, newest first; a page past the end is empty. */
  async list(page: number): Promise<{ result: BlogCard[]; total: number }> {
    return this.pageOf(page, true);
  }

  /** Every post, drafts included, last changed first (the admin's list). */
  async adminList(page: number): Promise<{ result: BlogCard[]; total: number }> {
    return this.pageOf(page, false);
  }

  private async pageOf(page: number, published: boolean) {
    const where = published ? eq(blogPosts.status, 'published') : undefined;
    const order = published
      ? [desc(blogPosts.publishedAt), desc(blogPosts.id)]
      : [desc(blogPosts.updatedAt), desc(blogPosts.id)];
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(blogPosts)
        .where(where)
        .orderBy(...order)
        .limit(BLOG_LIMITS.pageSize)
        .offset((page - 1) * BLOG_LIMITS.pageSize),
      this.db.select({ n: count() }).from(blogPosts).where(where),
    ]);
    return { result: rows.map(card), total: total?.n ?? 0 };
  }

  private async find(id: string): Promise<Joined | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.db
      .select({
        post: blogPosts,
        author: { id: author.id, name: author.name, surname: author.surname, userName: author.userName },
      })
      .from(blogPosts)
      .leftJoin(author, eq(author.id, blogPosts.authorId))
      .where(eq(blogPosts.id, id))
      .limit(1);
    return row ?? null;
  }

  /** One post as its page shows it: a draft only to admins (their preview), a 404 to anyone else. */
  async get(actor: Actor, id: string): Promise<BlogPost> {
    const found = await this.find(id);
    blogPolicy.authorize(actor, 'view', found?.post);
    return present(found!);
  }

  async adminGet(id: string): Promise<BlogAdminPost> {
    const found = await this.find(id);
    if (!found) throw notFound(BLOG_MESSAGES.notFound);
    return { ...present(found), body: found.post.body };
  }

  /** The article's HTML for the editor's preview: the same rendering as saving, nothing stored. */
  async preview(body: string): Promise<{ html: string }> {
    return { html: await rendered(body) };
  }

  /**
   * A cover is a picture upload of the admin who sets it; the one a post already has stays valid whoever uploaded
   * it. Answers its url.
   */
  private async checkCover(admin: UserRow, cover: string | null, current: string | null): Promise<string | null> {
    if (cover === null || cover === '') return null;
    const key = parseFilePath(cover);
    if (!key) throw badRequest(MESSAGES.validation, { cover: [BLOG_MESSAGES.badCover] });
    const url = fileUrl(key);
    if (url === current) return url;
    const file = await ownedFile(this.db, admin.id, url);
    if (!file || !COVER_MIMES.has(file.mime))
      throw badRequest(MESSAGES.validation, { cover: [BLOG_MESSAGES.badCover] });
    return url;
  }

  private async fields(admin: UserRow, input: PostInput, current: string | null) {
    // One line each; spaces collapsed, the length checked again on what is kept.
    const title = input.title.replace(/\s+/g, ' ');
    const description = input.description.replace(/\s+/g, ' ');
    if (title.length < BLOG_LIMITS.title.min)
      throw badRequest(MESSAGES.validation, { title: [BLOG_MESSAGES.titleShort] });
    if (description.length < BLOG_LIMITS.description.min)
      throw badRequest(MESSAGES.validation, { description: [BLOG_MESSAGES.descriptionShort] });
    return {
      title,
      description,
      body: input.body,
      html: await rendered(input.body),
      cover: await this.checkCover(admin, input.cover, current),
    };
  }

  /** A new post, always a draft: publishing is its own step. */
  async create(admin: UserRow, input: PostInput): Promise<BlogAdminPost> {
    const values = await this.fields(admin, input, null);
    const id = await this.deps.platform.withTx(userActor(admin), async ({ tx }) => {
      const [row] = await tx
        .insert(blogPosts)
        .values({ ...values, authorId: admin.id })
        .returning({ id: blogPosts.id });
      await audit(tx, {
        actorId: admin.id,
        action: 'blog.create',
        targetType: AUDIT_TARGET,
        targetId: row!.id,
        details: { title: values.title },
      });
      return row!.id;
    });
    return this.adminGet(id);
  }

  async update(admin: UserRow, id: string, input: PostInput): Promise<BlogAdminPost> {
    const found = await this.find(id);
    if (!found) throw notFound(BLOG_MESSAGES.notFound);
    const values = await this.fields(admin, input, found.post.cover);
    await this.deps.platform.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx
        .update(blogPosts)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(blogPosts.id, id))
        .returning({ status: blogPosts.status });
      // Deleted by another admin in between.
      if (!row) throw notFound(BLOG_MESSAGES.notFound);
      await audit(tx, {
        actorId: admin.id,
        action: 'blog.update',
        targetType: AUDIT_TARGET,
        targetId: id,
        details: { title: values.title },
      });
      // A published article changes for guests at once, on every instance.
      if (row.status === 'published') pagesChanged(outbox);
    });
    return this.adminGet(id);
  }

  /** Publishes a draft (its date is now) or takes a published post back to drafts. */
  async setStatus(admin: UserRow, id: string, status: BlogStatus): Promise<BlogAdminPost> {
    const found = await this.find(id);
    if (!found) throw notFound(BLOG_MESSAGES.notFound);
    await this.deps.platform.withTx(userActor(admin), async ({ tx, outbox }) => {
      const from: BlogStatus = status === 'published' ? 'draft' : 'published';
      const [row] = await tx
        .update(blogPosts)
        .set({ status, publishedAt: status === 'published' ? sql`now()` : null, updatedAt: new Date() })
        .where(and(eq(blogPosts.id, id), eq(blogPosts.status, from)))
        .returning({ id: blogPosts.id });
      if (!row)
        throw cannotChange(status === 'published' ? BLOG_MESSAGES.alreadyPublished : BLOG_MESSAGES.alreadyDraft);
      await audit(tx, {
        actorId: admin.id,
        action: status === 'published' ? 'blog.publish' : 'blog.unpublish',
        targetType: AUDIT_TARGET,
        targetId: id,
        details: { title: found.post.title },
      });
      pagesChanged(outbox);
    });
    return this.adminGet(id);
  }

  async remove(admin: UserRow, id: string): Promise<{ _id: string }> {
    if (!isUuid(id)) throw notFound(BLOG_MESSAGES.notFound);
    await this.deps.platform.withTx(userActor(admin), async ({ tx, outbox }) => {
      const [row] = await tx
        .delete(blogPosts)
        .where(eq(blogPosts.id, id))
        .returning({ title: blogPosts.title, status: blogPosts.status });
      if (!row) throw notFound(BLOG_MESSAGES.notFound);
      await audit(tx, {
        actorId: admin.id,
        action: 'blog.delete',
        targetType: AUDIT_TARGET,
        targetId: id,
        details: { title: row.title },
      });
      if (row.status === 'published') pagesChanged(outbox);
    });
    return { _id: id };
  }

  /** Published posts for the sitemap: id and last change. */
  async sitemapEntries(): Promise<{ id: string; updatedAt: Date }[]> {
    return this.db
      .select({ id: blogPosts.id, updatedAt: blogPosts.updatedAt })
      .from(blogPosts)
      .where(eq(blogPosts.status, 'published'))
      .orderBy(desc(blogPosts.publishedAt));
  }
}
