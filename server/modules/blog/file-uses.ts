import { sql } from 'drizzle-orm';
import { blogPosts } from './schema.ts';
import { defineFileUse, namesFile } from '../../platform/files.ts';

// Files this module keeps (ADR 041): a post's cover and the pictures of its article (ADR 037), public.
export const blogFileUses = [
  defineFileUse({
    what: 'blog covers and article pictures',
    // The Markdown source names the article's pictures as its html does, which is rendered from it.
    columns: [blogPosts.cover, blogPosts.body, blogPosts.html],
    // The article names a picture by its url (the first form).
    names: (file) =>
      sql`exists (select 1 from ${blogPosts} where ${namesFile(blogPosts.cover, file)} or strpos(${blogPosts.html}, (${file})[1]) > 0)`,
    readers: 'everyone',
  }),
];
