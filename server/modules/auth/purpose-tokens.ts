import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** What a short-lived token of the second factor stands for (ADR 054). */
export type TokenPurpose = 'challenge' | 'step-up';

/**
 * Short-lived HS256 tokens of the second factor: a sign-in's challenge (the password was right, a code is due) and
 * a step-up (a code was given a moment ago). Signed with a key derived from the session secret for this use only,
 * so that neither can ever pass for a session token (server/lib/auth.ts) nor one purpose for the other.
 */
export class PurposeTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('podryad:two-factor-tokens:v1').digest();
  }

  async sign(purpose: TokenPurpose, user: { id: string; tokenVersion: number }, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ver: user.tokenVersion, pur: purpose })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.key);
  }

  /** The user id and token version of a valid, unexpired token of this purpose; else null. */
  async verify(purpose: TokenPurpose, token: string): Promise<{ sub: string; ver: number } | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
      if (payload.pur !== purpose || typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      return { sub: payload.sub, ver: payload.ver };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
