import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { formatRubles } from '../contract/money-format.ts';
import { unique } from '../server/test/api.ts';
import { device, hydrated, norm, shotsDir, useE2E, visit, photograph } from './fixtures.ts';
import { expectFitsViewport } from './layout.ts';

// Issue 25: a buyer and a seller walk one whole order on a 375 px phone, each in their own browser — the guest's
// service page, the checkout (ADR 042), the sandbox payment, the seller told only once it is paid, the delivery,
// the acceptance and both review prompts. After every step, once the live update it causes has arrived (the
// seller's bell, the order card's new state), the page must fit the phone: no sideways scroll, nothing sticking
// out. Screenshots in /tmp/order-walk-shots/.

const e2e = useE2E();
const SHOTS = shotsDir('order-walk');
const POLL = { timeout: 30_000, interval: 250 };

const card = (page: Page) => page.getByTestId('order-card');
const cardStatus = (page: Page) => card(page).locator('.status-badge').textContent();
const dialog = (page: Page) => page.getByRole('dialog');
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());
/** The lines of an order's contents under `selector`: "label price". */
const itemsOf = async (page: Page, selector: string) =>
  (
    await page
      .locator(`${selector} .order-items__line`)
      .evaluateAll((els) => els.map((el) => [...el.children].map((c) => c.textContent).join(' ')))
  ).map(norm);

/** The unread count on a phone: the bell is inside the closed menu, whose button says the count. */
async function bellCount(page: Page): Promise<number> {
  const label = (await page.locator('.header__burger').getAttribute('aria-label')) ?? '';
  const part = label.split(', ').find((p) => p.includes('уведомлен'));
  return part ? Number.parseInt(part, 10) : 0;
}

/** Photographed, then checked to fit the phone, once what slides in (a toast) has arrived. */
async function fits(page: Page, name: string) {
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => {});
  await photograph(page, `${SHOTS}/${name}-375.png`, { fullPage: true });
  await expectFitsViewport(page);
}

describe('a whole order at 375 px', { timeout: 180_000 }, () => {
  it('guest page, checkout, sandbox payment, the seller told once paid, delivery, acceptance, review prompts', async () => {
    const { user: seller, token: sellerToken } = await e2e.user({
      role: 'seller',
      roles: ['customer', 'seller'],
      name: 'Борис',
      surname: 'Исполнителев',
    });
    const { token: buyerToken } = await e2e.user({ name: 'Анна', surname: 'Покупателева' });
    const title = `Нарисую логотип для кофейни ${unique()}`;
    const service = await createService(e2e.server.database.db, seller.id, {
      title,
      price: 200_000,
      days: 3,
      revisions: 1,
      packages: [
        { kind: 'economy', price: 200_000, days: 3, revisions: 1, description: 'Логотип в одном варианте' },
        { kind: 'standard', price: 300_000, days: 5, revisions: 2, description: 'Логотип в трёх вариантах и визитка' },
      ],
      extras: [{ title: 'Исходники в векторе', price: 40_000, days: 1 }],
    });
    const path = `/services/design/${service.id}`;

    // 0. A guest compares the packages and is sent to sign in to order.
    const guest = await e2e.open(device(375));
    await visit(guest.page, path);
    expect(await guest.page.locator('.svc-packages tbody tr').count()).toBe(2);
    expect(await guest.page.locator('.order-box').getByRole('link', { name: 'Заказать' }).count()).toBe(1);
    await fits(guest.page, 'guest-service');

    // The seller waits on their messages page: nothing reaches them until the order is paid.
    const b = await e2e.open({ token: sellerToken, ...device(375) });
    await visit(b.page, '/profile/messages?tab=orders');
    expect(await bellCount(b.page)).toBe(0);
    await fits(b.page, 'seller-before');

    // 1. The buyer's checkout: the standard package and the sources, itemised, with the total and the ways to pay.
    const a = await e2e.open({ token: buyerToken, ...device(375) });
    await visit(a.page, path);
    await a.page.getByRole('radio', { name: /Стандарт/ }).check();
    await a.page.getByRole('checkbox', { name: /Исходники в векторе/ }).check();
    await expect.poll(() => textOf(a.page, '.order-form__total'), POLL).toBe('Итого: 3 400 руб. · срок 6 дн.');
    expect(await itemsOf(a.page, '.order-form__checkout')).toEqual([
      'Пакет «Стандарт» 3 000 руб.',
      'Исходники в векторе 400 руб.',
    ]);
    await expect.poll(() => textOf(a.page, '.order-form__ways'), POLL).toContain('Банковская карта');
    await fits(a.page, 'checkout');

    // «Заказать» twice (back from the payment page) gives the same draft.
    await a.page.locator('.order-form').getByRole('button', { name: 'Заказать' }).click();
    await a.page.waitForURL(/\/payments\/[^/?]+$/);
    const orderId = new URL(a.page.url()).pathname.split('/').pop()!;
    await a.page.goBack();
    await hydrated(a.page);
    await a.page.getByRole('checkbox', { name: /Исходники в векторе/ }).check();
    await a.page.locator('.order-form').getByRole('button', { name: 'Заказать' }).click();
    await a.page.waitForURL((u) => u.pathname === `/payments/${orderId}`);
    await hydrated(a.page);

    // 2. The payment page itemises the order; the buyer pays by card in the sandbox.
    expect(await itemsOf(a.page, '.pay-summary')).toEqual([
      'Пакет «Стандарт» 3 000 руб.',
      'Исходники в векторе 400 руб.',
    ]);
    await a.page.getByRole('radio', { name: /Банковская карта/ }).check();
    await fits(a.page, 'pay');
    // Still a draft: the seller has heard nothing.
    expect(await bellCount(b.page)).toBe(0);
    await a.page.getByRole('button', { name: 'Оплатить 3 400 руб.' }).click();
    await a.page.waitForURL(/\/sandbox-pay\//);
    await hydrated(a.page);
    expect(await textOf(a.page, '.sandbox__amount')).toBe(norm(formatRubles(340_000)));
    await fits(a.page, 'sandbox');
    // Back on the payment page before confirming: the payment's status, not a second pay form.
    await a.page.goBack();
    await a.page.waitForURL((u) => u.pathname === `/payments/${orderId}`);
    await hydrated(a.page);
    await expect.poll(() => textOf(a.page, 'main'), POLL).toContain('Платёж ждёт подтверждения');
    expect(await a.page.getByRole('button', { name: /^Оплатить/ }).count()).toBe(0);
    await fits(a.page, 'pay-pending');
    await a.page.goForward();
    await a.page.waitForURL(/\/sandbox-pay\//);
    await hydrated(a.page);
    await a.page.getByRole('button', { name: 'Оплатить', exact: true }).click();
    await a.page.waitForURL((u) => u.pathname === `/payments/${orderId}`);
    await hydrated(a.page);
    await expect.poll(() => textOf(a.page, 'main'), POLL).toContain('Заказ оплачен');
    await fits(a.page, 'paid');

    // 3. The seller is told live, now: the bell counts the new paid order; its notification opens the order chat.
    await expect.poll(() => bellCount(b.page), POLL).toBe(1);
    await fits(b.page, 'seller-told');
    await visit(b.page, '/profile/notifications');
    const notice = b.page.getByTestId('notifications-list').locator('li').first();
    expect(norm(await notice.textContent())).toContain('оплачен — можно приступать');
    await notice.locator('a').click();
    await b.page.waitForURL((u) => u.pathname === '/profile/messages' && u.searchParams.has('chat'));
    await hydrated(b.page);
    await expect.poll(() => cardStatus(b.page), POLL).toBe('В работе');
    const facts = norm(await card(b.page).textContent());
    expect(facts).toContain(`${title} (Стандарт)`);
    expect(facts).not.toContain('Стандарт) · Стандарт');
    expect(await itemsOf(b.page, '[data-testid="order-card"]')).toEqual([
      'Пакет «Стандарт» 3 000 руб.',
      'Исходники в векторе 400 руб.',
    ]);
    await fits(b.page, 'seller-chat');

    // The buyer goes from the payment page to the same chat.
    await a.page.getByRole('link', { name: 'Перейти в чат заказа' }).click();
    await a.page.waitForURL(/\/profile\/messages\?tab=orders&chat=/);
    await hydrated(a.page);
    await expect.poll(() => cardStatus(a.page), POLL).toBe('В работе');
    await fits(a.page, 'buyer-chat');

    // 4. The seller delivers; the buyer's card turns «Сдан» live.
    await card(b.page).getByRole('button', { name: 'Сдать работу' }).click();
    await dialog(b.page)
      .getByLabel('Сообщение заказчику')
      .fill('Готово: три варианта логотипа и визитка, исходники во вложении.');
    await fits(b.page, 'deliver-dialog');
    await dialog(b.page).getByRole('button', { name: 'Сдать работу' }).click();
    await expect.poll(() => cardStatus(b.page), POLL).toBe('Сдан');
    await fits(b.page, 'seller-delivered');
    await expect.poll(() => cardStatus(a.page), POLL).toBe('Сдан');
    await fits(a.page, 'buyer-delivered');

    // 5. The buyer accepts; both cards end completed live, each with its review prompt.
    await card(a.page).getByRole('button', { name: 'Принять' }).click();
    await dialog(a.page).getByRole('button', { name: 'Принять' }).click();
    await expect.poll(() => cardStatus(a.page), POLL).toBe('Завершён');
    const review = (page: Page) => card(page).getByRole('button', { name: 'Оставить отзыв' });
    await expect.poll(() => review(a.page).count(), POLL).toBe(1);
    await fits(a.page, 'buyer-completed');
    await expect.poll(() => cardStatus(b.page), POLL).toBe('Завершён');
    await expect.poll(() => review(b.page).count(), POLL).toBe(1);
    await fits(b.page, 'seller-completed');
  });
});
