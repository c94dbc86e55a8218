import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { BlogService } from './service.ts';

/** The blog's endpoints (contract/endpoints/blog.ts); the admin's are under /api/admin, which app.ts guards too. */
export const blogRoutes: FastifyPluginAsync<{ blog: BlogService; reads: ReadHandlers }> = async (
  app,
  { blog, reads },
) => {
  const { on } = endpointsOf(app, reads);
  const paged = <T>({ result, total }: { result: T[]; total: number }) => ({ ...ok(result, total), total });

  on('blog.list', async ({ query }) => paged(await blog.list(query.page)));
  on('blog.get', async ({ params, user }) => ok(await blog.get(user, params.id)));
  on('admin.blog.list', async ({ query }) => paged(await blog.adminList(query.page)));
  on('admin.blog.get', async ({ params }) => ok(await blog.adminGet(params.id)));
  on('admin.blog.create', async ({ body, user }) => ok(await blog.create(user, body)));
  on('admin.blog.update', async ({ params, body, user }) => ok(await blog.update(user, params.id, body)));
  on('admin.blog.setStatus', async ({ params, body, user }) => ok(await blog.setStatus(user, params.id, body.status)));
  on('admin.blog.remove', async ({ params, user }) => ok(await blog.remove(user, params.id)));
  on('admin.blog.preview', async ({ body }) => ok(await blog.preview(body.body)));
};
