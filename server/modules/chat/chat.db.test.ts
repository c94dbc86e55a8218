import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from 'pino';
import { buildApp } from '../../app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { signedInPerson, testEnv, type Person } from '../../test/app.ts';
import { type UserOverrides } from '../../db/factories.ts';
import { userActor } from '../../platform/actor.ts';
import { chatMembers, chats, messages } from './schema.ts';
import { services } from '../services/schema.ts';
import { categories } from '../lookups/schema.ts';
import { files } from '../files/schema.ts';
import { users, type UserRow } from '../users/schema.ts';
import { call, type Answer } from '../../test/api.ts';
import { chatRoutes } from './routes.ts';
import { ChatService } from './service.ts';
import { CHAT_MESSAGES, CONTACT_MASK, MAX_MESSAGE_LENGTH, MESSAGES_PER_WINDOW, type Chat, type Message, type SentMessage } from '#contract/chat';
import { MESSAGES } from '#contract/messages';
import { MESSAGE_PAGE_SIZE } from '#contract/constants';

let app: FastifyInstance;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: typeof database.db;
let chat: ChatService;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  chat = new ChatService({ db, realtime: app.services.realtime, limiter: app.services.limiter, log: pino({ level: 'silent' }) });
  if (!app.hasRoute({ method: 'GET', url: '/api/chat/my' })) await app.register(chatRoutes, { chat, reads: new Map() });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const person = (overrides: UserOverrides = {}) => signedInPerson(app, db, overrides);

const send = (who: Person | null, body: unknown) => call<SentMessage>(app, 'POST', '/api/messages/', { token: who?.token, body });

async function sent(who: Person, body: Record<string, unknown>): Promise<SentMessage> {
  const res = await send(who, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

const myChats = (who: Person, query: Record<string, string> = {}) => call<Chat[]>(app, 'GET', '/api/chat/my', { token: who.token, query });
const orderChats = (who: Person, query: Record<string, string> = {}) => call<Chat[]>(app, 'GET', '/api/chat/my_by_order', { token: who.token, query });
const chatMessages = (who: Person | null, chatId: string, query: Record<string, string> = {}) =>
  call<Message[]>(app, 'GET', `/api/messages/chat/${chatId}`, { token: who?.token, query });
const unseenTotal = async (who: Person) => (await call<number>(app, 'GET', '/api/messages/unseen/count', { token: who.token })).body.result;
const unseenIn = async (who: Person, chatId: string) => (await call<number>(app, 'GET', `/api/messages/${chatId}/unseen/count`, { token: who.token })).body.result;
const markSeen = (who: Person | null, id: string, body: unknown = { seen: true }) => call<Message>(app, 'PUT', `/api/messages/${id}`, { token: who?.token, body });

/** A stored file row of `owner`, as an upload would leave it. */
async function storedFile(owner: UserRow, name = 'макет.png') {
  const path = `${owner.id}/${randomBytes(16).toString('hex')}.png`;
  await db.insert(files).values({ ownerId: owner.id, path, originalName: name, mime: 'image/png', size: 1234 });
  return `/uploads/${path}`;
}

async function createServiceRow(sellerId: string) {
  const [category] = await db.select().from(categories).limit(1);
  const [row] = await db
    .insert(services)
    .values({ sellerId, title: 'Логотип для вашего бизнеса', description: 'Описание услуги '.repeat(5), categoryId: category!.id, price: 100_000, days: 3 })
    .returning();
  return row!;
}

/** A direct chat between two people with one message from the first. */
async function directChat(a: Person, b: Person, text = 'Здравствуйте!') {
  const message = await sent(a, { message: text, recipient: b.user.id });
  return message.chat_id;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('authorization', () => {
  let alice: Person;
  let bob: Person;
  let outsider: Person;
  let admin: Person;
  let chatId: string;
  let messageId: string;

  beforeAll(async () => {
    alice = await person();
    bob = await person({ role: 'seller' });
    outsider = await person();
    admin = await person({ role: 'admin' });
    const message = await sent(alice, { message: 'Привет', recipient: bob.user.id });
    chatId = message.chat_id;
    messageId = message._id;
  });

  type Req = { title: string; method: InjectOptions['method']; url: () => string; body?: () => unknown; member: number; outsider: number; admin: number; who?: () => Person };
  const requests: Req[] = [
    { title: 'list direct chats', method: 'GET', url: () => '/api/chat/my', member: 200, outsider: 200, admin: 200 },
    { title: 'list order chats', method: 'GET', url: () => '/api/chat/my_by_order', member: 200, outsider: 200, admin: 200 },
    { title: 'messages of a chat', method: 'GET', url: () => `/api/messages/chat/${chatId}`, member: 200, outsider: 403, admin: 403 },
    { title: 'last message', method: 'GET', url: () => `/api/messages/last_message/${chatId}`, member: 200, outsider: 403, admin: 403 },
    { title: 'unseen in a chat', method: 'GET', url: () => `/api/messages/${chatId}/unseen/count`, member: 200, outsider: 403, admin: 403 },
    { title: 'unseen everywhere', method: 'GET', url: () => '/api/messages/unseen/count', member: 200, outsider: 200, admin: 200 },
    { title: 'post into the chat', method: 'POST', url: () => '/api/messages/', body: () => ({ message: 'Ещё', chat_id: chatId }), member: 200, outsider: 403, admin: 403 },
    { title: 'mark seen', method: 'PUT', url: () => `/api/messages/${messageId}`, body: () => ({ seen: true }), member: 200, outsider: 403, admin: 403, who: () => bob },
    { title: 'admin messages of a chat', method: 'GET', url: () => `/api/admin/chats/${chatId}/messages`, member: 403, outsider: 403, admin: 200 },
    { title: 'delete the chat', method: 'DELETE', url: () => `/api/chat/${chatId}`, member: 200, outsider: 403, admin: 403, who: () => bob },
  ];

  it.each(requests)('$title: guest 401, outsider $outsider, admin $admin, member $member', async (r) => {
    for (const [who, token, status] of [
      ['guest', null, 401],
      ['outsider', outsider.token, r.outsider],
      ['admin (not a member)', admin.token, r.admin],
      ['member', (r.who?.() ?? alice).token, r.member],
    ] as const) {
      const res = await call(app, r.method, r.url(), { token, body: r.body?.() });
      expect(res.status, `${who} ${r.method} ${r.url()}: ${JSON.stringify(res.body)}`).toBe(status);
      if (status === 401) expect(res.body.message).toBe(MESSAGES.unauthorized);
      if (status === 403) expect(res.body.result).toBeUndefined();
    }
  });

  it('a guest gets 401 even with an invalid request, before any validation', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/messages/', { message: 5 }],
      ['GET', '/api/messages/chat/not-a-uuid', undefined],
      ['PUT', '/api/messages/not-a-uuid', { seen: 'yes' }],
      ['DELETE', '/api/chat/1', undefined],
      ['GET', '/api/chat/my?limit=1000', undefined],
    ] as const) {
      expect((await call(app, method, url, { body })).status, `${method} ${url}`).toBe(401);
    }
  });

  it('unknown chats and messages are 404, malformed ids 400, both in Russian', async () => {
    for (const [method, url, body, message] of [
      ['GET', `/api/messages/chat/${UNKNOWN}`, undefined, CHAT_MESSAGES.chatNotFound],
      ['GET', `/api/messages/last_message/${UNKNOWN}`, undefined, CHAT_MESSAGES.chatNotFound],
      ['GET', `/api/messages/${UNKNOWN}/unseen/count`, undefined, CHAT_MESSAGES.chatNotFound],
      ['DELETE', `/api/chat/${UNKNOWN}`, undefined, CHAT_MESSAGES.chatNotFound],
      ['PUT', `/api/messages/${UNKNOWN}`, { seen: true }, CHAT_MESSAGES.messageNotFound],
      ['POST', '/api/messages/', { message: 'Привет', chat_id: UNKNOWN }, CHAT_MESSAGES.chatNotFound],
      ['GET', `/api/admin/chats/${UNKNOWN}/messages`, undefined, CHAT_MESSAGES.chatNotFound],
    ] as const) {
      const res = await call(app, method, url, { token: url.includes('admin') ? admin.token : alice.token, body });
      expect(res.status, url).toBe(404);
      expect(res.body.message).toBe(message);
    }
    for (const url of ['/api/messages/chat/123', '/api/messages/last_message/abc', '/api/messages/x/unseen/count', '/api/chat/1']) {
      const res = await call(app, url.startsWith('/api/chat') ? 'DELETE' : 'GET', url, { token: alice.token });
      expect(res.status, url).toBe(400);
      expect(res.body.message).toBe(MESSAGES.validation);
      expect(Object.values(res.body.errors ?? {}).flat()).toContain(CHAT_MESSAGES.badId);
    }
  });

  it('an admin who is a member (a dispute chat) reads and writes like any member', async () => {
    const dispute = await chat.openChat({ kind: 'dispute', memberIds: [alice.user.id, bob.user.id, admin.user.id] });
    const message = await sent(admin, { message: 'Здравствуйте, я арбитр. Телефон поддержки +7 999 123-45-67', chat_id: dispute.id });
    expect(message.masked).toBe(false);
    expect(message.recipient).toBeNull();
    expect((await chatMessages(admin, dispute.id)).body.total).toBe(1);
    expect((await chatMessages(alice, dispute.id)).body.result[0]?.message).toContain('+7 999 123-45-67');
  });
});

describe('sending and the direct chat', () => {
  it('opens one direct chat per pair and reuses it, whoever writes first', async () => {
    const alice = await person();
    const bob = await person({ role: 'seller' });
    const first = await sent(alice, { message: 'Здравствуйте!', recipient: bob.user.id });
    const second = await sent(alice, { message: 'Вы тут?', recipient: bob.user.id });
    const reply = await sent(bob, { message: 'Да', recipient: alice.user.id });
    const viaChat = await sent(bob, { message: 'Слушаю', chat_id: first.chat_id, recipient: UNKNOWN });
    expect(new Set([first.chat_id, second.chat_id, reply.chat_id, viaChat.chat_id]).size).toBe(1);
    expect(await db.select().from(chatMembers).where(eq(chatMembers.chatId, first.chat_id))).toHaveLength(2);

    const list = (await myChats(alice)).body;
    expect(list.total).toBe(1);
    expect(list.result[0]).toMatchObject({ _id: first.chat_id, kind: 'direct', unseen_messages: 2, service_id: null, last_message: { message: 'Слушаю' } });
    expect(list.result[0]).not.toHaveProperty('order');
    expect(list.result[0]!.members.map((m) => m._id).sort()).toEqual([alice.user.id, bob.user.id].sort());
    expect(list.result[0]!.members.find((m) => m._id === bob.user.id)).toEqual({
      _id: bob.user.id,
      active_role: 'seller',
      online_status: false,
      name: bob.user.name,
      surname: bob.user.surname,
      avatar: null,
      user_name: bob.user.userName,
    });
  });

  it('opens the chat once when two first messages race', async () => {
    const alice = await person();
    const bob = await person();
    const results = await Promise.all([
      send(alice, { message: 'Раз', recipient: bob.user.id }),
      send(bob, { message: 'Два', recipient: alice.user.id }),
      send(alice, { message: 'Три', recipient: bob.user.id }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.result.chat_id)).size).toBe(1);
  });

  it('answers with the stored message in SPEC shape', async () => {
    const alice = await person();
    const bob = await person();
    const service = await createServiceRow(bob.user.id);
    const message = await sent(alice, { message: '  Сколько стоит логотип?\r\n', recipient: bob.user.id, service_id: service.id });
    expect(message).toEqual({
      _id: expect.any(String),
      chat_id: expect.any(String),
      sender: { _id: alice.user.id, name: alice.user.name, surname: alice.user.surname, avatar: null },
      message: 'Сколько стоит логотип?',
      files: [],
      seen: false,
      service_id: service.id,
      recipient: bob.user.id,
      masked: false,
      kind: 'text',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const [row] = await db.select().from(chats).where(eq(chats.id, message.chat_id));
    expect(row).toMatchObject({ kind: 'direct', serviceId: service.id });
    expect((await myChats(bob)).body.result[0]?.service_id).toBe(service.id);
  });

  it('stores text as it is: no HTML processing, control characters dropped', async () => {
    const alice = await person();
    const bob = await person();
    const text = '<b>жирный</b> & <script>alert(1)</script>\nвторая строка';
    expect((await sent(alice, { message: text, recipient: bob.user.id })).message).toBe(text);
    expect((await sent(alice, { message: 'a\u0000b\u0007c\ud800', recipient: bob.user.id })).message).toBe('abc\ufffd');
  });

  it('refuses a bad recipient: none, yourself, unknown, blocked', async () => {
    const alice = await person();
    const blocked = await person({ blockedAt: new Date() });
    const cases: [unknown, number, string][] = [
      [{ message: 'Привет' }, 400, CHAT_MESSAGES.noRecipient],
      [{ message: 'Привет', recipient: null, chat_id: '' }, 400, CHAT_MESSAGES.noRecipient],
      [{ message: 'Привет', recipient: alice.user.id }, 400, CHAT_MESSAGES.notYourself],
      [{ message: 'Привет', recipient: UNKNOWN }, 404, CHAT_MESSAGES.recipientNotFound],
      [{ message: 'Привет', recipient: blocked.user.id }, 403, CHAT_MESSAGES.recipientBlocked],
      [{ message: 'Привет', recipient: 'bob' }, 400, MESSAGES.validation],
      [{ message: 'Привет', recipient: randomUUID(), service_id: UNKNOWN }, 400, CHAT_MESSAGES.serviceNotFound],
    ];
    for (const [body, status, message] of cases) {
      const res = await send(alice, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(await db.select().from(messages).where(eq(messages.senderId, alice.user.id))).toEqual([]);
  });

  it('refuses empty and too long messages in Russian', async () => {
    const alice = await person();
    const bob = await person();
    for (const body of [{ message: '' }, { message: '   \n\t ' }, {}, { message: null, files: [] }]) {
      const res = await send(alice, { ...body, recipient: bob.user.id });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(CHAT_MESSAGES.empty);
    }
    const long = await send(alice, { message: 'я'.repeat(MAX_MESSAGE_LENGTH + 1), recipient: bob.user.id });
    expect(long.status).toBe(400);
    expect(long.body.errors?.message).toEqual([CHAT_MESSAGES.tooLong]);
    expect((await send(alice, { message: 'я'.repeat(MAX_MESSAGE_LENGTH), recipient: bob.user.id })).status).toBe(200);
  });

  it('never answers 500 to malformed bodies', async () => {
    const alice = await person();
    const bob = await person();
    const bodies: unknown[] = [
      'просто строка',
      '[]',
      '{"message":',
      { message: 42, recipient: bob.user.id },
      { message: ['a'], recipient: bob.user.id },
      { message: { text: 'a' }, recipient: bob.user.id },
      { message: 'a', recipient: 42 },
      { message: 'a', recipient: bob.user.id, files: 'not-an-array' },
      { message: 'a', recipient: bob.user.id, files: [42] },
      { message: 'a', recipient: bob.user.id, files: ['/etc/passwd'] },
      { message: 'a', recipient: bob.user.id, files: ['/uploads/../../etc/passwd'] },
      { message: 'a', chat_id: { $ne: null } },
      { message: 'a', chat_id: "'; drop table messages; --" },
      { message: 'a', service_id: 12, recipient: bob.user.id },
      { message: 'a'.repeat(2_000_000), recipient: bob.user.id },
    ];
    for (const body of bodies) {
      const res = await call(app, 'POST', '/api/messages/', {
        token: alice.token,
        body,
        headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      });
      expect([400, 413], JSON.stringify(body).slice(0, 80)).toContain(res.status);
      expect(res.body.message).toMatch(/[а-яё]/i);
    }
    for (const [method, url, body] of [
      ['PUT', `/api/messages/${UNKNOWN}`, { seen: false }],
      ['PUT', `/api/messages/${UNKNOWN}`, { seen: 'true' }],
      ['PUT', `/api/messages/${UNKNOWN}`, {}],
      ['GET', '/api/chat/my?page=0', undefined],
      ['GET', '/api/chat/my?limit=51', undefined],
      ['GET', '/api/chat/my?page=abc', undefined],
      ['GET', `/api/messages/chat/${UNKNOWN}?limit=-1`, undefined],
    ] as const) {
      const res = await call(app, method, url, { token: alice.token, body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.message).toBe(MESSAGES.validation);
    }
  });

  it('limits how many messages a person sends per minute (429 in Russian)', async () => {
    const alice = await person();
    const bob = await person();
    for (let i = 0; i < MESSAGES_PER_WINDOW; i++) {
      expect((await send(alice, { message: `Сообщение ${i}`, recipient: bob.user.id })).status).toBe(200);
    }
    const res = await send(alice, { message: 'Ещё одно', recipient: bob.user.id });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(CHAT_MESSAGES.tooMany);
    // Someone else is not affected.
    expect((await send(bob, { message: 'А я могу', recipient: alice.user.id })).status).toBe(200);
  });
});

describe('files', () => {
  it('attaches the sender\'s own uploads, in order, with name, type and size', async () => {
    const alice = await person();
    const bob = await person();
    const one = await storedFile(alice.user, 'техническое задание.png');
    const two = await storedFile(alice.user, 'пример.png');
    const message = await sent(alice, { message: '', files: [one, two, one], recipient: bob.user.id });
    expect(message.files).toEqual([
      { url: one, name: 'техническое задание.png', mime: 'image/png', size: 1234 },
      { url: two, name: 'пример.png', mime: 'image/png', size: 1234 },
    ]);
    expect((await chatMessages(bob, message.chat_id)).body.result[0]?.files).toHaveLength(2);
  });

  it('refuses another user\'s file or an unknown one (403), more than ten or a foreign path (400)', async () => {
    const alice = await person();
    const bob = await person();
    const bobs = await storedFile(bob.user);
    for (const list of [[bobs], [await storedFile(alice.user), bobs], [`/uploads/${alice.user.id}/${'0'.repeat(32)}.png`]]) {
      const res = await send(alice, { message: 'Смотри', files: list, recipient: bob.user.id });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(CHAT_MESSAGES.notYourFile);
    }
    const eleven = await Promise.all(Array.from({ length: 11 }, () => storedFile(alice.user)));
    const tooMany = await send(alice, { message: 'Много', files: eleven, recipient: bob.user.id });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors?.files).toEqual([CHAT_MESSAGES.tooManyFiles]);
    const foreign = await send(alice, { message: 'Ссылка', files: ['https://evil.example/x.png'], recipient: bob.user.id });
    expect(foreign.status).toBe(400);
    expect(Object.values(foreign.body.errors ?? {}).flat()).toContain(CHAT_MESSAGES.badFile);
    expect((await send(alice, { message: 'Десять', files: eleven.slice(0, 10), recipient: bob.user.id })).status).toBe(200);
  });

  it('leaves out a file its owner deleted since', async () => {
    const alice = await person();
    const bob = await person();
    const url = await storedFile(alice.user);
    const message = await sent(alice, { message: 'Файл', files: [url], recipient: bob.user.id });
    await db.delete(files).where(eq(files.path, url.slice('/uploads/'.length)));
    expect((await chatMessages(bob, message.chat_id)).body.result[0]?.files).toEqual([]);
  });
});

describe('writing into a chat that exists (one statement)', () => {
  it('masks, attaches files and moves the chat up as the first message does, by recipient or by chat id', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'Здравствуйте');
    const file = await storedFile(alice.user, 'смета.png');
    for (const target of [{ recipient: bob.user.id }, { chat_id: chatId }]) {
      const before = (await db.select().from(chats).where(eq(chats.id, chatId)))[0]!.lastMessageAt;
      const message = await sent(alice, { message: 'Почта ivan@mail.ru, смета во вложении', files: [file], ...target });
      expect(message).toMatchObject({
        chat_id: chatId,
        recipient: bob.user.id,
        sender: { _id: alice.user.id, name: alice.user.name },
        message: `Почта ${CONTACT_MASK}, смета во вложении`,
        masked: true,
        notice: CHAT_MESSAGES.contactsMasked,
        files: [{ url: file, name: 'смета.png', mime: 'image/png', size: 1234 }],
        seen: false,
      });
      const [stored] = await db.select().from(messages).where(eq(messages.id, message._id));
      expect(stored).toMatchObject({ message: message.message, masked: true, files: [file], serviceId: null });
      expect(stored!.createdAt.toISOString()).toBe(message.created_at);
      const after = (await db.select().from(chats).where(eq(chats.id, chatId)))[0]!.lastMessageAt;
      expect(after.getTime()).toBeGreaterThanOrEqual(Math.max(before.getTime(), stored!.createdAt.getTime()));
    }
    expect((await chatMessages(bob, chatId)).body.total).toBe(3);
    expect(await unseenTotal(bob)).toBe(3);
  });

  it('refuses as before: a recipient blocked since, a chat of others, an unknown chat; nothing is stored', async () => {
    const alice = await person();
    const bob = await person();
    const outsider = await person();
    const chatId = await directChat(alice, bob, 'Привет');
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, bob.user.id));
    const cases: [Person, unknown, number, string][] = [
      [alice, { message: 'Ау', recipient: bob.user.id }, 403, CHAT_MESSAGES.recipientBlocked],
      [outsider, { message: 'Ау', chat_id: chatId }, 403, CHAT_MESSAGES.notMember],
      [alice, { message: 'Ау', chat_id: UNKNOWN }, 404, CHAT_MESSAGES.chatNotFound],
    ];
    for (const [who, body, status, message] of cases) {
      const res = await send(who, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(await db.select().from(messages).where(eq(messages.chatId, chatId))).toHaveLength(1);
  });

  it('a fan-out that fails is logged; the message is stored and answered all the same', async () => {
    const alice = await person();
    const bob = await person();
    const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const failing = new ChatService({
      db,
      realtime: {
        ...app.services.realtime,
        afterCommit: (work) => app.services.realtime.afterCommit(work),
        onlineAmong: async () => new Set<string>(),
        emitToUsers: () => {
          throw new Error('sockets are down');
        },
      },
      limiter: app.services.limiter,
      log: log as unknown as Logger,
    });
    const message = await failing.send(alice.user, { message: 'Привет', recipient: bob.user.id, files: [] });
    expect(message.message).toBe('Привет');
    await failing.idle();
    expect(log.error).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'sockets are down' }) }, expect.stringContaining('fan-out failed'));
    expect((await chatMessages(bob, message.chat_id)).body.result.map((m) => m._id)).toEqual([message._id]);
  });
});

describe('pages and lists', () => {
  it('pages messages by 20, newest first, with the total', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'Сообщение 0');
    for (let i = 1; i < 25; i++) await sent(i % 2 ? bob : alice, { message: `Сообщение ${i}`, chat_id: chatId });
    const first = (await chatMessages(alice, chatId, { chat_id: chatId })).body;
    expect(first.total).toBe(25);
    expect(first.result).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(first.result.map((m) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `Сообщение ${24 - i}`));
    const second = (await chatMessages(alice, chatId, { page: '2' })).body;
    expect(second.result.map((m) => m.message)).toEqual(['Сообщение 4', 'Сообщение 3', 'Сообщение 2', 'Сообщение 1', 'Сообщение 0']);
    expect((await chatMessages(alice, chatId, { page: '3' })).body.result).toEqual([]);
    expect((await chatMessages(alice, chatId, { limit: '5', page: '2' })).body.result.map((m) => m.message)).toEqual(
      ['Сообщение 19', 'Сообщение 18', 'Сообщение 17', 'Сообщение 16', 'Сообщение 15'],
    );
    const last = await call<Message>(app, 'GET', `/api/messages/last_message/${chatId}`, { token: bob.token });
    expect(last.body.result).toMatchObject({ message: 'Сообщение 24', sender: { _id: alice.user.id }, recipient: bob.user.id });
  });

  it('lists direct chats and order chats apart, the latest conversation first, paged', async () => {
    const me = await person();
    const others = await Promise.all([person(), person(), person()]);
    const direct = [];
    for (const other of others) direct.push(await directChat(other, me));
    // The first conversation gets a new message: it moves to the top.
    await sent(me, { message: 'Снова вы', chat_id: direct[0]! });
    const order = await chat.openChat({ kind: 'order', memberIds: [me.user.id, others[1]!.user.id], orderId: randomUUID() });
    const dispute = await chat.openChat({ kind: 'dispute', memberIds: [me.user.id, others[2]!.user.id] });
    await sent(others[2]!, { message: 'Спор', chat_id: dispute.id });

    const list = (await myChats(me)).body;
    expect(list.total).toBe(3);
    expect(list.result.map((c) => c._id)).toEqual([direct[0], direct[2], direct[1]]);
    const paged = (await myChats(me, { page: '2', limit: '2' })).body;
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.result.map((c) => c._id)).toEqual([direct[1]]);

    const orders = (await orderChats(me)).body;
    expect(orders.total).toBe(1);
    expect(orders.result[0]).toMatchObject({ _id: order.id, kind: 'order', order: { _id: order.orderId }, last_message: null, unseen_messages: 0 });
    // Order chats: contacts are not masked, an order exists.
    const inOrder = await sent(me, { message: 'Мой телефон +7 999 123-45-67', chat_id: order.id });
    expect(inOrder).toMatchObject({ masked: false, message: 'Мой телефон +7 999 123-45-67' });
    expect(inOrder).not.toHaveProperty('notice');
    expect((await orderChats(others[1]!)).body.result[0]).toMatchObject({ unseen_messages: 1, last_message: { _id: inOrder._id } });
  });
});

describe('deleting a chat', () => {
  it('hides it for the deleting member only, until a new message brings it back with only the new messages', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'Первое');
    await sent(bob, { message: 'Ответ', chat_id: chatId });
    expect(await unseenTotal(alice)).toBe(1);

    const res = await call(app, 'DELETE', `/api/chat/${chatId}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ _id: chatId });
    expect((await myChats(alice)).body).toMatchObject({ total: 0, result: [] });
    expect(await unseenTotal(alice)).toBe(0);
    expect((await chatMessages(alice, chatId)).body).toMatchObject({ total: 0, result: [] });
    expect((await call(app, 'GET', `/api/messages/last_message/${chatId}`, { token: alice.token })).body.result).toBeNull();
    // The other member keeps everything.
    expect((await myChats(bob)).body.total).toBe(1);
    expect((await chatMessages(bob, chatId)).body.total).toBe(2);
    // Deleting twice is harmless.
    expect((await call(app, 'DELETE', `/api/chat/${chatId}`, { token: alice.token })).status).toBe(200);

    const revival = await sent(bob, { message: 'Вы здесь?', recipient: alice.user.id });
    expect(revival.chat_id).toBe(chatId);
    const list = (await myChats(alice)).body;
    expect(list.total).toBe(1);
    expect(list.result[0]).toMatchObject({ _id: chatId, unseen_messages: 1, last_message: { message: 'Вы здесь?' } });
    expect((await chatMessages(alice, chatId)).body.result.map((m) => m.message)).toEqual(['Вы здесь?']);
    expect((await chatMessages(bob, chatId)).body.total).toBe(3);
    expect(await unseenTotal(alice)).toBe(1);
  });

  it('the deleting member writing again brings it back for them too', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'Первое');
    await call(app, 'DELETE', `/api/chat/${chatId}`, { token: alice.token });
    await sent(alice, { message: 'Передумала', recipient: bob.user.id });
    expect((await myChats(alice)).body.result.map((c) => c._id)).toEqual([chatId]);
    expect((await chatMessages(alice, chatId)).body.result.map((m) => m.message)).toEqual(['Передумала']);
  });

  it("a message written in another module's transaction (postInTx) brings it back and moves it up too", async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'Первое');
    const newer = await directChat(alice, await person(), 'Другой чат');
    await call(app, 'DELETE', `/api/chat/${chatId}`, { token: alice.token });
    const stored = await app.services.platform.withTx(userActor(bob.user), (ctx) =>
      chat.postInTx(ctx, { chatId, senderId: bob.user.id, kind: 'text', message: '  Изменения  к предложению ' }),
    );
    expect(stored).toMatchObject({ chatId, senderId: bob.user.id, kind: 'text', message: 'Изменения  к предложению', masked: false, serviceId: null });
    expect((await myChats(alice)).body.result.map((c) => c._id)).toEqual([chatId, newer]);
    expect((await chatMessages(alice, chatId)).body.result.map((m) => m.message)).toEqual(['Изменения  к предложению']);
  });

  it('order and dispute chats cannot be deleted', async () => {
    const alice = await person();
    const bob = await person();
    for (const kind of ['order', 'dispute'] as const) {
      const row = await chat.openChat({ kind, memberIds: [alice.user.id, bob.user.id], orderId: randomUUID() });
      const res = await call(app, 'DELETE', `/api/chat/${row.id}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(CHAT_MESSAGES.cannotDelete);
    }
  });
});

describe('seen state and counters', () => {
  it('marks the message and every earlier unseen one from others, never the sender\'s own', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'm0');
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push((await sent(alice, { message: `m${i}`, chat_id: chatId }))._id);
    const own = (await sent(bob, { message: 'ответ', chat_id: chatId }))._id;
    const other = await directChat(await person(), bob, 'из другого чата');
    expect(await unseenTotal(bob)).toBe(6);
    expect(await unseenIn(bob, chatId)).toBe(5);

    const res = await markSeen(bob, ids[2]!);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ _id: ids[2], seen: true, message: 'm3' });
    const page = (await chatMessages(alice, chatId)).body.result;
    expect(Object.fromEntries(page.map((m) => [m.message, m.seen]))).toEqual({ m0: true, m1: true, m2: true, m3: true, m4: false, ответ: false });
    expect(await unseenIn(bob, chatId)).toBe(1);
    expect(await unseenTotal(bob)).toBe(2);
    expect((await myChats(bob)).body.result.find((c) => c._id === other)?.unseen_messages).toBe(1);

    for (const [who, id, body, status, message] of [
      [bob, own, { seen: true }, 403, CHAT_MESSAGES.ownMessage],
      [alice, ids[0]!, { seen: true }, 403, CHAT_MESSAGES.ownMessage],
      [bob, ids[3]!, { seen: false }, 400, MESSAGES.validation],
    ] as const) {
      const answer: Answer = await markSeen(who, id, body);
      expect(answer.status).toBe(status);
      expect(answer.body.message).toBe(message);
    }
    const [ownRow] = await db.select().from(messages).where(eq(messages.id, own));
    expect(ownRow?.seen).toBe(false);
    // Marking again changes nothing and still answers.
    expect((await markSeen(bob, ids[2]!)).status).toBe(200);
  });

  it('messages hidden by a deletion cannot be marked and do not count', async () => {
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'старое');
    const [old] = await db.select().from(messages).where(eq(messages.chatId, chatId));
    await call(app, 'DELETE', `/api/chat/${chatId}`, { token: bob.token });
    const fresh = await sent(alice, { message: 'новое', chat_id: chatId });
    expect(await unseenIn(bob, chatId)).toBe(1);
    expect((await markSeen(bob, old!.id)).status).toBe(404);
    expect((await markSeen(bob, fresh._id)).status).toBe(200);
    const [oldAfter] = await db.select().from(messages).where(and(eq(messages.id, old!.id)));
    expect(oldAfter?.seen).toBe(false);
    expect(await unseenIn(bob, chatId)).toBe(0);
  });
});

describe('masking contacts before an order', () => {
  it('masks phones, emails and messenger links in direct chats and says so', async () => {
    const alice = await person();
    const bob = await person();
    const message = await sent(alice, {
      message: 'Пишите в телеграм t.me/ivan_petrov или звоните +7 (999) 123-45-67, почта ivan@mail.ru. Цена 5 000 руб.',
      recipient: bob.user.id,
    });
    expect(message).toMatchObject({
      masked: true,
      notice: CHAT_MESSAGES.contactsMasked,
      message: `Пишите в телеграм ${CONTACT_MASK} или звоните ${CONTACT_MASK}, почта ${CONTACT_MASK}. Цена 5 000 руб.`,
    });
    const stored = (await chatMessages(bob, message.chat_id)).body.result[0]!;
    expect(stored).toMatchObject({ masked: true, message: message.message });
    expect(stored).not.toHaveProperty('notice');
    const plain = await sent(alice, { message: 'Заказ №123456 на 15 000 руб. к 12.05.2025', chat_id: message.chat_id });
    expect(plain).toMatchObject({ masked: false, message: 'Заказ №123456 на 15 000 руб. к 12.05.2025' });
    expect(plain).not.toHaveProperty('notice');
  });

  it('an admin writing in a direct chat is not masked', async () => {
    const admin = await person({ role: 'admin' });
    const bob = await person();
    expect(await sent(admin, { message: 'Поддержка: support@podryad.example', recipient: bob.user.id })).toMatchObject({ masked: false });
  });
});

describe('the admin area', () => {
  it('reads every message of any chat, deleted history included, paged', async () => {
    const admin = await person({ role: 'admin' });
    const alice = await person();
    const bob = await person();
    const chatId = await directChat(alice, bob, 'раз');
    await call(app, 'DELETE', `/api/chat/${chatId}`, { token: alice.token });
    await call(app, 'DELETE', `/api/chat/${chatId}`, { token: bob.token });
    await sent(bob, { message: 'два', chat_id: chatId });
    const res = await call<Message[]>(app, 'GET', `/api/admin/chats/${chatId}/messages`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.result.map((m) => m.message)).toEqual(['два', 'раз']);
    expect((await call<Message[]>(app, 'GET', `/api/admin/chats/${chatId}/messages`, { token: admin.token, query: { limit: '1', page: '2' } })).body.result.map((m) => m.message)).toEqual(['раз']);
  });
});

describe('API description', () => {
  it('documents the chat calls in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const path of ['/api/chat/my', '/api/chat/my_by_order', '/api/chat/{id}', '/api/messages/', '/api/messages/chat/{chat_id}', '/api/messages/{id}', '/api/admin/chats/{id}/messages']) {
      expect(paths, path).toContain(path);
    }
  });
});
