import type { BlogPostRow } from './schema.ts';
import { definePolicy, isAdmin } from '../../platform/policy.ts';
import { BLOG_MESSAGES } from '#contract/blog';

// Who may read a post (ADR 016, 037): a published one, anyone; a draft exists for admins only (a 404 to everyone
// else, the same answer as an unknown id). Writing is the admin API's, guarded by its route.

export const isPublishedPost = (p: Pick<BlogPostRow, 'status'>) => p.status === 'published';

export const blogPolicy = definePolicy<{ view: Pick<BlogPostRow, 'status'> }>(BLOG_MESSAGES.notFound, {
  view: (actor, post) => (isPublishedPost(post) || isAdmin(actor) ? 'allow' : 'hidden'),
});
