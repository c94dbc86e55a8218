import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../server/env.ts';
import { openPglite, type Database } from '../server/db/client.ts';
import { startServer, type RunningServer } from '../server/server.ts';
import { createUser } from '../server/db/factories.ts';
import { cuttableProxy } from '../server/test/cuttable-proxy.ts';
import { hasMarker, hydrated, setMarker, useE2E, visit } from './fixtures.ts';

// Issue 29 in Chromium: a signed-in page whose instance stops (a rolling deploy's SIGTERM: the instance ends its
// sockets and closes) comes back by itself through the load balancer to the other instance, and shows the message
// sent while it was away, without a reload. Two instances share one database; a TCP proxy plays nginx.

const e2e = useE2E();
const SECRET = 'reconnect-e2e-secret-0123456789-abcdefghijklmnop';
const POLL = { timeout: 30_000, interval: 250 };
let database: Database;
let a: RunningServer;
let b: RunningServer;
let proxy: Awaited<ReturnType<typeof cuttableProxy>>;

async function instance(): Promise<RunningServer> {
  const env = loadEnv({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', RATES_URL: '', SEED_DEMO: '0', LOG_LEVEL: 'silent', JWT_SECRET: SECRET, DATA_DIR: await mkdtemp(path.join(tmpdir(), 'podryad-reconnect-')) });
  return startServer(env, pino({ level: 'silent' }), { database });
}

beforeAll(async () => {
  database = await openPglite();
  a = await instance();
  b = await instance();
  proxy = await cuttableProxy(a.url);
});
afterAll(async () => {
  await proxy?.close();
  await a?.app.close();
  await b?.close();
});

const transport = (page: Page) => page.locator('.chat-page').getAttribute('data-transport');
const log = (page: Page) => page.getByRole('log', { name: 'Сообщения' });

async function send(token: string, url: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/api/messages/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { chat_id: string } }).result;
}

describe('a page whose instance stops', () => {
  it('reconnects to the other instance by itself and shows the message sent in the gap, without a reload', async () => {
    const seller = await createUser(database.db, { role: 'seller', name: 'Борис', surname: 'Продавцов' });
    const customer = await createUser(database.db, { name: 'Анна', surname: 'Заказова' });
    const sellerToken = await b.app.services.tokens.sign(seller);
    const customerToken = await a.app.services.tokens.sign(customer);
    const { chat_id } = await send(customerToken, a.url, { message: 'Здравствуйте!', recipient: seller.id });

    const { page } = await e2e.open({ token: customerToken, baseURL: proxy.url });
    await visit(page, `/profile/messages?chat=${chat_id}`);
    await hydrated(page);
    await expect.poll(() => transport(page), POLL).toBe('polling');
    if ((await log(page).locator('.msg').count()) === 0) await page.locator('[data-testid="chat-list-chats"] .chat-item').first().click();
    await expect.poll(() => log(page).locator('.msg').count(), POLL).toBe(1);
    await setMarker(page);

    // The deploy: instance A stops (its sockets ended by the server), the balancer sends everyone to B. A poll of
    // A's engine.io session that reaches B is answered 400 (B does not know it), which the browser logs; the client
    // then opens a new session there.
    // While A stops, the page's check of its session and its poll may meet a closed connection.
    e2e.allowConsoleErrors(/net::ERR_(EMPTY_RESPONSE|CONNECTION_RESET|CONNECTION_REFUSED|CONNECTION_CLOSED|SOCKET_NOT_CONNECTED) \[http:\/\/127\.0\.0\.1:\d+\/(api\/users\/me\/|socket\.io\/\?EIO=4&transport=polling[^\]]*)\]$/);
    e2e.allowConsoleErrors(/status of 400 \(Bad Request\) \[http:\/\/127\.0\.0\.1:\d+\/socket\.io\/\?EIO=4&transport=polling&t=[\w-]+&sid=[\w-]+\]$/);
    const stopping = a.app.close();
    // The page hears that the server ended its socket (socket.io-client does not come back by itself after that)…
    await expect.poll(() => transport(page), POLL).toBe('N/A');
    // …and only then does the balancer send it elsewhere.
    proxy.retarget(b.url);
    await stopping;
    await send(sellerToken, b.url, { message: 'Ответ, пока вас не было', chat_id, recipient: customer.id });

    await expect.poll(() => transport(page), POLL).toBe('polling');
    await expect.poll(() => log(page).locator('.msg').count(), POLL).toBe(2);
    expect(await log(page).textContent()).toContain('Ответ, пока вас не было');
    expect(await hasMarker(page)).toBe(true);
  });
});
