import type { FastifyPluginAsync } from 'fastify';
import { AUTH_MESSAGES } from '#contract/auth';
import { STEP_UP_COOKIE, STEP_UP_SECONDS } from '#contract/two-factor';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { AuthService } from './service.ts';
import type { TwoFactorService } from './two-factor.ts';

export const authRoutes: FastifyPluginAsync<{ auth: AuthService; twoFactor: TwoFactorService; reads: ReadHandlers }> = async (app, { auth, twoFactor, reads }) => {
  const { on, raw } = endpointsOf(app, reads);

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

  // The second factor (ADR 054).
  on('auth.loginTwoFactor', async ({ body, ip, userAgent }) => ok(await auth.loginTwoFactor(body.challenge, body.code, ip, userAgent ?? null)));

  // The step-up rides in an httpOnly cookie for the site's pages, and in the answer for other clients (X-Step-Up).
  raw('auth.stepUp', async ({ user, body }, { request, reply }) => {
    const answer = await twoFactor.stepUp(user, body.code);
    reply.setCookie(STEP_UP_COOKIE, answer.token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: '/api',
      maxAge: STEP_UP_SECONDS,
    });
    return ok(answer);
  });

  on('auth.twoFactor', async ({ user }) => ok(await twoFactor.status(user)));

  on('auth.twoFactorSetup', async ({ user, body }) => ok(await twoFactor.setup(user, body.password)));

  on('auth.twoFactorEnable', async ({ user, body }) => ok({ recovery_codes: await twoFactor.enable(user, body.code) }));

  on('auth.twoFactorDisable', async ({ user, body }) => {
    await twoFactor.disable(user, body.password, body.code);
    return ok(true as const);
  });

  on('auth.recoveryCodes', async ({ user, body }) => ok({ recovery_codes: await twoFactor.regenerateCodes(user, body.code) }));
};
