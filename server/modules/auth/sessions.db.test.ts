import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { testEnv } from '../../test/app.ts';
import { testCityDatabase } from '../../test/mmdb-writer.ts';
import { call, register, registration, PASSWORD } from '../../test/api.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { outbox, sessions } from '../../platform/schema.ts';
import { SESSION_SEEN_EVERY_MS } from '../../platform/sessions.ts';
import type { UserRow } from '../users/schema.ts';
import type { SessionView } from '#contract/auth';

// Sessions (ADR 055) through the real HTTP layer and real Socket.IO clients over long polling: the list, ending
// one (its token refused and its socket cut at once), ending the others, a password change keeping this device,
// the new-device letter once per device, and the one query's last-seen write. The app reads a GeoIP City database the
// test writes (ADR 059): an address in it is listed with its city; the tests' other addresses are in none.

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let url: string;
let db: Awaited<ReturnType<typeof createTestDatabase>>['db'];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'podryad-sessions-'));
  const geoipDb = path.join(dataDir, 'city.mmdb');
  writeFileSync(geoipDb, testCityDatabase());
  // The outbox dispatcher is not started: the letters stay in the outbox for the tests to read.
  app = await buildApp({
    env: testEnv({ DATA_DIR: dataDir, GEOIP_DB: geoipDb }),
    database,
    logger: pino({ level: 'silent' }),
    web: false,
  });
  await app.ready();
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** Signs in with the password from `userAgent` and `ip`; answers the token. */
async function signIn(user: UserRow, userAgent: string, ip = '203.0.113.9'): Promise<string> {
  const res = await call<string>(app, 'POST', '/api/auth/login', {
    body: { email: user.email, password: DEFAULT_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

const sidOf = (token: string) => decodeJwt(token).sid as string;
const me = async (token: string) => (await call(app, 'GET', '/api/users/me/', { token })).status;
const list = async (token: string) => {
  const res = await call<SessionView[]>(app, 'GET', '/api/auth/sessions', { token });
  expect(res.status).toBe(200);
  return res.body.result;
};

/** The new-device letters queued for this address. */
async function newDeviceLetters(email: string): Promise<number> {
  const rows = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, 'letter'),
        sql`${outbox.payload} ->> 'to' = ${email}`,
        sql`${outbox.payload} -> 'letter' ->> 'subject' like 'Вход с нового устройства%'`,
      ),
    );
  return rows.length;
}

function socketOf(token: string): Promise<Socket> {
  const socket = connect(url, { path: '/socket.io/', transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('the list', () => {
  it("shows each sign-in's device, OS, browser and network (coarsened), and marks this device", async () => {
    const user = await createUser(db);
    const phone = await signIn(user, IPHONE, '203.0.113.77');
    const desktop = await signIn(user, WINDOWS, '2001:db8:1234:5678::1');
    const fromPhone = await list(phone);
    expect(fromPhone).toHaveLength(2);
    // This device first, though the other one signed in later.
    const mine = fromPhone[0]!;
    expect(mine).toMatchObject({ id: sidOf(phone), device: 'Смартфон Apple iPhone', os: 'iOS 17.0', browser: 'Safari 17', address: '203.0.113.0/24', place: null });
    expect(fromPhone.find((s) => !s.current)).toMatchObject({ id: sidOf(desktop), device: 'Компьютер', os: 'Windows 10', browser: 'Chrome 120', address: '2001:db8:1234::/48' });
    // The other device sees the same two, itself as the current one.
    expect((await list(desktop)).filter((s) => s.current).map((s) => s.id)).toEqual([sidOf(desktop)]);
    // Nothing of anyone else's.
    const stranger = await createUser(db);
    expect(await list(await signIn(stranger, IPHONE))).toHaveLength(1);
  });

  it('shows the city and country of an address the GeoIP database knows, beside the network, in the list and the letter', async () => {
    const user = await createUser(db);
    const moscow = await signIn(user, WINDOWS, '95.165.12.34');
    const london = await signIn(user, IPHONE, '::ffff:81.2.69.160');
    const local = await signIn(user, MAC_FIREFOX, '192.168.1.20');
    const byId = new Map((await list(moscow)).map((s) => [s.id, s]));
    expect(byId.get(sidOf(moscow))).toMatchObject({ place: 'Москва, Россия', address: '95.165.12.0/24', current: true });
    expect(byId.get(sidOf(london))).toMatchObject({ place: 'Лондон, Великобритания', address: '81.2.69.0/24' });
    // A private address is in no one's city, whatever the database says: the network alone.
    expect(byId.get(sidOf(local))).toMatchObject({ place: null, address: '192.168.1.0/24' });
    // Only the city is kept of the address, beside its network.
    const [row] = await db.select().from(sessions).where(eq(sessions.id, sidOf(moscow)));
    expect(JSON.stringify(row)).not.toContain('95.165.12.34');
    const [letter] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.kind, 'letter'), sql`${outbox.payload} ->> 'to' = ${user.email}`, sql`${outbox.payload}::text like '%Windows%'`));
    expect((letter!.payload as { letter: { text: string } }).letter.text).toContain('Место: Москва, Россия (сеть 95.165.12.0/24).');
  });

  it('registration opens the first session, with no letter about a new device', async () => {
    const body = registration();
    const res = await register(app, body, { headers: { 'user-agent': WINDOWS } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await list(res.body.result)).toMatchObject([{ id: sidOf(res.body.result), browser: 'Chrome 120', current: true }]);
    expect(await newDeviceLetters(body.email)).toBe(0);
    // The same browser again: a device seen before.
    const again = await call<string>(app, 'POST', '/api/auth/login', { body: { email: body.email, password: PASSWORD }, headers: { 'user-agent': WINDOWS } });
    expect(again.status).toBe(200);
    expect(await newDeviceLetters(body.email)).toBe(0);
  });
});

describe('the new-device letter', () => {
  it('is sent once per device: a first sign-in from a device, not the next ones, nor after a browser update', async () => {
    const user = await createUser(db);
    await signIn(user, WINDOWS);
    expect(await newDeviceLetters(user.email)).toBe(1);
    await signIn(user, WINDOWS, '198.51.100.4');
    await signIn(user, WINDOWS.replace('Chrome/120.0.0.0', 'Chrome/121.0.0.0'));
    expect(await newDeviceLetters(user.email)).toBe(1);
    await signIn(user, IPHONE);
    expect(await newDeviceLetters(user.email)).toBe(2);
    // An ended session's device is still one seen before.
    const phone = await signIn(user, IPHONE);
    expect((await call(app, 'POST', '/api/auth/logout-all', { token: phone })).status).toBe(200);
    await signIn(user, IPHONE);
    expect(await newDeviceLetters(user.email)).toBe(2);
    const [letter] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(eq(outbox.kind, 'letter'), sql`${outbox.payload} ->> 'to' = ${user.email}`, sql`${outbox.payload}::text like '%iPhone%'`));
    const text = (letter!.payload as { letter: { text: string } }).letter.text;
    for (const part of ['Смартфон Apple iPhone, iOS 17.0', 'Safari 17', '203.0.113.0/24', 'МСК', '/profile/settings', 'смените пароль']) expect(text).toContain(part);
  });
});

describe('ending a session', () => {
  it("refuses its token at once and cuts its socket, and only its own: the other session's token and socket stay", async () => {
    const user = await createUser(db);
    const phone = await signIn(user, IPHONE);
    const desktop = await signIn(user, WINDOWS);
    const phoneSocket = await socketOf(phone);
    const desktopSocket = await socketOf(desktop);
    const cut = new Promise((resolve) => phoneSocket.once('disconnect', resolve));
    const ended = await call(app, 'DELETE', `/api/auth/sessions/${sidOf(phone)}`, { token: desktop });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(await cut).toBe('io server disconnect');
    expect(await me(phone)).toBe(401);
    expect(await me(desktop)).toBe(200);
    // Nor can the ended session's token open a socket again.
    await expect(socketOf(phone)).rejects.toThrow('unauthorized');
    await new Promise((r) => setTimeout(r, 100));
    expect(desktopSocket.connected).toBe(true);
    expect((await list(desktop)).map((s) => s.id)).toEqual([sidOf(desktop)]);
    desktopSocket.disconnect();
    // Ended once: again is 404.
    expect((await call(app, 'DELETE', `/api/auth/sessions/${sidOf(phone)}`, { token: desktop })).status).toBe(404);
  });

  it("is 404 for someone else's session, which goes on", async () => {
    const owner = await createUser(db);
    const stranger = await createUser(db);
    const ownerToken = await signIn(owner, IPHONE);
    const strangerToken = await signIn(stranger, WINDOWS);
    const res = await call(app, 'DELETE', `/api/auth/sessions/${sidOf(ownerToken)}`, { token: strangerToken });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Сеанс не найден или уже завершён');
    expect(await me(ownerToken)).toBe(200);
    expect((await call(app, 'DELETE', '/api/auth/sessions/not-a-uuid', { token: strangerToken })).status).toBe(400);
  });

  it('ends every other session, keeping this device signed in with a fresh token', async () => {
    const user = await createUser(db);
    const phone = await signIn(user, IPHONE);
    const laptop = await signIn(user, MAC_FIREFOX);
    const desktop = await signIn(user, WINDOWS);
    // A token from before sessions existed: it has no session to end, and goes with the others.
    const old = await app.services.tokens.sign(user);
    const phoneSocket = await socketOf(phone);
    const desktopSocket = await socketOf(desktop);
    const cut = new Promise((resolve) => phoneSocket.once('disconnect', resolve));
    const res = await call<string>(app, 'POST', '/api/auth/sessions/end-others', { token: desktop });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = res.body.result;
    expect(sidOf(fresh)).toBe(sidOf(desktop));
    expect(await cut).toBe('io server disconnect');
    for (const token of [phone, laptop, old]) expect(await me(token)).toBe(401);
    expect(await me(fresh)).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(desktopSocket.connected).toBe(true);
    desktopSocket.disconnect();
    expect(await list(fresh)).toMatchObject([{ id: sidOf(desktop), current: true }]);
  });

  it('a password change ends the other sessions and keeps this one; «Выйти на всех устройствах» ends all', async () => {
    const user = await createUser(db);
    const phone = await signIn(user, IPHONE);
    const desktop = await signIn(user, WINDOWS);
    const res = await call<string>(app, 'PUT', '/api/users/me/password', {
      token: desktop,
      body: { current_password: DEFAULT_PASSWORD, password: 'new-secret-123', repeat_password: 'new-secret-123' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sidOf(res.body.result)).toBe(sidOf(desktop));
    expect(await me(phone)).toBe(401);
    expect(await me(res.body.result)).toBe(200);
    expect((await list(res.body.result)).map((s) => s.id)).toEqual([sidOf(desktop)]);

    expect((await call(app, 'POST', '/api/auth/logout-all', { token: res.body.result })).status).toBe(200);
    expect(await me(res.body.result)).toBe(401);
    const open = await db.select().from(sessions).where(and(eq(sessions.userId, user.id), sql`${sessions.endedAt} is null`));
    expect(open).toEqual([]);
  });
});

describe('last seen', () => {
  it('moves forward once it is a few minutes old, not on every request', async () => {
    const user = await createUser(db);
    const token = await signIn(user, IPHONE);
    const seen = async () => (await db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, sidOf(token))))[0]!.at.getTime();
    const recent = new Date(Date.now() - 60_000);
    await db.update(sessions).set({ lastSeenAt: recent }).where(eq(sessions.id, sidOf(token)));
    expect(await me(token)).toBe(200);
    expect(await seen()).toBe(recent.getTime());
    const stale = new Date(Date.now() - SESSION_SEEN_EVERY_MS - 60_000);
    await db.update(sessions).set({ lastSeenAt: stale }).where(eq(sessions.id, sidOf(token)));
    expect(await me(token)).toBe(200);
    expect(await seen()).toBeGreaterThan(Date.now() - 10_000);
  });

  it("refuses a token naming another person's session, or one that does not exist", async () => {
    const owner = await createUser(db);
    const other = await createUser(db);
    const ownerToken = await signIn(owner, IPHONE);
    const forged = await app.services.tokens.sign(other, 3600, sidOf(ownerToken));
    expect(await me(forged)).toBe(401);
    expect(await me(await app.services.tokens.sign(owner, 3600, '00000000-0000-4000-8000-000000000000'))).toBe(401);
  });
});
