import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginSchema, recoverSchema, registerSchema, resetSchema, tokenBodySchema, AUTH_MESSAGES } from '#contract/auth';
import { okSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';
import type { AuthService } from './service.ts';

const tokenAnswer = { response: { 200: okSchema(z.string()) } };
const messageAnswer = { response: { 200: okSchema(z.object({ message: z.string() })) } };

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post('/api/auth/register', { schema: { tags: ['auth'], body: registerSchema, ...tokenAnswer } }, async (request) =>
    ok(await auth.register(request.body, request.ip)),
  );

  app.post('/api/auth/login', { schema: { tags: ['auth'], body: loginSchema, ...tokenAnswer } }, async (request) =>
    ok(await auth.login(request.body.email, request.body.password, request.ip)),
  );

  app.post('/api/auth/logout-all', { schema: { tags: ['auth'], security: [{ bearer: [] }] } }, async (request) => {
    await auth.revokeSessions(requireUser(request).id);
    return ok(true);
  });

  app.post('/api/auth/confirm', { schema: { tags: ['auth'], body: tokenBodySchema, ...messageAnswer } }, async (request) => {
    await auth.confirm(request.body.token);
    return ok({ message: AUTH_MESSAGES.confirmed });
  });

  app.post('/api/auth/confirm/resend', { schema: { tags: ['auth'], security: [{ bearer: [] }] } }, async (request) => {
    await auth.resendConfirmation(requireUser(request));
    return ok(true);
  });

  app.post('/api/auth/recover', { schema: { tags: ['auth'], body: recoverSchema, ...messageAnswer } }, async (request) => {
    await auth.requestReset(request.body.email, request.ip);
    return ok({ message: AUTH_MESSAGES.recoverSent });
  });

  app.post('/api/auth/reset', { schema: { tags: ['auth'], body: resetSchema, ...messageAnswer } }, async (request) => {
    await auth.resetPassword(request.body, request.ip);
    return ok({ message: AUTH_MESSAGES.passwordChanged });
  });
};
