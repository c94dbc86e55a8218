import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server.ts';
import { redisPrefix } from '../platform/deployment.ts';
import { createTestDatabase } from '../test/database.ts';
import { testEnv } from '../test/app.ts';
import { serviceUrl } from '../test/services.ts';
import { cuttableProxy } from '../test/cuttable-proxy.ts';
import { createUser } from '../db/factories.ts';

// Issue 29: Redis goes away under an instance (here, the proxy between them is cut). The instance must stay up —
// the Socket.IO adapter's publish used to reject unheard and end the process within milliseconds — and nothing
// may wait for Redis: a sign-in's rate limit counts on this instance alone, the catalogue shows online status from
// this instance's sockets, and both answer at once. When Redis is back, the instance uses it again by itself.

const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
let server: RunningServer;
let stopped = false;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

describe.skipIf(!redisUrl)('an instance whose Redis goes away', () => {
  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    proxy = await cuttableProxy(redisUrl!);
    database = await createTestDatabase();
    server = await startServer(
      testEnv({ PORT: '0', HOST: '127.0.0.1', REDIS_URL: proxy.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-outage-')) }),
      pino({ level: 'silent' }),
      { database },
    );
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await proxy?.restore();
    if (!stopped) await server?.close();
    await database?.drop();
    await proxy?.close();
  });

  const timed = async <T>(work: () => Promise<T>) => {
    const started = Date.now();
    const result = await work();
    return { result, ms: Date.now() - started };
  };

  /** A new user's socket on the instance, connected. */
  async function signedInSocket() {
    const user = await createUser(database.db);
    const token = await server.app.services.tokens.sign(user);
    const socket: Socket = connect(server.url, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { user, socket };
  }

  it('stays up, answers sign-ins and the catalogue at once, and uses Redis again when it returns', async () => {
    const { user, socket } = await signedInSocket();
    const got: unknown[] = [];
    socket.on('delete_chat', (p) => got.push(p));

    await proxy.cut();
    // Events published during the outage: the adapter's publish fails; nothing may end the process.
    for (let i = 0; i < 20; i++) server.realtime.emitToUsers([user.id], 'delete_chat', { id: `during-${i}` });
    await new Promise((r) => setTimeout(r, 300));

    const login = await timed(() => fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-1' }) }));
    expect(login.result.status).toBe(400);
    expect(login.ms).toBeLessThan(5_000);
    const catalogue = await timed(() => fetch(`${server.url}/api/services?limit=5`));
    expect(catalogue.result.status).toBe(200);
    expect(catalogue.ms).toBeLessThan(5_000);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(unhandled).toEqual([]);
    // The local socket still gets what this instance emits itself.
    expect(got.length).toBeGreaterThan(0);

    await proxy.restore();
    // Back within 5 s: the shared rate limit counts in Redis again.
    const key = `outage-test:${Date.now()}`;
    let shared = false;
    for (let i = 0; i < 50 && !shared; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await server.app.services.limiter.hit(key, 100, 60_000);
      const { createClient } = await import('redis');
      const direct = createClient({ url: redisUrl! });
      await direct.connect();
      shared = Number(await direct.get(`${await redisPrefix(server.database.db, undefined)}rl:${key}`)) > 0;
      await direct.quit();
    }
    expect(shared).toBe(true);
    expect(unhandled).toEqual([]);
    socket.close();
  });

  it('stops within seconds while Redis is away (a deploy during an outage): no wait on a Redis answer', async () => {
    const { socket } = await signedInSocket();
    await proxy.cut();
    const stop = await timed(() => server.close());
    stopped = true;
    socket.close();
    expect(stop.ms).toBeLessThan(15_000);
    expect(unhandled).toEqual([]);
  }, 60_000);
});
