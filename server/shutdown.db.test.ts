import http from 'node:http';
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServer } from './server.ts';
import { CLOSE_GRACE_MS } from './app.ts';
import { createTestDatabase } from './test/database.ts';
import { testEnv } from './test/app.ts';
import { JobDeferred } from './platform/dispatcher.ts';
import { outbox } from './platform/schema.ts';
import { PAGES_CHANGED_JOB } from './platform/page-cache.ts';
import { hostname } from 'node:os';

// A restart must not wait for clients: a connection busy when the server starts closing is closed once its answer
// has left, instead of idling out its keep-alive (72 s) first — Node's close() closes the idle connections once and
// waits for the others.

const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

describe('shutdown', () => {
  it('closes within seconds when a keep-alive connection was busy as it began', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = testEnv({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-shutdown-')) });
    const server = await startServer(env, pino({ level: 'silent' }), { database });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A request whose body is still coming when the server starts closing: it is answered, and its connection
      // is then idle but open (keep-alive).
      const body = JSON.stringify({ email: 'nobody@example.org', password: 'wrong-password-1' });
      // Closing starts once the request is connected and its body has begun (not after a fixed delay: on a loaded
      // machine the connection could still be on its way, and a closing server refuses a new one).
      let connected!: () => void;
      const begun = new Promise<void>((resolve) => (connected = resolve));
      const answered = new Promise<number>((resolve, reject) => {
        const req = http.request(`${server.url}/api/auth/login`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.on('socket', (socket) => (socket.connecting ? socket.once('connect', () => setTimeout(connected, 100)) : setTimeout(connected, 100)));
        req.write(body.slice(0, 10));
        setTimeout(() => req.end(body.slice(10)), 500);
      });
      await begun;

      const started = Date.now();
      const closed = server.close();
      expect(await answered).toBeGreaterThanOrEqual(400);
      await closed;
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      agent.destroy();
    }
  }, 30_000);

  it('serves a request that reaches it on a keep-alive connection as it begins closing, then closes that connection', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = testEnv({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-shutdown-')) });
    const server = await startServer(env, pino({ level: 'silent' }), { database });
    // A load balancer's upstream connection: one request answered, then idle and kept alive.
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    const request = 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n';
    socket.write(request);
    await expect.poll(() => received.includes('"alive":true'), { timeout: 5_000 }).toBe(true);
    received = '';
    // The next request arrives as the instance starts closing (SIGTERM in a rolling deploy), while its sockets and
    // chat events are still being drained (held here until the answer is in, so that the moment is certain).
    let drained = () => {};
    const chat = server.app.services.chat;
    const idle = chat.idle.bind(chat);
    chat.idle = () => new Promise<void>((resolve) => (drained = resolve)).then(idle);
    const closed = server.close();
    socket.write(request);
    await expect.poll(() => received.includes('\r\n\r\n'), { timeout: 5_000 }).toBe(true);
    drained();
    await ended;
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('"alive":true');
    expect(received).not.toContain('Service Unavailable');
  }, 30_000);

  it('cuts a connection whose request never completes after the grace time, not the request timeout', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = testEnv({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-shutdown-')) });
    const server = await startServer(env, pino({ level: 'silent' }), { database });
    const { port } = new URL(server.url);
    // Half a request: the connection is busy (never idle) until Node's request timeout, 60 s.
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    socket.on('error', () => {});
    const cut = new Promise((resolve) => (socket.once('end', resolve), socket.once('close', resolve)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(CLOSE_GRACE_MS + 3_000);
    await cut;
  }, 40_000);

  it("hands the sandbox's webhook job back once the server is closed, instead of posting it to a guessed address", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = testEnv({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-shutdown-')) });
    const server = await startServer(env, pino({ level: 'silent' }), { database });
    const desk = server.app.services.payments.providers.sandbox;
    await server.close();
    // Nothing listens on this server's address now; the address PORT=0 would be guessed as is :3000, someone else's.
    const fetched = vi.spyOn(globalThis, 'fetch');
    try {
      const job = { paymentId: 'p1', providerRef: 'sbx_1', eventId: 'evt_1', outcome: 'pay' as const, currency: 'RUB' as const, amount: 100 };
      await expect(desk.sendWebhook(job)).rejects.toBeInstanceOf(JobDeferred);
      expect(fetched).not.toHaveBeenCalled();
    } finally {
      fetched.mockRestore();
    }
  }, 30_000);

  it('a restarted instance runs at once the outbox rows its killed process had claimed, not after their lease', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    // A fixed port: the instance is its host and address (ADR 061).
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const lease = new Date(Date.now() + 2 * 60_000);
    // Claimed by this instance's killed process, and by another instance that is alive.
    const [killed, alive] = await database.db
      .insert(outbox)
      .values([
        { kind: 'job', name: PAGES_CHANGED_JOB, payload: {}, dueAt: new Date(), attempts: 1, lockedUntil: lease, leasedBy: `${hostname()}/127.0.0.1:${port}`, leasedBoot: 'killed' },
        { kind: 'job', name: PAGES_CHANGED_JOB, payload: {}, dueAt: new Date(), attempts: 1, lockedUntil: lease, leasedBy: `${hostname()}/127.0.0.1:${port + 1}`, leasedBoot: 'alive' },
      ])
      .returning();
    const env = testEnv({ PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-shutdown-')) });
    const server = await startServer(env, pino({ level: 'silent' }), { database });
    try {
      const left = async () => (await database.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id);
      await expect.poll(left, { timeout: 10_000 }).not.toContain(killed!.id);
      expect(await left()).toContain(alive!.id);
    } finally {
      await server.close();
    }
  }, 30_000);
});
