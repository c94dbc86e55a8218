import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { testEnv } from '../../test/app.ts';
import { serviceUrl } from '../../test/services.ts';
import { createUser } from '../../db/factories.ts';
import { users, type UserRow } from '../users/schema.ts';
import { Tokens } from '../../lib/auth.ts';
import { memoryPresence, redisPresence, type RedisCommands } from '../../realtime/presence.ts';
import { call } from '../../test/api.ts';
import { chatRoutes } from './routes.ts';
import { ChatService } from './service.ts';
import {
  SOCKET_EVENTS,
  countersEventSchema,
  deleteChatEventSchema,
  newMessageEventSchema,
  updateMessageEventSchema,
  updateUserEventSchema,
  type Chat,
  type SentMessage,
} from '#contract/chat';
import { serverEventSchemas, type ServerEvent, type ServerEventPayload } from '#contract/events';

// Real Socket.IO clients over long polling against listening apps: what each person's sockets receive.

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

interface Instance {
  app: FastifyInstance;
  url: string;
}

/** The API with the chat routes, listening on a random port (startServer's app gets them once wired in app.ts). */
async function instance(database: Database, env: Record<string, string> = {}): Promise<Instance> {
  const app = await buildApp({
    env: testEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-chat-')), ...env }),
    database,
    logger: pino({ level: 'silent' }),
    web: false,
  });
  if (!app.hasRoute({ method: 'GET', url: '/api/chat/my' })) {
    const chat = new ChatService({ db: database.db, realtime: app.services.realtime, limiter: app.services.limiter, log: pino({ level: 'silent' }) });
    await app.register(chatRoutes, { chat, reads: new Map() });
  }
  // What app.ts should do too (see the report): drop sockets before the HTTP server waits for their long polls.
  app.addHook('preClose', () => app.services.realtime.drain());
  await app.ready();
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

interface Received {
  event: string;
  payload: unknown;
}

/** A signed-in person's socket that records every event it receives. */
class Client {
  readonly events: Received[] = [];
  private waiters: (() => void)[] = [];

  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      this.events.push({ event, payload });
      for (const w of this.waiters) w();
    });
  }

  of(event: string): unknown[] {
    return this.events.filter((e) => e.event === event).map((e) => e.payload);
  }

  /**
   * Waits for an event (already received or to come) whose payload passes `test`; each payload is checked against
   * the event's schema first (a payload that does not fit fails the wait).
   */
  waitFor<E extends ServerEvent>(event: E, test: (payload: ServerEventPayload<E>) => boolean = () => true, timeoutMs = 5000): Promise<ServerEventPayload<E>> {
    return new Promise((resolve, reject) => {
      const settle = (done: () => void) => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        done();
        return true;
      };
      const check = () => {
        try {
          for (const e of this.events) {
            if (e.event !== event) continue;
            const [payload] = serverEventSchemas[event].parse([e.payload]);
            if (test(payload)) return settle(() => resolve(payload));
          }
          return false;
        } catch (err) {
          return settle(() => reject(err));
        }
      };
      const waiter = () => void check();
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`));
      }, timeoutMs);
      if (!check()) this.waiters.push(waiter);
    });
  }

  close() {
    this.socket.disconnect();
  }
}

function open(url: string, token: string | null): Promise<{ client: Client; error?: Error }> {
  const socket = connect(url, {
    path: '/socket.io/',
    transports: ['polling'],
    multiplex: false,
    reconnection: false,
    auth: token ? { token: `Bearer ${token}` } : {},
  });
  const client = new Client(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ client }));
    socket.once('connect_error', (error) => resolve({ client, error }));
  });
}

async function connected(url: string, token: string): Promise<Client> {
  const { client, error } = await open(url, token);
  if (error) throw error;
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const closers: (() => Promise<unknown> | void)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function signIn(app: FastifyInstance, db: Database['db'], role: 'customer' | 'seller' | 'admin' = 'customer') {
  const user = await createUser(db, { role });
  return { user, token: await app.services.tokens.sign(user) };
}

async function post(app: FastifyInstance, token: string, body: Record<string, unknown>): Promise<SentMessage> {
  const res = await call<SentMessage>(app, 'POST', '/api/messages/', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

describe('one instance', () => {
  let database: Database;
  let a: Instance;
  const sockets: Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await instance(database);
    closers.push(async () => {
      for (const s of sockets) s.close();
      await a.app.close();
      await database.drop();
    });
  });

  const client = async (token: string) => {
    const c = await connected(a.url, token);
    sockets.push(c);
    return c;
  };
  const person = (role?: 'customer' | 'seller' | 'admin') => signIn(a.app, database.db, role);

  it('refuses a socket with no token, a foreign token or a revoked one', async () => {
    const { user, token } = await person();
    const foreign = await new Tokens('another-secret-that-is-long-enough-for-hs256-xyz').sign(user);
    const revoked = await person();
    await database.db.update(users).set({ tokenVersion: 5 }).where(eq(users.id, revoked.user.id));
    for (const t of [null, foreign, revoked.token, `${token}x`]) {
      const { client: c, error } = await open(a.url, t);
      expect(error?.message).toBe('unauthorized');
      c.close();
    }
    (await client(token)).close();
  });

  it('new_message reaches every member\'s sockets with the chat as each sees it, nobody else\'s; get_counters the recipient', async () => {
    const alice = await person();
    const bob = await person('seller');
    const carol = await person();
    const [aliceSocket, bobSocket, bobSecond, carolSocket] = await Promise.all([client(alice.token), client(bob.token), client(bob.token), client(carol.token)]);

    const message = await post(a.app, alice.token, { message: 'Здравствуйте! Сделаете логотип?', recipient: bob.user.id });
    for (const socket of [bobSocket, bobSecond]) {
      const event = newMessageEventSchema.parse(await socket.waitFor(SOCKET_EVENTS.newMessage));
      expect(event.newMessage).toEqual(message);
      expect(event.chat).toMatchObject({ _id: message.chat_id, kind: 'direct', unseen_messages: 1, last_message: { _id: message._id } });
      expect(event.chat.members.find((m) => m._id === alice.user.id)?.online_status).toBe(true);
    }
    const own = newMessageEventSchema.parse(await aliceSocket.waitFor(SOCKET_EVENTS.newMessage));
    expect(own.chat.unseen_messages).toBe(0);

    const counters = countersEventSchema.parse(await bobSocket.waitFor(SOCKET_EVENTS.counters));
    expect(counters).toEqual({ totalUnseen: { [bob.user.id]: 1 }, chatTotalUnseen: { [bob.user.id]: 1 }, chat_id: message.chat_id });
    await sleep(300);
    expect(carolSocket.events.filter((e) => e.event !== SOCKET_EVENTS.updateUser)).toEqual([]);
    expect(aliceSocket.of(SOCKET_EVENTS.counters)).toEqual([]);
  });

  it('marking seen tells the sender (update_message per message) and sends the reader their counters', async () => {
    const alice = await person();
    const bob = await person();
    const first = await post(a.app, alice.token, { message: 'Первое', recipient: bob.user.id });
    const second = await post(a.app, alice.token, { message: 'Второе', chat_id: first.chat_id });
    const [aliceSocket, bobSocket] = await Promise.all([client(alice.token), client(bob.token)]);

    const res = await call(a.app, 'PUT', `/api/messages/${second._id}`, { token: bob.token, body: { seen: true } });
    expect(res.status).toBe(200);
    const ids = new Set<string>();
    for (const id of [first._id, second._id]) {
      ids.add(updateMessageEventSchema.parse(await aliceSocket.waitFor(SOCKET_EVENTS.updateMessage, (p) => p.id === id)).id);
    }
    expect(ids).toEqual(new Set([first._id, second._id]));
    expect(countersEventSchema.parse(await bobSocket.waitFor(SOCKET_EVENTS.counters))).toEqual({
      totalUnseen: { [bob.user.id]: 0 },
      chatTotalUnseen: { [bob.user.id]: 0 },
      chat_id: first.chat_id,
    });
    await sleep(200);
    expect(bobSocket.of(SOCKET_EVENTS.updateMessage)).toEqual([]);
    expect(aliceSocket.of(SOCKET_EVENTS.updateMessage)).toHaveLength(2);
  });

  it('a burst of messages: every new_message arrives, and the last get_counters has the final count', async () => {
    const alice = await person();
    const bob = await person();
    const first = await post(a.app, alice.token, { message: 'Начнём', recipient: bob.user.id });
    // The answer comes before the fan-out: let the first message's events go before Bob connects.
    await a.app.services.chat.idle();
    const bobSocket = await client(bob.token);
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(a.app, alice.token, i % 2 ? { message: `№${i}`, chat_id: first.chat_id } : { message: `№${i}`, recipient: bob.user.id })),
    );
    for (const m of burst) await bobSocket.waitFor(SOCKET_EVENTS.newMessage, (p) => p.newMessage._id === m._id);
    await bobSocket.waitFor(SOCKET_EVENTS.counters, (p) => p.totalUnseen[bob.user.id] === 9);
    await sleep(300);
    const counters = bobSocket.of(SOCKET_EVENTS.counters).map((p) => countersEventSchema.parse(p));
    expect(counters).toHaveLength(8);
    expect(counters.at(-1)).toEqual({ totalUnseen: { [bob.user.id]: 9 }, chatTotalUnseen: { [bob.user.id]: 9 }, chat_id: first.chat_id });
    // Never a count going back: each batch counts after the commits before it.
    const totals = counters.map((c) => c.totalUnseen[bob.user.id]!);
    expect(totals).toEqual([...totals].sort((x, y) => x - y));
    // new_message in the order the messages were stored, the chat as it is now.
    const views = bobSocket.of(SOCKET_EVENTS.newMessage).map((p) => newMessageEventSchema.parse(p));
    // Sent at once, the messages have no order but the database's (created_at, id): the chat's last message is
    // one of them, whichever event came last.
    expect(views.at(-1)!.chat.unseen_messages).toBe(9);
    expect(burst.map((m) => m._id)).toContain(views.at(-1)!.chat.last_message?._id);
  });

  it('a member who deleted the chat gets it back in new_message with only what came after', async () => {
    const alice = await person();
    const bob = await person();
    const hello = await post(a.app, alice.token, { message: 'Привет', recipient: bob.user.id });
    expect((await call(a.app, 'DELETE', `/api/chat/${hello.chat_id}`, { token: bob.token })).status).toBe(200);
    const bobSocket = await client(bob.token);
    const again = await post(a.app, alice.token, { message: 'Вы удалили чат?', recipient: bob.user.id });
    const event = newMessageEventSchema.parse(await bobSocket.waitFor(SOCKET_EVENTS.newMessage));
    expect(event.newMessage._id).toBe(again._id);
    expect(event.chat).toMatchObject({ _id: hello.chat_id, unseen_messages: 1, last_message: { _id: again._id } });
    expect(countersEventSchema.parse(await bobSocket.waitFor(SOCKET_EVENTS.counters))).toEqual({
      totalUnseen: { [bob.user.id]: 1 },
      chatTotalUnseen: { [bob.user.id]: 1 },
      chat_id: hello.chat_id,
    });
  });

  it('delete_chat goes to the deleting person\'s sockets only', async () => {
    const alice = await person();
    const bob = await person();
    const message = await post(a.app, bob.token, { message: 'Привет', recipient: alice.user.id });
    const [aliceOne, aliceTwo, bobSocket] = await Promise.all([client(alice.token), client(alice.token), client(bob.token)]);
    expect((await call(a.app, 'DELETE', `/api/chat/${message.chat_id}`, { token: alice.token })).status).toBe(200);
    for (const s of [aliceOne, aliceTwo]) expect(deleteChatEventSchema.parse(await s.waitFor(SOCKET_EVENTS.deleteChat))).toEqual({ id: message.chat_id });
    expect(countersEventSchema.parse(await aliceOne.waitFor(SOCKET_EVENTS.counters)).totalUnseen).toEqual({ [alice.user.id]: 0 });
    await sleep(200);
    expect(bobSocket.of(SOCKET_EVENTS.deleteChat)).toEqual([]);
  });

  it('update_user: online on the first socket, offline after the last, to the people who share a chat only', async () => {
    const alice = await person();
    const bob = await person();
    const carol = await person();
    const message = await post(a.app, alice.token, { message: 'Привет', recipient: bob.user.id });
    const [bobSocket, carolSocket] = await Promise.all([client(bob.token), client(carol.token)]);
    const before = new Date(Date.now() - 1000);

    const aliceOne = await client(alice.token);
    expect(updateUserEventSchema.parse(await bobSocket.waitFor(SOCKET_EVENTS.updateUser))).toEqual({ id: alice.user.id, online_status: true });
    const aliceTwo = await client(alice.token);
    const chats = (await call<Chat[]>(a.app, 'GET', '/api/chat/my', { token: bob.token })).body.result;
    expect(chats.find((c) => c._id === message.chat_id)?.members.find((m) => m._id === alice.user.id)?.online_status).toBe(true);
    expect((await a.app.services.realtime.onlineAmong([alice.user.id, carol.user.id])).has(alice.user.id)).toBe(true);

    aliceOne.close();
    await sleep(300);
    expect(bobSocket.of(SOCKET_EVENTS.updateUser)).toEqual([{ id: alice.user.id, online_status: true }]);
    aliceTwo.close();
    await bobSocket.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => !p.online_status);
    expect(bobSocket.of(SOCKET_EVENTS.updateUser)).toEqual([
      { id: alice.user.id, online_status: true },
      { id: alice.user.id, online_status: false },
    ]);
    expect(carolSocket.of(SOCKET_EVENTS.updateUser)).toEqual([]);
    expect((await a.app.services.realtime.onlineAmong([alice.user.id])).size).toBe(0);
    const [row] = await database.db.select().from(users).where(eq(users.id, alice.user.id));
    expect(row!.lastSeenAt!.getTime()).toBeGreaterThan(before.getTime());
  });

  it('a socket dropped by revocation counts as gone', async () => {
    const alice = await person();
    const bob = await person();
    await post(a.app, bob.token, { message: 'Привет', recipient: alice.user.id });
    const bobSocket = await client(bob.token);
    await client(alice.token);
    await bobSocket.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => p.online_status);
    a.app.services.realtime.disconnectUser(alice.user.id);
    expect(await bobSocket.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => !p.online_status)).toEqual({ id: alice.user.id, online_status: false });
  });
});

// Two instances over one database and one Redis.
const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');

describe.skipIf(!redisUrl)('two instances with REDIS_URL', () => {
  let database: Database;
  let a: Instance;
  let b: Instance;
  const sockets: Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await instance(database, { REDIS_URL: redisUrl! });
    b = await instance(database, { REDIS_URL: redisUrl! });
    closers.push(async () => {
      for (const s of sockets) s.close();
      await a.app.close();
      await b.app.close();
      await database.drop();
    });
  });

  const client = async (inst: Instance, token: string) => {
    const c = await connected(inst.url, token);
    sockets.push(c);
    return c;
  };
  const person = (): Promise<{ user: UserRow; token: string }> => signIn(a.app, database.db);

  it('a message posted through A reaches a socket connected to B; online status is right on both', async () => {
    const alice = await person();
    const bob = await person();
    const carol = await person();
    // Alice and Bob already share a chat, so Bob hears about Alice coming online on the other instance.
    const hello = await post(a.app, alice.token, { message: 'Привет', recipient: bob.user.id });
    const bobOnB = await client(b, bob.token);
    const carolOnB = await client(b, carol.token);
    await sleep(200); // the adapter's subscriptions settle
    const aliceOnA = await client(a, alice.token);
    expect(await bobOnB.waitFor(SOCKET_EVENTS.updateUser)).toEqual({ id: alice.user.id, online_status: true });

    for (const inst of [a, b]) {
      const online = await inst.app.services.realtime.onlineAmong([alice.user.id, bob.user.id, carol.user.id]);
      expect(online).toEqual(new Set([alice.user.id, bob.user.id, carol.user.id]));
      const list = (await call<Chat[]>(inst.app, 'GET', '/api/chat/my', { token: alice.token })).body.result;
      expect(list[0]?.members.every((m) => m.online_status)).toBe(true);
    }

    const message = await post(a.app, alice.token, { message: 'Это через инстанс A', chat_id: hello.chat_id });
    // The first message's events go out through the outbox too, and on a busy machine they may reach Bob's new
    // socket late: wait for this message's.
    const event = newMessageEventSchema.parse(await bobOnB.waitFor(SOCKET_EVENTS.newMessage, (p) => p.newMessage._id === message._id));
    expect(event.chat.unseen_messages).toBe(2);
    const counters = await bobOnB.waitFor(SOCKET_EVENTS.counters, (p) => countersEventSchema.parse(p).totalUnseen[bob.user.id] === 2);
    expect(countersEventSchema.parse(counters).totalUnseen).toEqual({ [bob.user.id]: 2 });
    expect((await aliceOnA.waitFor(SOCKET_EVENTS.newMessage)).newMessage._id).toBe(message._id);

    // Seen through B: the sender on A hears it.
    await call(b.app, 'PUT', `/api/messages/${message._id}`, { token: bob.token, body: { seen: true } });
    await aliceOnA.waitFor(SOCKET_EVENTS.updateMessage, (p) => p.id === message._id);

    // A second socket on B, then both of Alice's go: offline only after the last, seen the same from both.
    const aliceOnB = await client(b, alice.token);
    aliceOnA.close();
    await sleep(300);
    for (const inst of [a, b]) expect((await inst.app.services.realtime.onlineAmong([alice.user.id])).has(alice.user.id)).toBe(true);
    aliceOnB.close();
    expect(await bobOnB.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => !p.online_status)).toEqual({ id: alice.user.id, online_status: false });
    for (const inst of [a, b]) expect((await inst.app.services.realtime.onlineAmong([alice.user.id])).size).toBe(0);
    expect(bobOnB.of(SOCKET_EVENTS.updateUser)).toHaveLength(2);
    expect(carolOnB.events.filter((e) => e.event !== SOCKET_EVENTS.updateUser)).toEqual([]);
    expect(carolOnB.of(SOCKET_EVENTS.updateUser)).toEqual([]);
  });

  it('an instance that stops takes its people offline on the other one', async () => {
    const alice = await person();
    const bob = await person();
    await post(a.app, alice.token, { message: 'Привет', recipient: bob.user.id });
    const c = await instance(database, { REDIS_URL: redisUrl! });
    const bobOnB = await client(b, bob.token);
    await sleep(200);
    await connected(c.url, alice.token);
    await bobOnB.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => p.online_status);
    expect((await b.app.services.realtime.onlineAmong([alice.user.id])).size).toBe(1);
    await c.app.close();
    await bobOnB.waitFor(SOCKET_EVENTS.updateUser, (p: { online_status: boolean }) => !p.online_status);
    expect((await b.app.services.realtime.onlineAmong([alice.user.id])).size).toBe(0);
  });
});

describe('presence registry', () => {
  it('in memory: first socket in, last socket out', async () => {
    const presence = memoryPresence();
    expect(await presence.join('u1')).toBe(true);
    expect(await presence.join('u1')).toBe(false);
    expect(await presence.leave('u1')).toBe(false);
    expect(await presence.onlineAmong(['u1', 'u2'])).toEqual(new Set(['u1']));
    expect(await presence.leave('u1')).toBe(true);
    expect(await presence.leave('u1')).toBe(false);
    expect(await presence.onlineAmong(['u1'])).toEqual(new Set());
  });

  it.skipIf(!redisUrl)('with Redis: an instance that died without leaving is counted out, and back in if it returns', async () => {
    const client = createClient({ url: redisUrl! });
    await client.connect();
    const prefix = `podryad:test:${randomUUID()}:`;
    const commands = client as unknown as RedisCommands;
    try {
      const dead = redisPresence(commands, { instanceId: 'dead', ttlMs: 200, prefix });
      const live = redisPresence(commands, { instanceId: 'live', ttlMs: 10_000, prefix });
      await dead.heartbeat(new Map());
      await live.heartbeat(new Map());
      expect(await dead.join('u1')).toBe(true);
      expect(await live.join('u1')).toBe(false);
      expect(await dead.join('u2')).toBe(true);
      expect(await live.onlineAmong(['u1', 'u2', 'u3'])).toEqual(new Set(['u1', 'u2']));

      await sleep(400); // "dead" misses its heartbeat
      expect(await live.heartbeat(new Map([['u1', 1]]))).toEqual({ online: [], offline: ['u2'] });
      expect(await live.onlineAmong(['u1', 'u2'])).toEqual(new Set(['u1']));
      // A leave on the swept instance changes nothing.
      expect(await dead.leave('u1')).toBe(false);
      expect(await live.onlineAmong(['u1'])).toEqual(new Set(['u1']));

      // It was only paused: its next heartbeat counts its sockets in again.
      const back = await dead.heartbeat(new Map([['u1', 1], ['u2', 1]]));
      expect(back.online).toEqual(['u2']);
      expect(await live.onlineAmong(['u1', 'u2'])).toEqual(new Set(['u1', 'u2']));
      expect(await live.leave('u1')).toBe(false);
      expect(await dead.leave('u1')).toBe(true);
      expect(await live.close()).toEqual([]);
      expect(await dead.close()).toEqual(['u2']);
      expect(await live.onlineAmong(['u1', 'u2'])).toEqual(new Set());
    } finally {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length) await client.del(keys);
      await client.quit();
    }
  });
});
