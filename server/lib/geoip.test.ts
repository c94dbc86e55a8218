import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Reader } from 'maxmind';
import { beforeAll, describe, expect, it } from 'vitest';
import { openGeoIp, publicAddress, type GeoIpLog } from './geoip.ts';
import { testCityDatabase } from '../test/mmdb-writer.ts';

// The GeoIP lookup (ADR 059) over a City database the test writes (server/test/mmdb-writer.ts): Russian names, the
// English ones when a record has no Russian, nothing for unknown and private addresses, and a missing or damaged
// file costs one warning, never a throw.

const dir = mkdtempSync(path.join(tmpdir(), 'podryad-geoip-'));
const file = path.join(dir, 'city.mmdb');

/** A logger that keeps what it was told. */
function recorder() {
  const lines: { level: 'info' | 'warn'; msg: string }[] = [];
  const log = {
    info: (_obj: unknown, msg: string) => void lines.push({ level: 'info', msg }),
    warn: (_obj: unknown, msg: string) => void lines.push({ level: 'warn', msg }),
  } as unknown as GeoIpLog;
  return { log, lines };
}

beforeAll(() => {
  writeFileSync(file, testCityDatabase());
});

describe('openGeoIp', () => {
  it('names the city and the country in Russian, the English names when there is no Russian one', async () => {
    const { log, lines } = recorder();
    const geoip = openGeoIp(file, log);
    expect(await geoip.place('81.2.69.160')).toBe('Лондон, Великобритания');
    expect(await geoip.place('95.165.12.7')).toBe('Москва, Россия');
    // A narrower network inside a wider one answers its own record.
    expect(await geoip.place('95.165.200.1')).toBe('Санкт-Петербург, Россия');
    expect(await geoip.place('2a02:6b8:0:1::5')).toBe('Москва, Россия');
    expect(await geoip.place('::ffff:81.2.69.1')).toBe('Лондон, Великобритания');
    expect(await geoip.place('89.160.20.115')).toBe('Linköping, Sweden');
    // No city in the record: the country alone.
    expect(await geoip.place('46.17.3.4')).toBe('Россия');
    expect(lines).toEqual([{ level: 'info', msg: expect.stringContaining('GeoIP database loaded') }]);
  });

  it('answers null for an address it does not know, a private or local one, and no address', async () => {
    const geoip = openGeoIp(file, recorder().log);
    for (const ip of ['8.8.8.8', '2001:db8::1', '192.168.1.10', '10.1.2.3', '127.0.0.1', '::1', 'fe80::1', '::ffff:192.168.1.10', 'not-an-ip', '', null, undefined]) {
      expect(await geoip.place(ip), String(ip)).toBeNull();
    }
  });

  it('runs without a database: unset, nothing is logged; missing or damaged, one warning, and every answer is null', async () => {
    const unset = recorder();
    expect(await openGeoIp(undefined, unset.log).place('81.2.69.160')).toBeNull();
    expect(unset.lines).toEqual([]);

    const missing = recorder();
    const none = openGeoIp(path.join(dir, 'absent.mmdb'), missing.log);
    expect(await none.place('81.2.69.160')).toBeNull();
    expect(await none.place('95.165.12.7')).toBeNull();
    expect(missing.lines).toEqual([{ level: 'warn', msg: expect.stringContaining('GEOIP_DB cannot be read') }]);

    const damaged = path.join(dir, 'damaged.mmdb');
    writeFileSync(damaged, Buffer.from('this is not a MaxMind database'.repeat(10)));
    const broken = recorder();
    expect(await openGeoIp(damaged, broken.log).place('81.2.69.160')).toBeNull();
    expect(broken.lines).toEqual([{ level: 'warn', msg: expect.stringContaining('GEOIP_DB cannot be read') }]);

    // A file cut short after its tree: the metadata is gone, so it is refused at start like any unreadable one.
    const cut = path.join(dir, 'cut.mmdb');
    writeFileSync(cut, testCityDatabase().subarray(0, 200));
    const truncated = recorder();
    expect(await openGeoIp(cut, truncated.log).place('81.2.69.160')).toBeNull();
    expect(truncated.lines.map((l) => l.level)).toEqual(['warn']);

    // Whole metadata but a damaged record (London's, the first in the data section): that lookup answers null, the
    // others still work.
    const db = testCityDatabase();
    const { searchTreeSize } = new Reader(db).metadata;
    db.fill(0xff, searchTreeSize + 16, searchTreeSize + 40);
    const spoilt = path.join(dir, 'spoilt.mmdb');
    writeFileSync(spoilt, db);
    const geoip = openGeoIp(spoilt, recorder().log);
    expect(await geoip.place('81.2.69.160')).toBeNull();
    expect(await geoip.place('95.165.12.7')).toBe('Москва, Россия');
  });
});

describe('publicAddress', () => {
  it('keeps a public address, an IPv4-mapped one as IPv4, and drops private, local and malformed ones', () => {
    expect(publicAddress('81.2.69.160')).toBe('81.2.69.160');
    expect(publicAddress('::FFFF:81.2.69.160')).toBe('81.2.69.160');
    expect(publicAddress('2a02:6b8::1')).toBe('2a02:6b8::1');
    for (const ip of ['172.16.0.1', '172.31.255.255', '100.64.0.1', '169.254.1.1', '0.0.0.0', '::', 'fc00::1', 'fd12::1', '1.2.3', '999.1.1.1']) {
      expect(publicAddress(ip), ip).toBeNull();
    }
    expect(publicAddress('172.32.0.1')).toBe('172.32.0.1');
  });
});
