import type { FastifyPluginAsync } from 'fastify';
import { AUTH_MESSAGES } from '#contract/auth';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { AuthService } from './service.ts';

export const authRoutes: FastifyPluginAsync<{ auth: AuthService; reads: ReadHandlers }> = async (app, { auth, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('auth.register', async ({ body, ip, userAgent }) => ok(await auth.register(body, ip, userAgent ?? null)));

  on('auth.login', async ({ body, ip, userAgent }) => ok(await auth.login(body.email, body.password, ip, userAgent ?? null)));

  on('auth.logoutAll', async ({ user }) => {
    await auth.revokeSessions(user.id);
    return ok(true as const);
  });

  // Sessions (ADR 055): the person's own; another's is 404.
  on('auth.sessions', async ({ user, sessionId }) => ok(await auth.sessions.list(user, sessionId)));

  on('auth.endSession', async ({ user, params }) => {
    await auth.sessions.end(user, params.id);
    return ok(true as const);
  });

  on('auth.endOtherSessions', async ({ user, sessionId }) => ok(await auth.endOtherSessions(user, sessionId)));

  on('auth.confirm', async ({ body }) => {
    return ok({ message: await auth.confirm(body.token) });
  });

  on('auth.resendConfirmation', async ({ user }) => {
    await auth.resendConfirmation(user);
    return ok(true as const);
  });

  on('auth.recover', async ({ body, ip }) => {
    await auth.requestReset(body.email, ip);
    return ok({ message: AUTH_MESSAGES.recoverSent });
  });

  on('auth.reset', async ({ body, ip }) => {
    await auth.resetPassword(body, ip);
    return ok({ message: AUTH_MESSAGES.passwordChanged });
  });
};
