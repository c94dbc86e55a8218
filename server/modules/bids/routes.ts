import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { BidService } from './service.ts';

/** The bids endpoints (contract/endpoints/bids.ts). */
export const bidRoutes: FastifyPluginAsync<{ bids: BidService; reads: ReadHandlers }> = async (app, { bids, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('users.myBid', async ({ params, user }) => ok(await bids.myBid(user, params.id)));
  on('bids.flag', async ({ user }) => ok(await bids.flag(user)));
  on('bids.clearFlag', async ({ user }) => ok(await bids.clearFlag(user)));

  on('bids.create', async ({ params, body, user, ip }) => ok(await bids.create(user, params.id, body, ip)));
  on('bids.ofProject', async ({ params, query, user }) => {
    const { result, total, next } = await bids.ofProject(user, params.id, query);
    return { ...ok(result, total), next };
  });
  on('bids.mine', async ({ query, user }) => {
    const { result, total, next } = await bids.mine(user, query);
    return { ...ok(result, total), next };
  });
  on('bids.received', async ({ query, user }) => {
    const { result, total, next } = await bids.received(user, query);
    return { ...ok(result, total), next };
  });
  on('bids.update', async ({ params, body, user }) => ok(await bids.update(user, params.id, body)));
  on('bids.withdraw', async ({ params, user }) => ok(await bids.withdraw(user, params.id)));
  on('bids.accept', async ({ params, body, user }) => ok(await bids.accept(user, params.id, body)));

  on('admin.bids.list', async ({ query }) => {
    const { result, total, next } = await bids.adminList(query);
    return { ...ok(result, total), next };
  });
  on('admin.bids.remove', async ({ params, user }) => {
    await bids.adminRemove(user, params.id);
    return ok({ _id: params.id });
  });
};
