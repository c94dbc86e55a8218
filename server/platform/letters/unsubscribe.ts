import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '#contract/auth';

// Unsubscribe links (ADR 030): a token that switches one email preference of one person off, without signing in.
// It is `<user id>.<preference>.<HMAC-SHA256 of both under the app's secret>`, base64url: unforgeable without the
// secret, and good for that person and that preference only. It does not expire (an old letter's link still
// works) and needs no row: switching a preference off twice is harmless.

const PURPOSE = 'unsubscribe:v1';

function mac(secret: string, userId: string, kind: string): Buffer {
  return createHmac('sha256', secret).update(`${PURPOSE}\n${userId}\n${kind}`).digest();
}

export function unsubscribeToken(secret: string, userId: string, kind: NotificationKind): string {
  return `${userId}.${kind}.${mac(secret, userId, kind).toString('base64url')}`;
}

/** The person and preference a token names, or null for anything not made by unsubscribeToken with this secret. */
export function readUnsubscribeToken(secret: string, token: string): { userId: string; kind: NotificationKind } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, kind, signature] = parts as [string, string, string];
  if (!Object.hasOwn(NOTIFICATION_KINDS, kind)) return null;
  const expected = mac(secret, userId, kind);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, kind: kind as NotificationKind };
}
