import { Turnstile } from '../../lib/turnstile.ts';
import { defineModule } from '../../platform/module.ts';
import { AuthService } from './service.ts';
import { authRoutes } from './routes.ts';

declare module '../../platform/module.ts' {
  interface Services {
    auth: AuthService;
  }
}

export const authModule = defineModule({
  name: 'auth',
  create: ({ db, env, log, services: { tokens, platform, letters, limiter, realtime } }) => ({
    auth: new AuthService({
      db,
      tokens,
      withTx: platform.withTx,
      letters,
      limiter,
      log,
      turnstile: new Turnstile(
        {
          secret: env.TURNSTILE_SECRET,
          verifyUrl: env.TURNSTILE_VERIFY_URL,
          production: env.NODE_ENV === 'production',
          disabled: env.TURNSTILE_DISABLED,
        },
        log,
      ),
      onRevoke: (userId, exceptSession) => realtime.disconnectUser(userId, exceptSession),
      onEndSession: (sessionId) => realtime.disconnectSession(sessionId),
    }),
  }),
  routes: (app, { services: { auth }, reads }) => app.register(authRoutes, { auth, reads }),
});
