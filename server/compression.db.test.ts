import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './test/app.ts';
import { tags } from './modules/lookups/schema.ts';
import { API_SECURITY_HEADERS } from './app.ts';
import { createUser } from './db/factories.ts';
import { createService } from './db/catalog-factories.ts';
import { DYNAMIC_COMPRESSION, SMALL_ANSWER } from './app/compress-buffered.ts';

// ADR 019: lookup lists served from memory before Fastify, pre-compressed, with ETags; dynamic JSON compressed per
// response; compressed request bodies not inflated. Through a real socket: the early answers are not Fastify's,
// so `inject` would not see them.

let t: Awaited<ReturnType<typeof createTestApp>>;
let origin: string;
let signedIn: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  signedIn = { authorization: `Bearer ${await t.app.services.tokens.sign(await createUser(t.database.db))}` };
});
afterAll(() => t.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent. */
  raw: Buffer;
  /** The bytes once the content coding is undone. */
  text: string;
}

function call(path: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(origin + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const plain = raw.length === 0 ? raw : coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode!, headers: res.headers, raw, text: plain.toString() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
/** Headers that differ per response whoever answers. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);
const stable = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_RESPONSE.has(name)));

describe('lookup lists', () => {
  it('are answered by the app once, then from memory with the same headers and bytes', async () => {
    t.app.services.lookups.invalidate();
    const first = await call('/api/categories/', { headers: BROWSER });
    const second = await call('/api/categories/', { headers: BROWSER });
    // Fastify's answer carries a request id; the early one logs nothing and has none.
    expect(first.headers['x-request-id']).toBeTruthy();
    expect(second.headers['x-request-id']).toBeUndefined();
    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers.vary).toBe('accept-encoding');
      expect(answer.headers['cache-control']).toBe('public, max-age=60');
      expect(JSON.parse(answer.text)).toMatchObject({ status: 200, result: expect.any(Array) });
    }
    expect(second.raw).toEqual(first.raw);
    expect(stable(second.headers)).toEqual(stable(first.headers));
    // The app's answer carries the headers the early answers copy, its policy included.
    expect(stable(first.headers)).toMatchObject(API_SECURITY_HEADERS);
  });

  it.each([
    ['gzip, deflate', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])('follow Accept-Encoding %s', async (accept, coding) => {
    const answer = await call('/api/cities/', { headers: accept ? { 'accept-encoding': accept } : {} });
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(Number(answer.headers['content-length'])).toBe(answer.raw.length);
    expect(JSON.parse(answer.text).status).toBe(200);
  });

  it('answer 304 to the ETag of the coding the client holds, on both paths', async () => {
    const { headers } = await call('/api/cities/', { headers: BROWSER });
    const etag = headers.etag!;
    const early = await call('/api/cities/', { headers: { ...BROWSER, 'if-none-match': etag } });
    expect([early.status, early.raw.length, early.headers.etag]).toEqual([304, 0, etag]);
    t.app.services.lookups.invalidate();
    const late = await call('/api/cities/', { headers: { ...BROWSER, 'if-none-match': etag } });
    expect([late.status, late.raw.length, late.headers['x-request-id'] !== undefined]).toEqual([304, 0, true]);
    // Another coding is other bytes: a full answer.
    expect((await call('/api/cities/', { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } })).status).toBe(200);
  });

  it('behind sign-in (tags) are never answered early: a guest gets 401 however warm the list is', async () => {
    const member = await call('/api/tag', { headers: { ...BROWSER, ...signedIn } });
    expect([member.status, member.headers['cache-control']]).toEqual([200, 'private, max-age=60']);
    const guest = await call('/api/tag', { headers: BROWSER });
    expect(guest.status).toBe(401);
    expect(guest.headers['x-request-id']).toBeTruthy();
  });

  it('show a change once the list is reloaded', async () => {
    await call('/api/tag', { headers: { ...BROWSER, ...signedIn } });
    await t.database.db.insert(tags).values({ tag: 'сжатие-тест' }).onConflictDoNothing();
    t.app.services.lookups.invalidate();
    expect((await call('/api/tag', { headers: { ...BROWSER, ...signedIn } })).text).toContain('сжатие-тест');
  });

  it('answer HEAD with the headers only, and leave other methods and query strings to the app', async () => {
    await call('/api/countries/');
    const head = await call('/api/countries/', { method: 'HEAD', headers: BROWSER });
    expect([head.status, head.raw.length, Number(head.headers['content-length']) > 0]).toEqual([200, 0, true]);
    const withQuery = await call('/api/countries/?x=1', { headers: BROWSER });
    expect(withQuery.headers['x-request-id']).toBeTruthy();
    const post = await call('/api/countries/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') });
    expect(post.status).toBe(404);
    expect(post.headers['x-request-id']).toBeTruthy();
  });
});

describe('dynamic answers', () => {
  it('are compressed over 1 KiB when the client accepts it, and left alone when it does not', async () => {
    const compressed = await call('/api/docs/json', { headers: BROWSER });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(JSON.parse(compressed.text).openapi).toMatch(/^3\./);
    expect(compressed.raw.length).toBeLessThan(compressed.text.length / 3);
    const plain = await call('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(compressed.text);
    // Small answers are not worth a compressor.
    expect((await call('/api/health', { headers: BROWSER })).headers['content-encoding']).toBeUndefined();
  });

  it('whole in memory, are compressed in one piece: the coding negotiated, its length told, Vary kept', async () => {
    const plain = await call('/api/docs/json');
    // Over @fastify/compress's synchronous limit, which would have streamed it (no length, chunked).
    expect(plain.raw.length).toBeGreaterThan(64 * 1024);
    for (const [accept, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'gzip'],
      ['x-gzip', 'gzip'],
      ['identity', undefined],
      ['deflate', undefined],
    ] as const) {
      const answer = await call('/api/docs/json', { headers: { 'accept-encoding': accept } });
      expect(answer.headers['content-encoding'], accept).toBe(coding);
      expect(answer.text, accept).toBe(plain.text);
      expect(answer.headers['content-length'], accept).toBe(String(answer.raw.length));
      expect(answer.headers['transfer-encoding'], accept).toBeUndefined();
      if (coding) expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
      // Over SMALL_ANSWER's size: brotli's quality 4.
      if (coding === 'br') expect(answer.raw.equals(brotliCompressSync(plain.raw, DYNAMIC_COMPRESSION.brotliOptions))).toBe(true);
    }
    // Asked not to.
    expect((await call('/api/docs/json', { headers: { ...BROWSER, 'x-no-compression': '1' } })).headers['content-encoding']).toBeUndefined();
  });

  it('small, are compressed at brotli quality 3, a large one at 4: the same negotiation, length and bytes', async () => {
    const seller = await createUser(t.database.db, { role: 'seller' });
    for (let n = 0; n < 12; n++) await createService(t.database.db, seller.id);
    const path = '/api/services?limit=12';
    const plain = await call(path);
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.text).result).toHaveLength(12);
    expect(plain.raw.length).toBeGreaterThan(1024);
    expect(plain.raw.length).toBeLessThanOrEqual(SMALL_ANSWER.bytes);
    for (const [accept, coding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const answer = await call(path, { headers: { 'accept-encoding': accept } });
      expect(answer.headers['content-encoding'], accept).toBe(coding);
      expect(answer.text, accept).toBe(plain.text);
      expect(answer.headers['content-length'], accept).toBe(String(answer.raw.length));
      if (coding) expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
      if (coding === 'br') expect(answer.raw.equals(brotliCompressSync(plain.raw, SMALL_ANSWER.brotliOptions))).toBe(true);
    }
  });

  it('do not inflate a compressed request body: a clear 4xx, nothing done', async () => {
    const body = gzipSync(JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(12) }));
    const answer = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', origin },
      body,
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.parse(answer.text).message).toMatch(/[а-яё]/i);
  });
});
