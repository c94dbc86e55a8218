import type { FastifyPluginAsync } from 'fastify';
import { AUTH_MESSAGES } from '#contract/auth';
import { ok } from '../../lib/http.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import { presentMe } from './presenter.ts';
import type { UserService } from './service.ts';

export const userRoutes: FastifyPluginAsync<{ users: UserService; reads: ReadHandlers }> = async (app, { users, reads }) => {
  const { on } = endpointsOf(app, reads);

  on('users.me', async ({ user }) => ok(presentMe(user)));

  on('users.update', async ({ body, user }) => ok(presentMe(await users.updateProfile(user, body))));

  on('users.setAvatar', async ({ body, user }) => ok(presentMe(await users.setAvatar(user, body.filePath))));

  on('users.changePassword', async ({ body, user, sessionId, stepUp }) => ok(await users.changePassword(user, body, sessionId, stepUp)));

  on('users.changeEmail', async ({ body, user, stepUp }) => {
    await users.requestEmailChange(user, body, stepUp);
    return ok({ message: AUTH_MESSAGES.emailChangeSent });
  });

  on('users.setRole', async ({ body, user }) => ok(presentMe(await users.switchRole(user, body.role))));

  on('users.becomeSeller', async ({ user }) => ok(presentMe(await users.becomeSeller(user))));
};
