import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server.ts';
import { createTestDatabase } from '../test/database.ts';
import { testEnv } from '../test/app.ts';
import { serviceUrl } from '../test/services.ts';
import { createUser } from '../db/factories.ts';
import { createSession } from '../platform/sessions.ts';
import { redisPrefix } from '../platform/deployment.ts';
import { withTimeout } from '../lib/timeout.ts';

// Two instances over one database and one Redis: an event emitted by one reaches a socket held by the other.
const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: RunningServer;
let b: RunningServer;

describe.skipIf(!redisUrl)('several instances with REDIS_URL', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = () => testEnv({ PORT: '0', HOST: '127.0.0.1', REDIS_URL: redisUrl!, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-redis-')) });
    a = await startServer(env(), pino({ level: 'silent' }), { database });
    b = await startServer(env(), pino({ level: 'silent' }), { database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('fans an event out to a socket connected to the other instance, and drops it from there too', async () => {
    const user = await createUser(database.db);
    const token = await a.app.services.tokens.sign(user);
    const socket: Socket = connect(b.url, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const received = new Promise((resolve) => socket.once('delete_chat', resolve));
    // Give the adapter's subscription a moment to settle before publishing.
    await new Promise((r) => setTimeout(r, 200));
    a.realtime.emitToUsers([user.id], 'delete_chat', { id: 'from-a' });
    expect(await received).toEqual({ id: 'from-a' });

    const dropped = new Promise((resolve) => socket.once('disconnect', resolve));
    a.realtime.disconnectUser(user.id);
    expect(await dropped).toBe('io server disconnect');
    // Its polling connection released, so that the instances' close does not wait out its grace period.
    socket.close();
  });

  it("ends one session's sockets on the other instance, and every socket but one session's (ADR 055)", async () => {
    const user = await createUser(database.db);
    const open = async () => {
      const session = await createSession(database.db, user.id, { ip: '203.0.113.9', userAgent: null });
      const token = await a.app.services.tokens.sign(user, 3600, session.id);
      const socket: Socket = connect(b.url, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      return { id: session.id, socket };
    };
    const [one, two, three] = [await open(), await open(), await open()];
    await new Promise((r) => setTimeout(r, 200));
    const oneDropped = new Promise((resolve) => one.socket.once('disconnect', resolve));
    a.realtime.disconnectSession(one.id);
    expect(await oneDropped).toBe('io server disconnect');
    const twoDropped = new Promise((resolve) => two.socket.once('disconnect', resolve));
    a.realtime.disconnectUser(user.id, three.id);
    expect(await twoDropped).toBe('io server disconnect');
    await new Promise((r) => setTimeout(r, 200));
    expect(three.socket.connected).toBe(true);
    for (const s of [one, two, three]) s.socket.close();
  });

  it('keeps two deployments on one Redis apart: their own prefixes, no event or signal crosses (ADR 061)', async () => {
    // Another deployment: its own database (so its own id, and prefix), two instances of its own.
    const other = await createTestDatabase();
    const env = () => testEnv({ PORT: '0', HOST: '127.0.0.1', REDIS_URL: redisUrl!, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-redis-')) });
    const c = await startServer(env(), pino({ level: 'silent' }), { database: other });
    const d = await startServer(env(), pino({ level: 'silent' }), { database: other });
    const sockets: Socket[] = [];
    try {
      const [mine, theirs] = [await redisPrefix(database.db, undefined), await redisPrefix(other.db, undefined)];
      expect(mine).toMatch(/^podryad:[0-9a-f-]{36}:$/);
      expect(theirs).toMatch(/^podryad:[0-9a-f-]{36}:$/);
      expect(mine).not.toBe(theirs);
      expect(await redisPrefix(other.db, 'chosen:')).toBe('chosen:');

      // One person id in both deployments, a socket on the second instance of each.
      const user = await createUser(database.db);
      await createUser(other.db, { id: user.id });
      const open = async (server: RunningServer, token: string) => {
        const socket: Socket = connect(server.url, { transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
        sockets.push(socket);
        const connected = new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        });
        await withTimeout(connected, 10_000, 'a socket did not connect');
        return socket;
      };
      const here = await open(b, await a.app.services.tokens.sign(user));
      const there = await open(c, await d.app.services.tokens.sign(user));
      await new Promise((r) => setTimeout(r, 200));
      const firstThere = new Promise((resolve) => there.once('delete_chat', resolve));
      const signalled: string[] = [];
      c.realtime.onOtherInstances('routeRulesChanged', () => signalled.push('c'));
      b.realtime.onOtherInstances('routeRulesChanged', () => signalled.push('b'));

      // The first deployment's event reaches its own other instance (published and delivered through Redis) ...
      const gotHere = new Promise((resolve) => here.once('delete_chat', resolve));
      a.realtime.emitToUsers([user.id], 'delete_chat', { id: 'from-a' });
      a.realtime.toOtherInstances('routeRulesChanged');
      // Each wait is bounded, so that a lost event fails here, naming itself, not at the test's timeout.
      expect(await withTimeout(gotHere, 10_000, "the first deployment's event did not reach its other instance")).toEqual({ id: 'from-a' });
      await expect.poll(() => signalled).toContain('b');
      // ... then the second's: Redis delivers publishes in order, so had the first crossed, it would come first.
      d.realtime.emitToUsers([user.id], 'delete_chat', { id: 'from-d' });
      expect(await withTimeout(firstThere, 10_000, "the second deployment's event did not reach its other instance")).toEqual({ id: 'from-d' });
      expect(signalled).toEqual(['b']);
    } finally {
      for (const socket of sockets) socket.close();
      await c.close();
      await d.close();
      await other.drop();
    }
  }, 60_000);
});
