import { isIPv4, isIPv6 } from 'node:net';
import { and, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import Bowser from 'bowser';
import type { Db } from '../db/client.ts';
import type { Tx } from './tx.ts';
import { sessions, type SessionRow } from './schema.ts';

// Sessions (ADR 055): one row per sign-in on a device, named by its tokens' `sid`. The platform's, as email links
// are: the auth module opens and ends them, the request's token check (server/lib/auth.ts) reads them.

type Reader = Db | Tx;

/** A session's last_seen_at moves forward at most this often (a signed-in request older than it writes once). */
export const SESSION_SEEN_EVERY_MS = 5 * 60_000;
/** Longer User-Agent headers are cut before they are parsed: no browser sends more, and the parser's work is bounded. */
const AGENT_MAX = 512;

/** Where a sign-in comes from, as the request gives it. */
export interface ClientInfo {
  ip: string;
  userAgent?: string | null;
}

/** What a session shows of its device. */
export interface DeviceInfo {
  device: string;
  os: string;
  browser: string;
  /** Without versions: the same browser on the same device after an update is the same device. */
  deviceKey: string;
}

/** The eight groups of an IPv6 address, `::` expanded; null if it is not one. */
function ipv6Groups(ip: string): string[] | null {
  const bare = ip.split('%', 1)[0]!;
  if (!isIPv6(bare)) return null;
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const groups = (parts: string[]) => parts.flatMap((p) => (p.includes('.') ? ['v4', 'v4'] : [p]));
  const l = groups(left);
  const r = groups(right);
  const missing = tail === undefined ? 0 : 8 - l.length - r.length;
  return [...l, ...Array<string>(missing).fill('0'), ...r];
}

/**
 * The address coarsened to its network, city-level at best and never the person's own address: an IPv4 address to
 * its /24, an IPv6 one to its /48 (a site); an IPv4-mapped IPv6 address as the IPv4 one. Null when not an address.
 */
export function coarseAddress(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = ipv6Groups(ip);
  if (!groups) return null;
  const prefix = groups.slice(0, 3).map((g) => (g === 'v4' ? '0' : g.replace(/^0+(?=.)/, '').toLowerCase()));
  return `${prefix.join(':')}::/48`;
}

const PLATFORMS: Record<string, string> = {
  mobile: 'Смартфон',
  tablet: 'Планшет',
  desktop: 'Компьютер',
  tv: 'Телевизор',
  bot: 'Программа',
};

/** The device, OS and browser a User-Agent names, in Russian where it is a word of ours. */
export function describeAgent(userAgent: string | null | undefined): DeviceInfo {
  const agent = (userAgent ?? '').slice(0, AGENT_MAX).trim();
  let parsed: Bowser.Parser.ParsedResult | null;
  try {
    parsed = agent ? Bowser.parse(agent) : null;
  } catch {
    parsed = null;
  }
  const type = parsed?.platform.type ?? '';
  const model = [parsed?.platform.vendor, parsed?.platform.model].filter(Boolean).join(' ');
  const device = [PLATFORMS[type] ?? 'Устройство', model].filter(Boolean).join(' ');
  const osName = parsed?.os.name ?? '';
  const osVersion = parsed?.os.versionName ?? parsed?.os.version ?? '';
  const browserName = parsed?.browser.name ?? '';
  // The major version only: «Chrome 120», not «Chrome 120.0.6099.109».
  const browserVersion = (parsed?.browser.version ?? '').split('.', 1)[0];
  return {
    device,
    os: osName ? [osName, osVersion].filter(Boolean).join(' ') : 'Неизвестная ОС',
    browser: browserName ? [browserName, browserVersion].filter(Boolean).join(' ') : 'Неизвестный браузер',
    deviceKey: [type, model, osName, browserName].join('|').toLowerCase(),
  };
}

/**
 * Opens a session for a sign-in from `client`; `place` is where its full address is («Москва, Россия», ADR 059),
 * looked up before: the address itself is stored only coarsened.
 */
export async function createSession(db: Reader, userId: string, client: ClientInfo, place: string | null = null): Promise<SessionRow> {
  const { device, os, browser, deviceKey } = describeAgent(client.userAgent);
  const [row] = await db
    .insert(sessions)
    .values({ userId, address: coarseAddress(client.ip), place, device, os, browser, deviceKey })
    .returning();
  return row!;
}

/** Whether the person has signed in from this device (ended sessions count) before. */
export async function deviceSeen(db: Reader, userId: string, deviceKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.deviceKey, deviceKey)))
    .limit(1);
  return Boolean(row);
}

/** The person's sessions that have not ended, the most recently seen first. */
export function activeSessions(db: Reader, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Ends one of the person's sessions; false when it is not theirs or has ended already. */
export async function endSession(db: Reader, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every session of the person, or every one but `except`; answers the ids that ended. */
export async function endSessions(db: Reader, userId: string, except?: string | null): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), except ? ne(sessions.id, except) : undefined))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/** Moves last_seen_at to now, once per SESSION_SEEN_EVERY_MS however many requests race here. */
export async function touchSession(db: Reader, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, sql`now() - make_interval(secs => ${SESSION_SEEN_EVERY_MS / 1000})`)));
}

/** Every session of the person, ended ones too, for their personal-data export (ADR 052, 055). */
export function sessionsOfPerson(db: Reader, userId: string) {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      address: sessions.address,
      place: sessions.place,
      device: sessions.device,
      os: sessions.os,
      browser: sessions.browser,
      endedAt: sessions.endedAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt));
}

/** A deleted account's sessions are forgotten, ended or not (ADR 052): networks and devices are personal data. */
export async function forgetSessionsOf(tx: Reader, userId: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.userId, userId));
}
