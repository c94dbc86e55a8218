import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { hasMarker, norm, setMarker, useE2E, visit, apiCall as apiAs } from './fixtures.ts';

// Issue 25: a page refreshes its own state when the event the bell hears arrives (ADR 044, web/lib/live-refresh.ts).
// One person keeps a page open in the browser while another acts (through the API, as their browser would): an
// admin approves the seller's service, a customer accepts the seller's order, a seller bids on the customer's
// project, an admin answers an appeal. The open page shows the new state, and it is the same document (no reload).

const e2e = useE2E();

const POLL = { timeout: 30_000, interval: 250 };

/** An API call as another person's browser would make it. */
const apiCall = (token: string, method: string, url: string, body?: unknown) => apiAs(e2e.url, token, method, url, body);

/** Opens a page, waits for the text that says its present state, and marks the document (see hasMarker). */
async function watch(page: Page, path: string, text: (page: Page) => Promise<string>, now: string) {
  await visit(page, path);
  await expect.poll(async () => norm(await text(page)), POLL).toContain(now);
  await setMarker(page);
}

/** The page shows `then` without a reload. */
async function expectLive(page: Page, text: (page: Page) => Promise<string>, then: string) {
  await expect.poll(async () => norm(await text(page)), POLL).toContain(then);
  expect(await hasMarker(page), 'the page was reloaded').toBe(true);
}

const main = (page: Page) => page.locator('main').innerText();

/** A paid order of a fresh seller's service, delivered: the customer's acceptance pays the seller. */
async function deliveredOrder() {
  const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
  const customer = await e2e.user();
  const service = await createService(e2e.server.database.db, seller.user.id, { price: 100_000, days: 3 });
  const order = await apiCall(customer.token, 'POST', '/api/orders', { service_id: service.id });
  const orderId = order.result._id as string;
  await payOrderForTest(e2e.server.app, orderId);
  await apiCall(seller.token, 'POST', `/api/orders/${orderId}/deliver`, { message: 'Готово, проверьте.' });
  return { seller, customer, orderId, number: order.result.number as number };
}

describe('pages refresh on the events the bell receives', { timeout: 120_000 }, () => {
  it('an aborted load left unhandled is not reported as an error (a revalidation interrupted by the next)', async () => {
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const { page } = await e2e.open({ token: seller.token });
    await watch(page, '/profile/items', main, 'Мои');
    // What React Router leaves behind when a revalidation interrupts another: its abort's rejection, unhandled.
    // The test's afterEach fails on any uncaught error in the page.
    await page.evaluate(() => {
      const controller = new AbortController();
      controller.abort();
      void Promise.reject(controller.signal.reason);
    });
    await page.waitForTimeout(300);
  });

  it('my services: an admin approves a service in moderation', async () => {
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const admin = await e2e.user({ role: 'admin' });
    const service = await createService(e2e.server.database.db, seller.user.id, {
      title: 'Нарисую логотип для пекарни',
      status: 'moderation',
    });
    const { page } = await e2e.open({ token: seller.token });
    const card = (p: Page) => p.locator('.my-item', { hasText: service.title }).innerText();
    await watch(page, '/profile/items', card, 'На модерации');

    await apiCall(admin.token, 'PATCH', `/api/admin/services/${service.id}`, { status: 'active' });
    await expectLive(page, card, 'Активна');
  });

  it('finance: the customer accepts the order and the seller is paid', async () => {
    const { seller, customer, orderId, number } = await deliveredOrder();
    const { page } = await e2e.open({ token: seller.token });
    const available = (p: Page) => p.getByTestId('balance-available').innerText();
    await watch(page, '/profile/finance', available, '0');
    const before = norm(await available(page));

    await apiCall(customer.token, 'POST', `/api/orders/${orderId}/accept`, {});
    await expect.poll(async () => norm(await available(page)), POLL).not.toBe(before);
    await expectLive(page, main, `Оплата за заказ · Заказ №${number}`);
  });

  it('finance: an order accepted before the page’s socket connects still shows', async () => {
    const { seller, customer, orderId } = await deliveredOrder();
    const { page } = await e2e.open({ token: seller.token });
    // The socket's requests wait until the order is accepted: its notification is sent to nobody.
    let accepted!: () => void;
    const acceptance = new Promise<void>((resolve) => (accepted = resolve));
    await page.route('**/socket.io/**', async (route) => {
      await acceptance;
      await route.continue();
    });
    const available = (p: Page) => p.getByTestId('balance-available').innerText();
    await watch(page, '/profile/finance', available, '0');
    const before = norm(await available(page));

    await apiCall(customer.token, 'POST', `/api/orders/${orderId}/accept`, {});
    accepted();
    await expect.poll(async () => norm(await available(page)), POLL).not.toBe(before);
    expect(await hasMarker(page), 'the page was reloaded').toBe(true);
  });

  it('my projects: a seller bids on the customer’s project', async () => {
    const customer = await e2e.user();
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const project = await createProject(e2e.server.database.db, customer.user.id, {
      title: 'Лендинг для пекарни на Tilda',
    });
    const { page } = await e2e.open({ token: customer.token });
    const card = (p: Page) => p.locator('.my-item', { hasText: project.title }).innerText();
    await watch(page, '/profile/items', card, '0 откликов');

    await apiCall(seller.token, 'POST', `/api/projects/${project.id}/bids`, {
      price: 1_500_000,
      days: 7,
      comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
    });
    await expectLive(page, card, '1 отклик');
  });

  it('appeals: an admin answers the appeal', async () => {
    const member = await e2e.user();
    const admin = await e2e.user({ role: 'admin' });
    const appeal = await apiCall(member.token, 'POST', '/api/appeals', {
      subject: 'question',
      text: 'Как поменять адрес электронной почты в профиле?',
    });
    const { page } = await e2e.open({ token: member.token });
    const item = (p: Page) => p.getByTestId('appeal').first().innerText();
    await watch(page, '/profile/disputes?tab=appeals', item, 'Как поменять адрес');
    expect(await page.getByTestId('appeal-answer').count()).toBe(0);

    await apiCall(admin.token, 'POST', `/api/admin/appeals/${appeal.result._id as string}/answer`, {
      answer: 'Откройте «Настройки» и впишите новый адрес.',
    });
    await expectLive(page, item, 'Откройте «Настройки» и впишите новый адрес.');
  });
});
