import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { STEP_UP_COOKIE, STEP_UP_SECONDS } from '#contract/two-factor';
import { ok } from '../../lib/http.ts';
import type { PublicOrigin } from '../../lib/public-origin.ts';
import { endpointsOf, type ReadHandlers } from '../../platform/endpoints.ts';
import type { UserRow } from '../users/index.ts';
import type { AuthService } from './service.ts';
import type { TwoFactorService } from './two-factor.ts';
import type { PasskeyService } from './passkeys.ts';

interface Options {
  auth: AuthService;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
  origin: PublicOrigin;
  reads: ReadHandlers;
}

/** Sets the step-up cookie for the site's pages (API clients send the answered token as X-Step-Up), ADR 054. */
export function setStepUpCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(STEP_UP_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/api',
    maxAge: STEP_UP_SECONDS,
  });
}

/**
 * Passkeys (ADR 057). The ceremonies are bound to the site's public origin (PUBLIC_URL; in tests and development
 * the request's own), its host being the relying party's id.
 */
export const passkeyRoutes: FastifyPluginAsync<Options> = async (app, { auth, twoFactor, passkeys, origin, reads }) => {
  const { on, raw } = endpointsOf(app, reads);
  // Adding or removing a passkey changes how the account is signed in to: with a factor, a step-up first.
  const stepUpFirst = (user: UserRow, stepUp: string | null | undefined) =>
    user.twoFactorAt ? twoFactor.requireStepUp(user, stepUp) : undefined;

  on('auth.passkeys', async ({ user }) => ok(await passkeys.list(user)));

  raw('auth.passkeyOptions', async ({ user, stepUp }, { request }) => {
    await stepUpFirst(user, stepUp);
    return ok(await passkeys.registrationOptions(user, origin.of(request)));
  });

  raw('auth.passkeyAdd', async ({ user, body }, { request }) =>
    ok(await passkeys.add(user, origin.of(request), body.name, body.response)),
  );

  on('auth.passkeyRemove', async ({ user, params, stepUp }) => {
    await stepUpFirst(user, stepUp);
    await passkeys.remove(user, params.id);
    return ok(true as const);
  });

  raw('auth.passkeyLoginOptions', async ({ body, ip }, { request }) =>
    ok(await passkeys.loginOptions(origin.of(request), ip, body.challenge)),
  );

  raw('auth.passkeyLogin', async ({ body, ip, userAgent }, { request }) => {
    const user = await passkeys.login(origin.of(request), ip, body.response, body.challenge);
    return ok(await auth.finishPasskeySignIn(user, ip, userAgent ?? null));
  });

  raw('auth.stepUpPasskeyOptions', async ({ user }, { request }) =>
    ok(await passkeys.stepUpOptions(user, origin.of(request))),
  );

  raw('auth.stepUpPasskey', async ({ user, body }, { request, reply }) => {
    const answer = await passkeys.stepUp(user, origin.of(request), body.response);
    setStepUpCookie(request, reply, answer.token);
    return ok(answer);
  });
};
