import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { users } from '../server/modules/users/schema.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { checkA11y, hydrated, pathOf, useE2E, visit, widthsFor, device, shotsDir, apiCall as apiAs, photograph } from './fixtures.ts';

// Issue 13's notifications in Chromium (ADR 030): a customer watches the header while a seller bids on their
// project — the bell's count rises live, the new notification appears at the top of /profile/notifications, and
// opening it goes to the bids; an order delivered by the seller does the same and opens the order's chat; "mark
// all read" clears the count; a letter's unsubscribe page switches its letters off without signing in. On a 375 px
// phone (at 1280 px too with E2E_WIDTHS=both, ADR 095), photographed into /tmp/notifications-shots/.

const e2e = useE2E();

const SHOTS = shotsDir('notifications');

const POLL = { timeout: 30_000, interval: 250 };

async function shot(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  await photograph(page, path.join(SHOTS, `${name}-${width}.png`), { fullPage: true });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${pathOf(page)} is wider than the ${width} px screen`).toBeLessThanOrEqual(width);
}

/** An API call as another person's browser would make it. */
const apiCall = (token: string, method: string, url: string, body?: unknown) => apiAs(e2e.url, token, method, url, body);

/**
 * The unread count the header shows: the bell's badge at 1280 px; on a phone the bell is inside the closed menu,
 * and the menu's button says the count (its label; a dot shows on it).
 */
async function bellCount(page: Page): Promise<number> {
  if (page.viewportSize()!.width < 700) {
    const label = (await page.locator('.header__burger').getAttribute('aria-label')) ?? '';
    const part = label.split(', ').find((p) => p.includes('уведомлен'));
    return part ? Number.parseInt(part, 10) : 0;
  }
  const badge = page.getByTestId('notifications-unread');
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.locator('[aria-hidden]').textContent()) ?? '0');
}

/** On a phone: the menu opened (the bell and its badge inside), photographed, and closed again. */
async function shotMenu(page: Page) {
  if (page.viewportSize()!.width >= 700) return;
  await page.locator('.header__burger').click();
  await page.getByTestId('notifications-unread').waitFor();
  await photograph(page, path.join(SHOTS, 'menu-375.png'));
  await page.locator('.header__burger').click();
}

const bid = { price: 1_500_000, days: 7, comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.' };

describe.each(widthsFor(375))('notifications at %i px', (width) => {
  it('the count rises live on a bid and a delivery; the list opens their objects; all read clears it', async () => {
    const customer = await e2e.user();
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const project = await createProject(e2e.server.database.db, customer.user.id, {
      title: `Лендинг для кофейни ${width}`,
    });
    const { page } = await e2e.open({ token: customer.token, ...device(width) });

    await visit(page, '/profile/notifications');
    await expect
      .poll(() => page.getByTestId('notifications-empty').textContent(), POLL)
      .toContain('Уведомлений пока нет');
    expect(await bellCount(page)).toBe(0);
    await shot(page, 'empty');

    // Another person's action: a bid on the customer's project.
    await apiCall(seller.token, 'POST', `/api/projects/${project.id}/bids`, bid);
    await expect.poll(() => bellCount(page), POLL).toBe(1);
    const first = page.getByTestId('notifications-list').locator('li').first();
    await expect.poll(() => first.textContent(), POLL).toContain(`Новый отклик на проект «${project.title}»`);

    // A delivered order: the count rises again.
    const service = await createService(e2e.server.database.db, seller.user.id, { price: 100_000, days: 3 });
    const order = await apiCall(customer.token, 'POST', '/api/orders', { service_id: service.id });
    const orderId = order.result._id as string;
    await payOrderForTest(e2e.server.app, orderId);
    // The order's chat opens once it is paid (ADR 042).
    const chatId = (await apiCall(customer.token, 'GET', `/api/orders/${orderId}`)).result.chat_id as string;
    await apiCall(seller.token, 'POST', `/api/orders/${orderId}/deliver`, { message: 'Готово, проверьте.' });
    await expect.poll(() => bellCount(page), POLL).toBe(2);
    await expect.poll(() => first.textContent(), POLL).toContain('сдана');
    await shot(page, 'list');
    await checkA11y(page);
    await shotMenu(page);

    // Opening the delivery goes to the order's chat and marks it read.
    await first.locator('a').click();
    await page.waitForURL(
      (u) => u.pathname === '/profile/messages' && u.searchParams.get('chat') === chatId,
    );
    await hydrated(page);
    await expect.poll(() => bellCount(page), POLL).toBe(1);

    // The bid's notification opens the bids.
    await visit(page, '/profile/notifications');
    await page.getByTestId('notifications-list').getByText(`Новый отклик на проект «${project.title}»`).click();
    await page.waitForURL((u) => u.pathname === '/profile/bids');
    await hydrated(page);
    await expect.poll(() => bellCount(page), POLL).toBe(0);

    // A new one, then "mark all read".
    const other = await createProject(e2e.server.database.db, customer.user.id, { title: `Второй проект ${width}` });
    await apiCall(seller.token, 'POST', `/api/projects/${other.id}/bids`, bid);
    await visit(page, '/profile/notifications');
    await expect.poll(() => bellCount(page), POLL).toBe(1);
    await page.getByRole('button', { name: 'Отметить все прочитанными' }).click();
    await expect.poll(() => bellCount(page), POLL).toBe(0);
    await expect
      .poll(() => page.getByTestId('notifications-count').textContent(), POLL)
      .toBe('Все уведомления прочитаны');
  });

  it('the unsubscribe page of a letter switches its letters off without signing in', async () => {
    const person = await e2e.user();
    const link = new URL(e2e.server.app.services.letters.unsubscribeUrl(person.user.id, 'orders'));
    const { page } = await e2e.open(device(width));
    await visit(page, `${link.pathname}${link.search}`);
    await expect
      .poll(() => page.locator('main').textContent(), POLL)
      .toContain('Отписаться от писем «Заказы и оплата»?');
    await shot(page, 'unsubscribe');
    await page.getByRole('button', { name: 'Отписаться' }).click();
    await expect
      .poll(() => page.getByTestId('unsubscribe-done').textContent(), POLL)
      .toContain('больше не будут приходить');
    await shot(page, 'unsubscribed');
    await checkA11y(page);
    const [row] = await e2e.server.database.db.select().from(users).where(eq(users.id, person.user.id));
    expect(row!.preferences.emailNotifications).toEqual({ orders: false });

    await visit(
      page,
      `${link.pathname}?token=${encodeURIComponent(`${person.user.id}.bids.${link.searchParams.get('token')!.split('.')[2]}`)}`,
    );
    await expect
      .poll(() => page.getByTestId('unsubscribe-error').textContent(), POLL)
      .toBe('Ссылка для отписки недействительна');
  });
});
