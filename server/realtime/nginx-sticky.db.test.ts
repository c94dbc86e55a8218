import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import http from 'node:http';
import { chmodSync, existsSync, mkdtempSync, rmSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import net from 'node:net';
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
import { createUser } from '../db/factories.ts';
import { precompress } from '../../scripts/precompress.ts';

// docs/deploy.md's nginx configuration, run by Debian's nginx in front of two instances sharing one database
// and one Redis: long polling works through it (sticky), and a message sent through one instance reaches a
// socket that nginx pinned to the other. Behind it, a client cannot choose its address or its origin with
// forged X-Forwarded-* headers.

const NGINX = '/usr/sbin/nginx';
const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');
const nginxMissing = !existsSync(NGINX);
if (nginxMissing) {
  const message = `nginx is not installed at ${NGINX} (apt-get install nginx)`;
  if (process.env.CI) throw new Error(`${message}: CI must run this test`);
  console.warn(`skipping: ${message}`);
}

/** Stands for `build/client`: a built script and what `npm run build` writes beside it. */
const CLIENT_BUILD = mkdtempSync(path.join(tmpdir(), 'podryad-nginx-build-'));
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `слово-${i}`))};\n`;

/** The ```nginx block of docs/deploy.md, pointed at these ports and this checkout's build. */
function deployConfig(listenPort: number, upstreamPorts: number[]): string {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deploy.md has no nginx block');
  const upstreams = upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n');
  return block
    .replace(/(upstream podryad \{[\s\S]*?ip_hash;[^\n]*\n)([\s\S]*?)( {4}keepalive)/, `$1${upstreams}\n$3`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listenPort};`)
    .replace(/root \/srv\/podryad\/build\/client;/, `root ${CLIENT_BUILD};`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: RunningServer;
let b: RunningServer;
let nginx: ChildProcess;
let proxy = '';
// The instances believe any loopback proxy (TRUST_PROXY=loopback), a list as broad as the clients' own addresses:
// only nginx overwriting X-Forwarded-For keeps them from choosing their address then.
const TRUST_PROXY = 'loopback';

/** One request through nginx from a loopback address of its own (Linux routes all of 127/8 to lo). */
function viaNginx(opts: { method?: string; path: string; headers?: Record<string, string>; body?: unknown; from: string }) {
  const { port } = new URL(proxy);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise<{ status: number; body: string; raw: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: opts.method ?? 'GET',
        path: opts.path,
        localAddress: opts.from,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: raw.toString('utf8'), raw, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

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
    const port = await freePort();
    const prefix = mkdtempSync(path.join(tmpdir(), 'podryad-nginx-conf-'));
    mkdirSync(path.join(prefix, 'logs'));
    const ports = [a, b].map((s) => Number(new URL(s.url).port));
    writeFileSync(
      path.join(prefix, 'nginx.conf'),
      `daemon off;\nworker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log warn;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n  client_body_temp_path ${prefix}/body;\n  proxy_temp_path ${prefix}/proxy;\n  fastcgi_temp_path ${prefix}/fastcgi;\n  uwsgi_temp_path ${prefix}/uwsgi;\n  scgi_temp_path ${prefix}/scgi;\n${deployConfig(port, ports)}\n}\n`,
    );
    nginx = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: 'inherit' });
    proxy = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      if ((await fetch(`${proxy}/api/health`).then((r) => r.status).catch(() => 0)) === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    nginx?.kill('SIGQUIT');
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
