import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { negotiateCoding, Precompressed } from './precompressed.ts';

const body = JSON.stringify({ status: 200, result: Array.from({ length: 50 }, (_, i) => ({ _id: i, title: `Категория ${i}` })) });
const answer = new Precompressed(body, 'application/json; charset=utf-8');

describe('negotiateCoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.4', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['', 'identity'],
    [undefined, 'identity'],
  ] as const)('%s → %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
    // The memo answers the same the second time.
    expect(negotiateCoding(header)).toBe(coding);
  });

  it('stays bounded when every request sends a new header', () => {
    for (let i = 0; i < 1000; i++) expect(negotiateCoding(`gzip;q=0.${i % 10}, x-${i}`)).toMatch(/gzip|identity/);
  });
});

describe('Precompressed', () => {
  it('holds the same bytes in every coding, each smaller and with its own ETag', () => {
    const { br, gzip, identity } = answer.variants;
    expect(identity.body.toString()).toBe(body);
    expect(gunzipSync(gzip.body).toString()).toBe(body);
    expect(brotliDecompressSync(br.body).toString()).toBe(body);
    expect(br.body.length).toBeLessThan(gzip.body.length);
    expect(gzip.body.length).toBeLessThan(identity.body.length);
    expect(new Set([br.etag, gzip.etag, identity.etag]).size).toBe(3);
    expect(new Precompressed(body, 'application/json').variants.br.etag).toBe(br.etag);
    expect(new Precompressed(`${body} `, 'application/json').variants.br.etag).not.toBe(br.etag);
  });

  it('is fresh for If-None-Match naming this variant, weakly or in a list, or *', () => {
    const { br, gzip } = answer.variants;
    expect(Precompressed.fresh(br, br.etag)).toBe(true);
    expect(Precompressed.fresh(br, `"x", W/${br.etag}`)).toBe(true);
    expect(Precompressed.fresh(br, '*')).toBe(true);
    expect(Precompressed.fresh(br, gzip.etag)).toBe(false);
    expect(Precompressed.fresh(br, undefined)).toBe(false);
    expect(Precompressed.fresh(br, '"nope"')).toBe(false);
  });

  it('names its coding and type in the headers, and varies on Accept-Encoding', () => {
    expect(Precompressed.headers(answer, answer.variants.gzip)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
      etag: answer.variants.gzip.etag,
      vary: 'accept-encoding',
    });
    expect(Precompressed.headers(answer, answer.variants.identity)).not.toHaveProperty('content-encoding');
  });
});
