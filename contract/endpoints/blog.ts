import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import {
  blogAdminPostAnswerSchema,
  blogIdParams,
  blogPageQuerySchema,
  blogPageSchema,
  blogPostAnswerSchema,
  blogPostInputSchema,
  blogPreviewAnswerSchema,
  blogPreviewInputSchema,
  blogStatusInputSchema,
} from '../blog.ts';

const tags = ['blog'];

/**
 * The blog (ADR 037). Guests read published posts; a draft is a 404 to anyone but admins (server/modules/blog/
 * policy.ts). Admins write, preview, publish, unpublish and delete, every change audited.
 */
export const blogEndpoints = defineEndpoints({
  'blog.list': { access: 'public', tags, summary: 'Published posts, newest first, by page', query: blogPageQuerySchema, response: blogPageSchema },
  // A page lookup: a malformed id is a 404 like an unknown one.
  'blog.get': { access: 'public', tags, summary: 'One published post (a draft: admins only)', params: blogIdParams, response: blogPostAnswerSchema },
  'admin.blog.list': { access: 'admin', tags, summary: 'Every post, drafts included, last changed first', query: blogPageQuerySchema, response: blogPageSchema },
  'admin.blog.get': { access: 'admin', tags, summary: 'A post with its Markdown, for the editor', params: idParams, response: blogAdminPostAnswerSchema },
  'admin.blog.create': { access: 'admin', tags, summary: 'A new post, as a draft (audited)', body: blogPostInputSchema, response: blogAdminPostAnswerSchema },
  'admin.blog.update': {
    access: 'admin',
    tags,
    summary: "Change a post's title, description, Markdown or cover (audited); a published post changes at once",
    params: idParams,
    body: blogPostInputSchema,
    response: blogAdminPostAnswerSchema,
  },
  'admin.blog.setStatus': {
    access: 'admin',
    tags,
    summary: 'Publish a draft or take a post back to drafts (audited); guests see it at once',
    params: idParams,
    body: blogStatusInputSchema,
    response: blogAdminPostAnswerSchema,
  },
  'admin.blog.remove': { access: 'admin', tags, summary: 'Delete a post (audited)', params: idParams, response: okSchema(z.object({ _id: z.string() })) },
  'admin.blog.preview': {
    access: 'admin',
    tags,
    summary: 'Markdown rendered and sanitised as the article would show it; nothing is saved',
    body: blogPreviewInputSchema,
    response: blogPreviewAnswerSchema,
  },
});
