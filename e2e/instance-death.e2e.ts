import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../server/env.ts';
import { startServer, type RunningServer } from '../server/server.ts';
import { createUser } from '../server/db/factories.ts';
import { createService } from '../server/db/catalog-factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { cuttableProxy } from '../server/test/cuttable-proxy.ts';
import { runChild } from '../server/test/child-process.ts';
import { serviceUrl } from '../server/test/services.ts';
import { apiCall, hasMarker, hydrated, norm, setMarker, useE2E, visit } from './fixtures.ts';

// Issue 29 in Chromium, with real processes: a signed-in page with an order chat open is on instance A, a child
// process; A gets SIGTERM (a rolling deploy) or SIGKILL (a crash, the OOM killer). While the page is cut off, the
// seller writes in the chat and delivers the order through instance B; the balancer (a TCP proxy playing nginx)
// then sends the page to B. The page comes back by itself, without a reload, and shows both the message in the chat
// and «Сдан» on the order card. A and B share one PostgreSQL database and one Redis, as in production.

const adminUrl = await serviceUrl('PostgreSQL', 'DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres');
const redisUrl = await serviceUrl('Redis', 'REDIS_URL', 'redis://127.0.0.1:6379');

const e2e = useE2E();
const SECRET = 'instance-death-e2e-secret-0123456789-abcdefghijk';
const POLL = { timeout: 30_000, interval: 250 };
const suffix = randomBytes(6).toString('hex');
const DB_NAME = `podryad_e2e_death_${suffix}`;
let databaseUrl = '';
let b: RunningServer | undefined;
const dataDirs: string[] = [];

/** What both instances share: the database, Redis (with a prefix of this run's own) and the token secret. */
const shared = () => ({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  RATES_URL: '',
  SEED_DEMO: '0',
  JWT_SECRET: SECRET,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl!,
  REDIS_PREFIX: `e2e-death-${suffix}`,
});

async function dataDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'podryad-death-'));
  dataDirs.push(dir);
  return dir;
}

/** Instance A: `node --import tsx server/main.ts` in a child process, so that it can be killed for real. */
async function childInstance() {
  const child = runChild(['server/main.ts'], { ...shared(), LOG_LEVEL: 'warn', DATA_DIR: await dataDir() }, databaseUrl);
  const [, url] = await child.waitFor(/is running at (http:\/\/\S+)/, 90_000);
  return { ...child, url: url!.replace('localhost', '127.0.0.1') };
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl! });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const services = Boolean(adminUrl && redisUrl);

beforeAll(async () => {
  if (!services) return;
  await admin((c) => c.query(`create database ${DB_NAME}`));
  const url = new URL(adminUrl!);
  url.pathname = `/${DB_NAME}`;
  databaseUrl = url.toString();
  // Instance B runs in this process: it migrates the database, and the test makes its users and orders with it.
  b = await startServer(loadEnv({ ...shared(), LOG_LEVEL: 'silent', DATA_DIR: await dataDir() }), pino({ level: 'silent' }));
}, 120_000);

afterAll(async () => {
  await b?.close();
  if (services) await admin((c) => c.query(`drop database if exists ${DB_NAME} with (force)`));
  await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
});

const transport = (page: Page) => page.locator('.chat-page').getAttribute('data-transport');
const log = (page: Page) => page.getByRole('log', { name: 'Сообщения' });
const cardStatus = (page: Page) => page.getByTestId('order-card').locator('.status-badge').textContent().then(norm);

describe.skipIf(!services)('a page whose instance dies', { timeout: 180_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal}: the page reconnects to the other instance by itself and shows the gap's message and order step, without a reload`, async () => {
      const a = await childInstance();
      const proxy = await cuttableProxy(a.url);
      try {
        const db = b!.database.db;
        const seller = await createUser(db, { role: 'seller', roles: ['customer', 'seller'], name: 'Борис', surname: 'Продавцов' });
        const customer = await createUser(db, { name: 'Анна', surname: 'Заказова' });
        const sellerToken = await b!.app.services.tokens.sign(seller);
        const customerToken = await b!.app.services.tokens.sign(customer);
        const service = await createService(db, seller.id, { price: 100_000, days: 3 });
        // The order is made and paid on A, the instance that will die: its chat opens there.
        const order = await apiCall(a.url, customerToken, 'POST', '/api/orders', { service_id: service.id });
        const orderId = order.result._id as string;
        await payOrderForTest(b!.app, orderId);
        const detail = await apiCall(a.url, customerToken, 'GET', `/api/orders/${orderId}`);
        const chatId = detail.result.chat_id as string;
        expect(chatId).toBeTruthy();

        const { page } = await e2e.open({ token: customerToken, baseURL: proxy.url });
        await visit(page, `/profile/messages?tab=orders&chat=${chatId}`);
        await hydrated(page);
        await expect.poll(() => transport(page), POLL).toBe('polling');
        await expect.poll(() => cardStatus(page), POLL).toBe('В работе');
        const before = await log(page).locator('.msg').count();
        await setMarker(page);

        // Polls and requests that meet the dying instance, or the balancer before it moves the page, fail; a poll of
        // A's engine.io session that reaches B is answered 400. The browser logs these.
        e2e.allowConsoleErrors(/net::ERR_(EMPTY_RESPONSE|CONNECTION_RESET|CONNECTION_REFUSED|CONNECTION_CLOSED|SOCKET_NOT_CONNECTED) \[http:\/\/127\.0\.0\.1:\d+\/(api\/[\w/.-]+\/?(\?[^\]]*)?|socket\.io\/\?EIO=4&transport=polling[^\]]*)\]$/);
        e2e.allowConsoleErrors(/status of 400 \(Bad Request\) \[http:\/\/127\.0\.0\.1:\d+\/socket\.io\/\?EIO=4&transport=polling&t=[\w-]+&sid=[\w-]+\]$/);
        a.child.kill(signal);
        // SIGTERM: the instance ends its sockets as it stops; SIGKILL: the page's poll breaks. Either way the page
        // notices it is cut off…
        await expect.poll(() => transport(page), POLL).toBe('N/A');
        const { signal: died, code } = await a.exited;
        if (signal === 'SIGKILL') expect(died).toBe('SIGKILL');
        else expect(code).toBe(0);
        // …and while it is, the seller writes and delivers through B.
        await apiCall(b!.url, sellerToken, 'POST', '/api/messages/', { message: 'Ответ, пока вас не было', chat_id: chatId, recipient: customer.id });
        await apiCall(b!.url, sellerToken, 'POST', `/api/orders/${orderId}/deliver`, { message: 'Готово, проверьте.' });
        expect(await transport(page)).toBe('N/A');
        // Then the balancer sends the page to B.
        proxy.retarget(b!.url);

        await expect.poll(() => transport(page), POLL).toBe('polling');
        await expect.poll(() => log(page).textContent().then((t) => norm(t ?? '')), POLL).toContain('Ответ, пока вас не было');
        await expect.poll(() => cardStatus(page), POLL).toBe('Сдан');
        expect(await log(page).locator('.msg').count()).toBeGreaterThanOrEqual(before + 2);
        expect(await log(page).textContent()).toContain('Готово, проверьте.');
        expect(await hasMarker(page), 'the page was reloaded').toBe(true);
      } finally {
        await proxy.close();
        if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
      }
    });
  }
});
