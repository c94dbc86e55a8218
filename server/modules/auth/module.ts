import { openGeoIp } from '../../lib/geoip.ts';
import { Turnstile } from '../../lib/turnstile.ts';
import { defineModule } from '../../platform/module.ts';
import { AuthService } from './service.ts';
import { authRoutes } from './routes.ts';
import { passkeyRoutes } from './passkey-routes.ts';
import { TwoFactorService } from './two-factor.ts';
import { PurposeTokens } from './purpose-tokens.ts';
import { PasskeyService } from './passkeys.ts';

declare module '../../platform/module.ts' {
  interface Services {
    auth: AuthService;
    /** The second factor (ADR 054): TOTP, recovery codes, step-up and the admin gate. */
    twoFactor: TwoFactorService;
    /** Passkeys (ADR 057): a second factor and a password-less sign-in. */
    passkeys: PasskeyService;
  }
}

export const authModule = defineModule({
  name: 'auth',
  create: ({ db, env, log, services: { tokens, platform, letters, limiter, realtime, settings } }) => {
    const purposeTokens = new PurposeTokens(env.JWT_SECRET);
    const passkeys = new PasskeyService({ db, withTx: platform.withTx, limiter, settings, tokens: purposeTokens });
    const twoFactor = new TwoFactorService({
      db,
      withTx: platform.withTx,
      letters,
      limiter,
      settings,
      tokens: purposeTokens,
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
      geoip: openGeoIp(env.GEOIP_DB, log),
    });
    return { auth, twoFactor, passkeys };
  },
  routes: async (app, { services: { auth, twoFactor, passkeys }, reads, origin }) => {
    await app.register(authRoutes, { auth, twoFactor, reads });
    await app.register(passkeyRoutes, { auth, twoFactor, passkeys, origin, reads });
  },
});
