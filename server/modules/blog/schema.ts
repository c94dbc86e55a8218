import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { BlogStatus } from '#contract/blog';
import { users } from '../users/schema.ts';

/**
 * Blog posts (ADR 037), written by admins in Markdown. `html` is the body rendered and sanitised on the server when
 * the post is saved (server/modules/blog/markdown.ts): pages send it as it is, Markdown never runs in a browser.
 * A draft has no published_at; unpublishing clears it (the list's order is the last publication's).
 */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    body: text('body').notNull(),
    html: text('html').notNull(),
    /** An image upload's url (/uploads/…), shown through its variants. */
    cover: text('cover'),
    status: text('status').$type<BlogStatus>().notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('blog_posts_status', sql`${t.status} in ('draft', 'published')`),
    check('blog_posts_published', sql`(${t.status} = 'published') = (${t.publishedAt} is not null)`),
    // The public list: published, newest first.
    index('blog_posts_published_idx').on(t.publishedAt.desc(), t.id.desc()).where(sql`status = 'published'`),
    index('blog_posts_updated_idx').on(t.updatedAt.desc(), t.id.desc()),
  ],
);

export type BlogPostRow = typeof blogPosts.$inferSelect;
