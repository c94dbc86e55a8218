import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { testEnv } from '../../test/app.ts';
import { call } from '../../test/api.ts';
import { createUser } from '../../db/factories.ts';
import { createService } from '../../db/catalog-factories.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { serverEventSchemas, type ServerEvent, type ServerEventPayload } from '#contract/events';
import type { Dispute } from '#contract/disputes';
import type { OrderDetail } from '#contract/orders';

// Real Socket.IO clients against a listening app: new_dispute to the parties and the admins, and get_counters
// carrying the dispute of a dispute chat (SPEC §4).

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

class Client {
  readonly events: { event: string; payload: unknown }[] = [];
  private waiters: (() => void)[] = [];
  constructor(readonly socket: Socket) {
    socket.onAny((event: string, payload: unknown) => {
      this.events.push({ event, payload });
      for (const w of this.waiters) w();
    });
  }
  /** The first event (received or to come) whose payload fits its schema and passes `test`. */
  waitFor<E extends ServerEvent>(event: E, test: (payload: ServerEventPayload<E>) => boolean = () => true, timeoutMs = 8000): Promise<ServerEventPayload<E>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (const e of this.events) {
          if (e.event !== event) continue;
          const [payload] = serverEventSchemas[event].parse([e.payload]);
          if (test(payload)) {
            clearTimeout(timer);
            this.waiters = this.waiters.filter((w) => w !== waiter);
            resolve(payload);
            return true;
          }
        }
        return false;
      };
      const waiter = () => void check();
      const timer = setTimeout(() => reject(new Error(`no matching ${event} within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`)), timeoutMs);
      if (!check()) this.waiters.push(waiter);
    });
  }
}

let database: Database;
let app: FastifyInstance;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    env: testEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'podryad-disputes-')) }),
    database,
    logger: pino({ level: 'silent' }),
    web: false,
  });
  app.addHook('preClose', () => app.services.realtime.drain());
  await app.ready();
  await app.services.platform.dispatcher.start();
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await app?.close();
  await database?.drop();
});

async function person(role: 'customer' | 'seller' | 'admin' = 'customer') {
  const user = await createUser(database.db, { role });
  const token = await app.services.tokens.sign(user);
  const socket = connect(url, { path: '/socket.io/', transports: ['polling'], multiplex: false, reconnection: false, auth: { token: `Bearer ${token}` } });
  sockets.push(socket);
  const client = new Client(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { user, token, client };
}

describe('disputes live', () => {
  it('sends new_dispute to the other party and the admins, and get_counters with the dispute', async () => {
    const [customer, seller, admin] = await Promise.all([person(), person('seller'), person('admin')]);
    const service = await createService(database.db, seller.user.id, { price: 100_000, days: 3, revisions: 1 });
    const order = (await call<OrderDetail>(app, 'POST', '/api/orders', { token: customer.token, body: { service_id: service.id } })).body.result;
    await payOrderForTest(app, order._id);

    const opened = await call<Dispute>(app, 'POST', '/api/disputes/', {
      token: customer.token,
      body: { order_id: order._id, reason: 'not_delivered', description: 'Срок прошёл, работы нет, исполнитель молчит.' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const dispute = opened.body.result;

    // The respondent and every admin hear of it at once, each with the chat as they see it.
    const toSeller = await seller.client.waitFor('new_dispute', (e) => e.dispute_id === dispute._id);
    expect(toSeller).toMatchObject({ status: 'open', chat: { _id: dispute.chat._id, kind: 'dispute', unseen_messages: 1 } });
    const toAdmin = await admin.client.waitFor('new_dispute', (e) => e.dispute_id === dispute._id);
    expect(toAdmin.chat.unseen_messages).toBe(0);
    // The dispute's opening message counts for the respondent, as that dispute's count.
    const first = await seller.client.waitFor('get_counters', (e) => e.dispute_id === dispute._id);
    expect(first).toMatchObject({ chat_id: dispute.chat._id, chatTotalUnseen: { [seller.user.id]: 1 }, disputesUnseen: { [seller.user.id]: 1 } });

    // A message of the opener: the respondent's dispute count goes up, and so does their disputes' total, which
    // GET /api/messages/unseen/count gives beside SPEC's total (the messages page lists no dispute's chat).
    const sent = await call(app, 'POST', '/api/messages/', { token: customer.token, body: { chat_id: dispute.chat._id, message: 'Жду ответа.' } });
    expect(sent.status).toBe(200);
    const second = await seller.client.waitFor('get_counters', (e) => e.dispute_id === dispute._id && e.chatTotalUnseen[seller.user.id] === 2);
    expect(second.disputesUnseen).toEqual({ [seller.user.id]: 2 });
    const direct = await call(app, 'POST', '/api/messages/', { token: customer.token, body: { recipient: seller.user.id, message: 'И ещё вопрос.' } });
    expect(direct.status).toBe(200);
    // (The order's chat has its own unseen messages: the order was placed and paid.)
    const all = second.totalUnseen[seller.user.id]! + 1;
    await seller.client.waitFor('get_counters', (e) => e.totalUnseen[seller.user.id] === all && e.dispute_id === undefined);
    expect((await call(app, 'GET', '/api/messages/unseen/count', { token: seller.token })).body).toMatchObject({ result: all, disputes: 2 });
    // Seen: the disputes' total goes down with the dispute's count.
    const newest = (await call<{ _id: string }[]>(app, 'GET', `/api/messages/chat/${dispute.chat._id}`, { token: seller.token, query: { page: '1', limit: '20' } })).body.result[0]!;
    expect((await call(app, 'PUT', `/api/messages/${newest._id}`, { token: seller.token, body: { seen: true } })).status).toBe(200);
    const seen = await seller.client.waitFor('get_counters', (e) => e.dispute_id === dispute._id && e.chatTotalUnseen[seller.user.id] === 0);
    expect(seen).toMatchObject({ totalUnseen: { [seller.user.id]: all - 2 }, disputesUnseen: { [seller.user.id]: 0 } });

    // An admin takes it: the parties get the chat with the admin among its members.
    expect((await call(app, 'POST', `/api/admin/disputes/${dispute._id}/take`, { token: admin.token })).status).toBe(200);
    const taken = await customer.client.waitFor('new_dispute', (e) => e.dispute_id === dispute._id && e.chat.members.some((m) => m._id === admin.user.id));
    expect(taken.status).toBe('open');

    // Resolved: everyone hears the new state.
    expect((await call(app, 'POST', `/api/admin/disputes/${dispute._id}/resolve`, { token: admin.token, body: { outcome: 'release' } })).status).toBe(200);
    await customer.client.waitFor('new_dispute', (e) => e.dispute_id === dispute._id && e.status === 'resolved');
    await seller.client.waitFor('new_dispute', (e) => e.dispute_id === dispute._id && e.status === 'resolved');
  });
});
