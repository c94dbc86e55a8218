import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { formatRubles } from '../contract/money-format.ts';
import { apiCall, device, hydrated, norm, pageCheck, shotsDir, useE2E, visit, widthsFor } from './fixtures.ts';

// Issue 30's top-up in Chromium (ADR 062): on /profile/finance the customer tops the balance up by card in the
// sandbox — «Пополнить баланс», the sandbox's page, «Оплатить», back to the finance page — and the balance, the
// top-up's line and the list of top-ups show the amount to the kopeck; then an order is paid from that balance and
// the rest is checked to the kopeck too. On a 375 px phone (at 1280 px too with E2E_WIDTHS=both,
// ADR 095), photographed into /tmp/top-up-shots/.

const e2e = useE2E();

const SHOTS = shotsDir('top-up');
const pageShot = pageCheck(SHOTS, { settle: true });
async function checkPage(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await pageShot(page, name);
}

const POLL = { timeout: 30_000, interval: 250 };
const rubles = (kopecks: number) => norm(formatRubles(kopecks));
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());
const form = (page: Page) => page.getByRole('form', { name: 'Пополнить баланс' });

describe('top-ups', { timeout: 120_000 }, () => {
  it.each(widthsFor(375))('a top-up by card in the sandbox, then an order paid from the balance (%i px)', async (width) => {
    const { token } = await e2e.user({ name: 'Анна', surname: 'Заказова' });
    const { page } = await e2e.open({ token, ...device(width) });
    expect(await visit(page, '/profile/finance')).toBe(200);
    await hydrated(page);
    expect(await textOf(page, '[data-testid="balance-available"]')).toBe(rubles(0));
    const topUp = form(page);
    await expect.poll(() => topUp.isVisible()).toBe(true);
    await checkPage(page, 'finance-empty');

    // Below the card's minimum: said on the page, nothing sent.
    await topUp.getByLabel('Сумма пополнения, руб.').fill('100');
    await topUp.getByRole('button', { name: 'Пополнить' }).click();
    expect(norm(await topUp.locator('[role="alert"]').first().textContent())).toBe(`Этим способом можно пополнить баланс от ${rubles(50_000)}`);

    // 1 234,56 ₽ by card: to the sandbox's page, which says what it pays, and «Оплатить».
    await topUp.getByLabel('Способ пополнения').selectOption('card');
    await topUp.getByLabel('Сумма пополнения, руб.').fill('1 234,56');
    await topUp.getByRole('button', { name: 'Пополнить' }).click();
    await page.waitForURL(/\/sandbox-pay\//);
    await hydrated(page);
    expect(await textOf(page, '.sandbox__amount')).toBe(rubles(123_456));
    expect(await textOf(page, 'main')).toContain('Пополнение баланса');
    await checkPage(page, 'sandbox');
    await page.getByRole('button', { name: 'Оплатить', exact: true }).click();

    // Back on the finance page: the balance, the top-up's line and its state once the webhook has come.
    await page.waitForURL((u) => u.pathname === '/profile/finance' && u.searchParams.has('top_up'));
    await hydrated(page);
    await expect.poll(() => textOf(page, '[data-testid="balance-available"]'), POLL).toBe(rubles(123_456));
    await expect.poll(() => textOf(page, '[data-testid="top-up"]'), POLL).toContain('Зачислено');
    expect(await textOf(page, '[data-testid="top-up"]')).toContain(rubles(123_456));
    expect(await textOf(page, '.fin-entries tbody tr td[data-label="Операция"]')).toBe('Пополнение баланса');
    expect(await textOf(page, '.fin-entries tbody tr td[data-label="Сумма"]')).toBe(`+${rubles(123_456)}`);
    expect(await textOf(page, '.fin-entries tbody tr td[data-label="Баланс после"]')).toBe(rubles(123_456));
    expect(await textOf(page, 'main')).toContain('Баланс пополнен.');
    await checkPage(page, 'finance-topped-up');

    // An order of 1 000 ₽ paid from that balance: 234,56 ₽ left, to the kopeck.
    const { user: seller } = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Продавцов' });
    const service = await createService(e2e.server.database.db, seller.id, { title: `Логотип (${width})`, price: 100_000, days: 3 });
    const order = await apiCall(e2e.url, token, 'POST', '/api/orders', { service_id: service.id });
    const paid = await fetch(`${e2e.url}/api/payments/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ order_id: order.result._id, method: 'balance' }),
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect(await visit(page, '/profile/finance')).toBe(200);
    await hydrated(page);
    expect(await textOf(page, '[data-testid="balance-available"]')).toBe(rubles(23_456));
    expect(await textOf(page, '.fin-entries tbody tr td[data-label="Операция"]')).toContain('Оплата заказа');
    expect(await textOf(page, '.fin-entries tbody tr td[data-label="Баланс после"]')).toBe(rubles(23_456));
    await checkPage(page, 'finance-spent');
  });
});
