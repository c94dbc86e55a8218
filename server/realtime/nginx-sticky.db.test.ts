import { randomInt } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createClient } from 'redis';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server.ts';
import { createTestDatabase } from '../test/database.ts';
import { testEnv } from '../test/app.ts';
import { serviceUrl } from '../test/services.ts';
import { nginxInstalled, requestFrom, startNginx, type RunningNginx } from '../test/nginx.ts';
import { createUser } from '../db/factories.ts';
import { precompress } from '../../scripts/precompress.ts';

// docs/deploy.md's nginx configuration, run by Debian's nginx in front of two instances sharing one database
// and one Redis: long polling works through it (sticky), and a message sent through one instance reaches a
// socket that nginx pinned to the other. Behind it, a client cannot choose its address or its origin with
// forged X-Forwarded-* headers.

const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');
const nginxMissing = !nginxInstalled();

/** Stands for `build/client`: a built script and what `npm run build` writes beside it. */
const CLIENT_BUILD = mkdtempSync(path.join(tmpdir(), 'podryad-nginx-build-'));
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `слово-${i}`))};\n`;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: RunningServer;
let b: RunningServer;
let nginx: RunningNginx;
let proxy = '';
// The instances believe any loopback proxy (TRUST_PROXY=loopback), a list as broad as the clients' own addresses:
// only nginx overwriting X-Forwarded-For keeps them from choosing their address then.
const TRUST_PROXY = 'loopback';

/** One request through nginx from a loopback address of its own. */
const viaNginx = (opts: { method?: string; path: string; headers?: Record<string, string>; body?: unknown; from: string }) => requestFrom(proxy, opts);

describe.skipIf(!redisUrl || nginxMissing)('docs/deploy.md nginx in front of two instances', () => {
  beforeAll(async () => {
    // nginx's workers run as another user: the folder must be readable by all, as a build folder is.
    chmodSync(CLIENT_BUILD, 0o755);
    mkdirSync(path.join(CLIENT_BUILD, 'assets'));
    writeFileSync(path.join(CLIENT_BUILD, 'assets', 'app-1a2b3c.js'), SCRIPT);
    await precompress(CLIENT_BUILD);
    database = await createTestDatabase();
    const env = () => testEnv({ PORT: '0', HOST: '127.0.0.1', TRUST_PROXY, REDIS_URL: redisUrl!, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-nginx-')) });
    a = await startServer(env(), pino({ level: 'silent' }), { database });
    b = await startServer(env(), pino({ level: 'silent' }), { database });
    nginx = await startNginx([a.url, b.url], CLIENT_BUILD);
    proxy = nginx.url;
  });
  afterAll(async () => {
    nginx?.stop();
    await a?.close();
    await b?.close();
    await database?.drop();
    rmSync(CLIENT_BUILD, { recursive: true, force: true });
  });

  it('keeps long polling on one instance and fans messages out across instances', async () => {
    expect((await fetch(`${proxy}/api/health`)).status).toBe(200);
    const alice = await createUser(database.db);
    const bob = await createUser(database.db, { role: 'seller' });
    const bobToken = await a.app.services.tokens.sign(bob);
    const aliceToken = await a.app.services.tokens.sign(alice);

    // Bob connects through nginx: every poll of his session must reach the same instance, or it breaks.
    const socket: Socket = connect(proxy, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${bobToken}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const received: string[] = [];
    socket.on('new_message', (event: { newMessage: { message: string } }) => received.push(event.newMessage.message));

    // Alice writes once through nginx and once straight to each instance: all three reach Bob.
    for (const [base, text] of [
      [proxy, 'через nginx'],
      [a.url, 'через первый экземпляр'],
      [b.url, 'через второй экземпляр'],
    ] as const) {
      const res = await fetch(`${base}/api/messages/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${aliceToken}` },
        body: JSON.stringify({ message: text, recipient: bob.id }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    await expect.poll(() => received.sort(), { timeout: 10_000 }).toEqual(['через nginx', 'через второй экземпляр', 'через первый экземпляр'].sort());
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });

  it('counts every login through it against the one real address, whatever X-Forwarded-For the client sends', async () => {
    // An address of this test's own, so that its counters (in the shared Redis) touch no other test.
    const from = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 60; i++) {
        const res = await viaNginx({
          method: 'POST',
          path: '/api/auth/login',
          from,
          headers: { 'x-forwarded-for': `198.51.100.${i}, 127.0.0.${i + 2}`, 'x-real-ip': `203.0.113.${i}` },
          body: { email: `nobody-${from}-${i}@example.com`, password: 'wrong-password' },
        });
        statuses.push(res.status);
      }
    } finally {
      const redis = await createClient({ url: redisUrl! }).connect();
      const keys = await redis.keys(`podryad:*:rl:*${from}*`);
      if (keys.length) await redis.del(keys);
      await redis.quit();
    }
    // Wrong passwords are refused (400) until the per-address limit answers 429, and it keeps answering it.
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(429);
  });

  it('sends built files from disk with their .gz, and passes the instances\' compressed answers through', async () => {
    const gz = await viaNginx({ path: '/assets/app-1a2b3c.js', from: '127.0.0.1', headers: { 'accept-encoding': 'gzip' } });
    expect([gz.status, gz.headers['content-encoding'], gz.headers['cache-control']]).toEqual([200, 'gzip', 'public, max-age=31536000, immutable']);
    expect(gz.raw.equals(readFileSync(path.join(CLIENT_BUILD, 'assets', 'app-1a2b3c.js.gz')))).toBe(true);
    expect(gunzipSync(gz.raw).toString()).toBe(SCRIPT);
    const plain = await viaNginx({ path: '/assets/app-1a2b3c.js', from: '127.0.0.1' });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, SCRIPT]);
    expect((await viaNginx({ path: '/assets/missing.js', from: '127.0.0.1' })).status).toBe(404);

    const br = await viaNginx({ path: '/api/docs/json', from: '127.0.0.1', headers: { 'accept-encoding': 'gzip, br' } });
    expect([br.status, br.headers['content-encoding']]).toEqual([200, 'br']);
    expect(JSON.parse(brotliDecompressSync(br.raw).toString()).openapi).toMatch(/^3\./);
    const gzipped = await viaNginx({ path: '/api/docs/json', from: '127.0.0.1', headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.raw).toString()).openapi).toMatch(/^3\./);
  });

  it('takes the host and the scheme from nginx, not from forged forwarding headers', async () => {
    const res = await viaNginx({
      path: '/robots.txt',
      from: '127.0.0.1',
      headers: { host: 'podryad.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Sitemap: http://podryad.example/sitemap.xml');
  });
});
