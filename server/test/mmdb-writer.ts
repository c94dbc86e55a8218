import { isIPv4 } from 'node:net';

// A MaxMind DB writer for tests only (ADR 059): no GeoIP database ships on npm or Debian small enough for a fixture,
// so the tests build theirs from a few networks. It follows «MaxMind DB File Format Specification 2.0»: an IPv6
// search tree of 24-bit records with IPv4 under ::/96 (as GeoLite2-City keeps it), the 16 zero bytes, the data
// section, and the metadata map after its marker. Enough of the data types for City records: maps, arrays, UTF-8
// strings, unsigned integers, doubles and booleans. Written for clarity, not size (no shared data, no pointers).

export type MmdbValue = string | number | boolean | MmdbValue[] | { [key: string]: MmdbValue } | Uint;

/** An unsigned integer of a width the metadata's fields require (uint16, uint32, uint64). */
export class Uint {
  constructor(
    readonly type: 5 | 6 | 9,
    readonly value: number,
  ) {}
}
const uint16 = (n: number) => new Uint(5, n);
const uint32 = (n: number) => new Uint(6, n);
const uint64 = (n: number) => new Uint(9, n);

/** A network («81.2.69.0/24», «2a02:6b8::/32») and the record an address in it answers. */
export interface MmdbNetwork {
  network: string;
  data: { [key: string]: MmdbValue };
}

/** The control byte(s) of a field: its type (extended types after a zero type) and its size. */
function control(type: number, size: number): Buffer {
  let sizeBits: number;
  let extra: number[];
  if (size < 29) [sizeBits, extra] = [size, []];
  else if (size < 29 + 256) [sizeBits, extra] = [29, [size - 29]];
  else if (size < 285 + 65_536) [sizeBits, extra] = [30, [(size - 285) >> 8, (size - 285) & 0xff]];
  else [sizeBits, extra] = [31, [((size - 65_821) >> 16) & 0xff, ((size - 65_821) >> 8) & 0xff, (size - 65_821) & 0xff]];
  const head = type <= 7 ? [(type << 5) | sizeBits] : [sizeBits, type - 7];
  return Buffer.from([...head, ...extra]);
}

/** The fewest big-endian bytes holding `n` (none for zero). */
function uintBytes(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = BigInt(n); v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Buffer.from(bytes);
}

/** One value in the data section's encoding. */
export function encode(value: MmdbValue): Buffer {
  if (value instanceof Uint) {
    const bytes = uintBytes(value.value);
    return Buffer.concat([control(value.type, bytes.length), bytes]);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) return encode(uint32(value));
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(3, 8), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

/** The 128 bits of an address, an IPv4 one as ::a.b.c.d (IPv4 lives under ::/96 in an IPv6 tree). */
function bitsOf(address: string): number[] {
  const bytes = Buffer.alloc(16);
  if (isIPv4(address)) {
    address.split('.').forEach((o, i) => (bytes[12 + i] = Number(o)));
  } else {
    const [head = '', tail] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
    groups.forEach((g, i) => bytes.writeUInt16BE(parseInt(g, 16), i * 2));
  }
  return [...bytes].flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((s) => (b >> s) & 1));
}

interface Node {
  children: [Slot, Slot];
}
/** A record: another node, a record in the data section (its offset there), or nothing. */
type Slot = { node: Node } | { data: number } | null;

/**
 * A City database of `networks`. A network inside another one must come after it (the wider one is split around
 * it); `languages` is what the metadata says the names are in.
 */
export function writeMmdb(networks: MmdbNetwork[], opts: { databaseType?: string; languages?: string[] } = {}): Buffer {
  const root: Node = { children: [null, null] };
  const data: Buffer[] = [];
  let dataSize = 0;
  for (const { network, data: record } of networks) {
    const [address = '', prefix = ''] = network.split('/');
    const length = Number(prefix) + (isIPv4(address) ? 96 : 0);
    const bits = bitsOf(address);
    const slot: Slot = { data: dataSize };
    const bytes = encode(record);
    data.push(bytes);
    dataSize += bytes.length;
    let node = root;
    for (let depth = 0; depth < length - 1; depth++) {
      const bit = bits[depth]!;
      const here = node.children[bit] ?? null;
      if (here && 'node' in here) {
        node = here.node;
        continue;
      }
      // Empty, or a wider network's record: a node whose both halves keep what was there.
      const next: Node = { children: [here, here] };
      node.children[bit] = { node: next };
      node = next;
    }
    node.children[bits[length - 1]!] = slot;
  }

  // Nodes numbered breadth-first, the root 0.
  const order: Node[] = [root];
  for (let i = 0; i < order.length; i++) {
    for (const child of order[i]!.children) if (child && 'node' in child) order.push(child.node);
  }
  const nodeCount = order.length;
  const number = new Map(order.map((n, i) => [n, i]));
  const recordOf = (slot: Slot): number => {
    if (!slot) return nodeCount;
    if ('node' in slot) return number.get(slot.node)!;
    return nodeCount + 16 + slot.data;
  };
  const tree = Buffer.alloc(nodeCount * 6);
  order.forEach((n, i) => {
    const [left, right] = n.children.map(recordOf) as [number, number];
    if (Math.max(left, right) >= 2 ** 24) throw new Error('too large for 24-bit records');
    tree.writeUIntBE(left, i * 6, 3);
    tree.writeUIntBE(right, i * 6 + 3, 3);
  });

  const metadata = encode({
    node_count: uint32(nodeCount),
    record_size: uint16(24),
    ip_version: uint16(6),
    database_type: opts.databaseType ?? 'GeoLite2-City',
    languages: opts.languages ?? ['en', 'ru'],
    binary_format_major_version: uint16(2),
    binary_format_minor_version: uint16(0),
    build_epoch: uint64(Math.floor(Date.UTC(2026, 0, 1) / 1000)),
    description: { en: 'Podryad test fixture' },
  });
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com', 'ascii')]);
  return Buffer.concat([tree, Buffer.alloc(16), ...data, marker, metadata]);
}

/** A City record as GeoLite2 has it: the city's and the country's names by language, and the country's code. */
export function cityRecord(city: Record<string, string> | null, country: Record<string, string>, isoCode: string) {
  return {
    ...(city ? { city: { geoname_id: 1, names: city } } : {}),
    country: { geoname_id: 2, iso_code: isoCode, names: country },
  };
}

/** The tests' database: London and Moscow in Russian and English, Linköping in English only, and a private network. */
export function testCityDatabase(): Buffer {
  const uk = { en: 'United Kingdom', ru: 'Великобритания' };
  const russia = { en: 'Russia', ru: 'Россия' };
  return writeMmdb([
    { network: '81.2.69.0/24', data: cityRecord({ en: 'London', ru: 'Лондон' }, uk, 'GB') },
    { network: '95.165.0.0/16', data: cityRecord({ en: 'Moscow', ru: 'Москва' }, russia, 'RU') },
    // Inside Moscow's network: a narrower one splits it.
    { network: '95.165.200.0/24', data: cityRecord({ en: 'Saint Petersburg', ru: 'Санкт-Петербург' }, russia, 'RU') },
    { network: '2a02:6b8::/32', data: cityRecord({ en: 'Moscow', ru: 'Москва' }, russia, 'RU') },
    { network: '89.160.20.0/24', data: cityRecord({ en: 'Linköping' }, { en: 'Sweden' }, 'SE') },
    { network: '46.17.0.0/16', data: cityRecord(null, russia, 'RU') },
    // A database that (wrongly) places a private network: the lookup refuses private addresses itself.
    { network: '192.168.0.0/16', data: cityRecord({ en: 'Nowhere', ru: 'Нигде' }, russia, 'RU') },
  ]);
}
