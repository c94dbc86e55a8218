import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { HttpError, ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { idempotencyKeyOf } from '../../platform/idempotency.ts';
import type { PaymentService } from './service.ts';
import type { UserRow } from '../users/index.ts';

/** A webhook's body as it came: its signature is over these bytes, not over a re-serialised object. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;
const rawBodies = new WeakMap<FastifyRequest, string>();

/** The auth module's step-up check (ADR 054), given at composition: a fresh second factor before money leaves. */
export interface StepUpPort {
  requireStepUp(user: UserRow, stepUp: string | null | undefined): Promise<void>;
}

/** The payments, finance and withdrawals endpoints (contract/endpoints/payments.ts). */

export const paymentRoutes: FastifyPluginAsync<{ payments: PaymentService; reads: ReadHandlers; stepUp: StepUpPort }> = async (app, { payments, reads, stepUp: guard }) => {
  const { on, raw } = endpointsOf(app, reads);

  on('payments.order', async ({ params, user }) => ok(await payments.orderPage(user, params.orderId)));
  on('payments.quote', async ({ body, user }) => ok(await payments.quote(user, body)));

  // The Idempotency-Key header is part of the request: the first answer to a key is stored and given again.
  raw('payments.pay', async ({ body, user }, { request, reply }) => {
    const key = idempotencyKeyOf(request.headers);
    const answer = await payments.payIdempotent(user, key, body);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(answer.status).send(answer.status === 200 ? ok(answer.body) : answer.body);
  });

  // A top-up (ADR 062) behind the same Idempotency-Key rule as paying.
  raw('payments.topUp', async ({ body, user }, { request, reply }) => {
    const key = idempotencyKeyOf(request.headers);
    const answer = await payments.topUpIdempotent(user, key, body);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(answer.status).send(answer.status === 200 ? ok(answer.body) : answer.body);
  });

  on('payments.mine', async ({ query, user }) => {
    const { result, next } = await payments.myPayments(user, query);
    return { ...ok(result), next };
  });

  // The providers' own pages (the sandbox's confirmation page).
  await app.register(payments.providers.routes, { reads });

  // Webhooks: the JSON parser of this scope keeps the raw body for the signature check.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (request, body, done) => {
      rawBodies.set(request, body as string);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new HttpError(400, 'Тело вебхука — не JSON'), undefined);
      }
    });
    const hooks = endpointsOf(scope, reads);
    hooks.raw('payments.webhook', async ({ params }, { request }) =>
      ok(await payments.webhook(params.provider, { rawBody: rawBodies.get(request) ?? '', headers: request.headers, ip: request.ip })),
    );
  });

  on('finance.balance', async ({ user }) => ok(await payments.balance(user)));
  on('finance.entries', async ({ query, user }) => {
    const { result, next } = await payments.entries(user, query);
    return { ...ok(result), next };
  });

  on('finance.selfEmployed', async ({ user }) => ok(await payments.selfEmployed(user)));
  // Where the money goes and the money leaving: each needs a fresh second factor when the person has one.
  on('finance.declareSelfEmployed', async ({ body, user, stepUp }) => {
    await guard.requireStepUp(user, stepUp);
    return ok(await payments.declareSelfEmployed(user, body));
  });
  on('withdrawals.create', async ({ body, user, stepUp }) => {
    await guard.requireStepUp(user, stepUp);
    return ok(await payments.withdraw(user, body));
  });
  // A payout out of a safe deal waiting for its card or wallet (ADR 053): new payout details, so a fresh factor too.
  on('withdrawals.details', async ({ params, body, user, stepUp }) => {
    await guard.requireStepUp(user, stepUp);
    return ok(await payments.giveDetails(user, params.id, body));
  });
  on('withdrawals.mine', async ({ query, user }) => {
    const { result, next } = await payments.myWithdrawals(user, query);
    return { ...ok(result), next };
  });

  on('admin.payments.list', async ({ query }) => {
    const { result, next } = await payments.adminPayments(query);
    return { ...ok(result), next };
  });
  on('admin.payments.provider', async ({ params }) => ok(await payments.providerView(params.id)));
  on('admin.payments.differences', async ({ query }) => ok(await payments.differences(query.limit)));
  on('admin.payments.resolveDifference', async ({ params, body, user }) => ok(await payments.resolveDifference(user, params.id, body.note)));
  on('admin.payments.applyDifference', async ({ params, user }) => ok(await payments.applyDifference(user, params.id)));
  on('admin.withdrawals.list', async ({ query }) => {
    const { result, next } = await payments.adminWithdrawals(query);
    return { ...ok(result), next };
  });
  on('admin.withdrawals.approve', async ({ params, user }) => ok(await payments.decideWithdrawal(user, params.id, 'approve')));
  on('admin.withdrawals.reject', async ({ params, body, user }) => ok(await payments.decideWithdrawal(user, params.id, 'reject', body.reason)));
};
