import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { open, type CityResponse, type Reader } from 'maxmind';
import type { Logger } from 'pino';

// The city a sign-in comes from (ADR 059): an operator's MaxMind-format City database (GeoLite2-City, DB-IP's
// IP to City Lite), read once at start into memory, looked up per sign-in. Never the network: without a database, or
// with one that cannot be read, every answer is null and the sessions show their network alone.

/** A database's name longer than this is cut: the file is the operator's, the page and the letter show the name. */
const NAME_MAX = 80;

/** Networks no database places truthfully: private, loopback, link-local, shared (carrier-grade NAT), unspecified. */
const LOCAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  LOCAL.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  LOCAL.addSubnet(net, bits, 'ipv6');
}

/** Where an address is, as the sessions show it («Москва, Россия»); null when unknown. */
export interface GeoIp {
  place(ip: string | null | undefined): Promise<string | null>;
}

/** The address to look up, an IPv4-mapped IPv6 one as IPv4; null for no address and for a private or local one. */
export function publicAddress(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  if (isIPv4(address)) return LOCAL.check(address, 'ipv4') ? null : address;
  if (isIPv6(address)) return LOCAL.check(address, 'ipv6') ? null : address;
  return null;
}

/** The Russian name of a record, else the English one; trimmed and bounded. */
function nameOf(record: { names?: { ru?: unknown; en?: unknown } } | undefined): string | null {
  // The file is the operator's: a name that is not a string counts as none.
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const name = text(record?.names?.ru) || text(record?.names?.en);
  return name ? name.slice(0, NAME_MAX) : null;
}

/** «Город, Страна» of a City record; the country alone when the city is unknown; null when neither is known. */
export function placeName(record: CityResponse | null | undefined): string | null {
  if (!record) return null;
  const parts = [nameOf(record.city), nameOf(record.country)].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join(', ') : null;
}

/** What `openGeoIp` needs of a logger. */
export type GeoIpLog = Pick<Logger, 'info' | 'warn'>;

/**
 * The GeoIP lookup of the database at `file` (GEOIP_DB), read once, now, in the background; none when `file` is
 * unset. A missing or unreadable file logs one warning and leaves every lookup null: the app runs without it.
 */
export function openGeoIp(file: string | undefined, log: GeoIpLog): GeoIp {
  if (!file) return { place: async () => null };
  const reader: Promise<Reader<CityResponse> | null> = open<CityResponse>(file).then(
    (db) => {
      log.info({ file, type: db.metadata.databaseType, built: db.metadata.buildEpoch }, 'GeoIP database loaded: sessions show the city');
      return db;
    },
    (err: unknown) => {
      log.warn({ file, err: err instanceof Error ? err.message : String(err) }, 'GEOIP_DB cannot be read: sessions show the network only');
      return null;
    },
  );
  return {
    async place(ip) {
      const db = await reader;
      const address = publicAddress(ip);
      if (!db || !address) return null;
      try {
        return placeName(db.get(address));
      } catch {
        // A damaged data section throws on the records it reaches; the sign-in goes on without the city.
        return null;
      }
    },
  };
}
