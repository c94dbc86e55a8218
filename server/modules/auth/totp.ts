import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

// RFC 6238 through otpauth, the QR code through uqr (ADR 054): the parameters every authenticator app knows.

const PERIOD = 30;
const DIGITS = 6;
/** One step either side: a phone's clock a little off, or a code typed as it changed. */
const WINDOW = 1;
export const RECOVERY_CODES = 10;

/** A new shared secret: 160 bits, as RFC 4226 recommends. */
export const newSecret = () => new Secret({ size: 20 }).base32;

/** The otpauth:// link an app reads from the QR code, and the QR code itself as SVG. */
export function enrolment(secret: string, issuer: string, account: string): { uri: string; qrSvg: string } {
  const uri = new TOTP({ issuer, label: account, secret: Secret.fromBase32(secret), period: PERIOD, digits: DIGITS, algorithm: 'SHA1' }).toString();
  return { uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/** The time step a code belongs to, when it is right for `secret` at `now` (± WINDOW steps); else null. */
export function codeStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), period: PERIOD, digits: DIGITS, timestamp: now, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}

/** The code of `secret` at `now` (tests, the demo's fixtures). */
export const codeAt = (secret: string, now = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), period: PERIOD, digits: DIGITS, timestamp: now });

/** Ten recovery codes of 80 random bits each, as the person writes them down: xxxx-xxxx-xxxx-xxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => new Secret({ size: 10 }).base32.toLowerCase().replace(/(.{4})(?=.)/g, '$1-'));
}

/** A recovery code as typed (any case, with or without dashes and spaces) in its canonical form; null if not one. */
export function recoveryCodeOf(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toLowerCase();
  return /^[a-z2-7]{16}$/.test(code) ? code : null;
}

/**
 * What is stored of a recovery code: its SHA-256. A slow hash buys nothing for 80 random bits (no dictionary to try
 * first), and a fast one lets a code be found by an index-free equality on the person's ten rows.
 */
export const recoveryHash = (code: string) => createHash('sha256').update(code).digest('hex');
