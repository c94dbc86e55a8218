import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_HEADERS, SECURITY_HEADERS } from '../server/app/security.ts';
import { DESKTOP_USER_AGENT, startTestServer, type TestServer } from './fixtures.ts';

// ADR 019: the build writes a .br and a .gz beside every compressible asset, the server sends those files as they are,
// and rendered pages and their data requests are compressed per response.

const client = path.resolve(import.meta.dirname, '..', 'build', 'client');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(server.url + url, { headers: { 'user-agent': DESKTOP_USER_AGENT, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

describe('built assets', () => {
  it('have a smaller .br and .gz beside every compressible file of 1 KiB or more', () => {
    const files = (readdirSync(client, { recursive: true }) as string[]).filter((f) => /\.(?:js|css|json|svg)$/.test(f));
    const large = files.filter((f) => statSync(path.join(client, f)).size >= 1024);
    expect(large.length).toBeGreaterThan(10);
    for (const file of large) {
      const size = statSync(path.join(client, file)).size;
      expect(statSync(path.join(client, `${file}.br`)).size, file).toBeLessThan(size);
      expect(statSync(path.join(client, `${file}.gz`)).size, file).toBeLessThan(size);
    }
  });

  it('are sent as those files, by the coding the browser accepts, with long caching', async () => {
    const html = brotliDecompressSync((await get('/', BROWSER)).body).toString();
    // A guest's home page imports the app's entry from its (inert until used) module script (boot-on-intent.ts).
    const script = html.match(/import\("(\/assets\/[^"]+\.js)"\)/)![1]!;
    const file = path.join(client, script);
    const br = await get(script, BROWSER);
    expect([br.status, br.headers['content-encoding'], br.headers.vary]).toEqual([200, 'br', 'accept-encoding']);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.equals(readFileSync(`${file}.br`))).toBe(true);
    const gz = await get(script, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(readFileSync(file))).toBe(true);
    const plain = await get(script, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(readFileSync(file))).toBe(true);
  });
});

describe('rendered pages', () => {
  it('are compressed per response, their data requests too, and stay whole', async () => {
    const page = await get('/', BROWSER);
    expect([page.status, page.headers['content-encoding']]).toEqual([200, 'br']);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const html = brotliDecompressSync(page.body).toString();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain('</html>');
    // The security headers of the app's hooks are on the page too; a guest's page allows its scripts by hash (ADR 021).
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers['x-request-id']).toBeTruthy();
    // And the headers only a document reads, which JSON answers leave out (ADR 090).
    expect(page.headers).toMatchObject({ ...SECURITY_HEADERS, ...DOCUMENT_HEADERS });

    const gz = await get('/projects', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('</html>');

    const data = await get('/projects.data', BROWSER);
    expect([data.status, data.headers['content-encoding']]).toEqual([200, 'br']);
    expect(brotliDecompressSync(data.body).length).toBeGreaterThan(0);

    const plain = await get('/', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('</html>');
  });

  it('rendered for one request (a search) are compressed in one piece: their length told, not chunked', async () => {
    for (const [accept, coding] of [
      [BROWSER['accept-encoding'], 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const page = await get(`/projects?q=${encodeURIComponent('сайт')}`, { 'accept-encoding': accept });
      expect([page.status, page.headers['content-encoding']]).toEqual([200, coding]);
      expect(page.headers['content-length']).toBe(String(page.body.length));
      expect(page.headers['transfer-encoding']).toBeUndefined();
      expect((coding === 'br' ? brotliDecompressSync(page.body) : gunzipSync(page.body)).toString()).toContain('</html>');
    }
  });
});
