import { Turnstile } from '../../lib/turnstile.ts';
import { defineModule } from '../../platform/module.ts';
import { AuthService } from './service.ts';
import { authRoutes } from './routes.ts';
import { TwoFactorService } from './two-factor.ts';
import { PurposeTokens } from './purpose-tokens.ts';

declare module '../../platform/module.ts' {
  interface Services {
    auth: AuthService;
    /** The second factor (ADR 054): TOTP, recovery codes, step-up and the admin gate. */
    twoFactor: TwoFactorService;
  }
}

export const authModule = defineModule({
  name: 'auth',
  create: ({ db, env, log, services: { tokens, platform, letters, limiter, realtime, settings } }) => {
    const twoFactor = new TwoFactorService({
      db,
      withTx: platform.withTx,
      letters,
      limiter,
      settings,
      tokens: new PurposeTokens(env.JWT_SECRET),
      // Called only once both are made.
      account: {
        checkCurrentPassword: (user, password, field) => auth.checkCurrentPassword(user, password, field),
        revokeSessions: (userId) => auth.revokeSessions(userId),
      },
    });
    const auth: AuthService = new AuthService({
      db,
      tokens,
      withTx: platform.withTx,
      letters,
      limiter,
      log,
      twoFactor,
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
    });
    return { auth, twoFactor };
  },
  routes: (app, { services: { auth, twoFactor }, reads }) => app.register(authRoutes, { auth, twoFactor, reads }),
});
