import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { ReviewService } from './service.ts';

/** The reviews endpoints (contract/endpoints/reviews.ts), the admin's removal included (app.ts guards /api/admin). */
export const reviewRoutes: FastifyPluginAsync<{ reviews: ReviewService; reads: ReadHandlers }> = async (app, { reviews, reads }) => {
  const { on } = endpointsOf(app, reads);
  const listed = <T>({ result, total, next }: { result: T[]; total: number; next: string | null }) => ({ ...ok(result, total), total, next });

  on('reviews.create', async ({ params, body, user }) => ok(await reviews.create(user, params.id, body)));
  on('reviews.answer', async ({ params, body, user }) => ok(await reviews.answer(user, params.id, body)));
  on('reviews.mine', async ({ query, user }) => listed(await reviews.mine(user, query)));
  on('reviews.pending', async ({ user }) => ok(await reviews.pending(user)));
  on('reviews.ofService', async ({ params, query, user }) => listed(await reviews.ofService(params.id, query, user)));
  on('reviews.ofUser', async ({ params, query, user }) => listed(await reviews.ofUser(params.id, query, user)));
  on('admin.reviews.remove', async ({ params, user }) => ok(await reviews.adminRemove(user, params.id)));
};
