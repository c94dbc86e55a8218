import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeEmailSchema, changePasswordSchema, profileSchema, roleSwitchSchema, AUTH_MESSAGES } from '#contract/auth';
import { meSchema, okSchema } from '#contract/api';
import { ok } from '../../lib/http.ts';
import { requireUser } from '../../lib/auth.ts';
import { presentMe } from './presenter.ts';
import type { UserService } from './service.ts';

const security = [{ bearer: [] }];
const meAnswer = { response: { 200: okSchema(meSchema) } };

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService }> = async (app, { users }) => {
  app.get('/api/users/me/', { schema: { tags: ['users'], security, ...meAnswer } }, async (request) =>
    ok(presentMe(requireUser(request))),
  );

  app.patch('/api/users/me', { schema: { tags: ['users'], security, body: profileSchema, ...meAnswer } }, async (request) =>
    ok(presentMe(await users.updateProfile(requireUser(request), request.body))),
  );

  app.put(
    '/api/users/me/avatar',
    { schema: { tags: ['users'], security, body: z.object({ filePath: z.string().max(300).nullable() }), ...meAnswer } },
    async (request) => ok(presentMe(await users.setAvatar(requireUser(request), request.body.filePath))),
  );

  app.put(
    '/api/users/me/password',
    { schema: { tags: ['users'], security, body: changePasswordSchema, response: { 200: okSchema(z.string()) } } },
    async (request) => ok(await users.changePassword(requireUser(request), request.body)),
  );

  app.put('/api/users/me/email', { schema: { tags: ['users'], security, body: changeEmailSchema } }, async (request) => {
    await users.requestEmailChange(requireUser(request), request.body);
    return ok({ message: AUTH_MESSAGES.emailChangeSent });
  });

  app.put('/api/users/me/role', { schema: { tags: ['users'], security, body: roleSwitchSchema, ...meAnswer } }, async (request) =>
    ok(presentMe(await users.switchRole(requireUser(request), request.body.role))),
  );

  app.post('/api/users/me/become-seller', { schema: { tags: ['users'], security, ...meAnswer } }, async (request) =>
    ok(presentMe(await users.becomeSeller(requireUser(request)))),
  );
};
