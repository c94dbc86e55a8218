import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { settings } from '../server/platform/schema.ts';
import { postTransfer } from '../server/modules/ledger/index.ts';
import { systemActor } from '../server/platform/actor.ts';
import { formatCurrency, formatRubles } from '../contract/money-format.ts';
import { unique } from '../server/test/api.ts';
import { hydrated, useE2E, visit, pageCheck, widthsFor, device, norm, shotsDir, PACKAGED_SERVICE, photograph } from './fixtures.ts';

/** Rubles as the site writes them, its no-break spaces made plain like the texts `norm` reads. */
const rubles = (kopecks: number) => norm(formatRubles(kopecks));

// Issue 12's proof in Chromium: the money loop through the pages, with a customer, a seller and an admin in their
// own browser contexts. (1) A service ordered with a package and an extra, paid by card in the sandbox, delivered
// with a file, sent back for a revision, delivered again and accepted — each side sees the other's step live —
// then the seller's balance (price − commission) withdrawn to a card and approved by an admin. (2) A project: a
// seller bids, the customer accepts the bid and pays in USDT with a quote or from the balance. The first on a 375 px phone (at
// 1280 px too with E2E_WIDTHS=both, ADR 095), the second at both; every money page is checked for sideways scrolling and accessibility, and photographed into
// /tmp/money-shots/.

const e2e = useE2E();

// The operator's fallback rates, stored before any page of this server is rendered (guest pages are cached).
const USDT_RATE = 95;
beforeAll(async () => {
  await e2e.server.database.db.insert(settings).values([
    { key: 'rates.fallbackUSDT', value: USDT_RATE },
    { key: 'rates.fallbackBTC', value: 9_000_000 },
  ]);
  e2e.server.app.services.settings.forget();
});

const SHOTS = shotsDir('money');
const checkPage = pageCheck(SHOTS);

const POLL = { timeout: 30_000, interval: 250 };

/** Text with every run of spaces (no-break and narrow ones too) made one plain space. */
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const card = (page: Page) => page.getByTestId('order-card');
const cardStatus = (page: Page) => card(page).locator('.status-badge').textContent();
const log = (page: Page) => page.getByRole('log', { name: 'Сообщения' });
const dialog = (page: Page) => page.getByRole('dialog');

/** Back from the sandbox's page, the payment page shows the order paid once the webhook has arrived. */
async function expectPaid(page: Page, orderId: string) {
  await page.waitForURL((u) => u.pathname === `/payments/${orderId}`);
  await hydrated(page);
  await expect.poll(() => textOf(page, 'main'), POLL).toContain('Заказ оплачен');
}

/** On the sandbox provider's page: the amount, then «Оплатить», which sends the signed webhook and returns. */
async function payInSandbox(page: Page, amount: string) {
  await page.waitForURL(/\/sandbox-pay\//);
  await hydrated(page);
  expect(await textOf(page, '.sandbox__amount')).toBe(amount);
  await checkPage(page, `${amount.includes('USDT') ? 'project' : 'service'}-sandbox`);
  await page.getByRole('button', { name: 'Оплатить', exact: true }).click();
}

describe('money', { timeout: 150_000 }, () => {
  it.each(widthsFor(375))(
    'a service: package + extra, card in the sandbox, delivery with a file, revision, accept, withdrawal (%i px)',
    async (width) => {
      const tag = 'service';
      const { user: seller, token: sellerToken } = await e2e.user({
        role: 'seller',
        name: 'Борис',
        surname: 'Продавцов',
      });
      const { token: customerToken } = await e2e.user({ name: 'Анна', surname: 'Заказова' });
      const { token: adminToken } = await e2e.user({ role: 'admin' });
      const title = `Сделаю фирменный стиль для пекарни ${unique()}`;
      const service = await createService(e2e.server.database.db, seller.id, { title, ...PACKAGED_SERVICE });
      // The business package and the sources: 4 000 + 300 руб., 7 + 1 days; the seller gets the price less 15 %.
      const price = 430_000;
      const sellerGets = price - Math.round((price * 1500) / 10_000);

      const a = await e2e.open({ token: customerToken, ...device(width) });
      const b = await e2e.open({ token: sellerToken, ...device(width) });

      // 1. The customer orders from the service page (the lazily loaded form) and pays by card in the sandbox.
      await visit(a.page, `/services/design/${service.id}`);
      await a.page.getByRole('radio', { name: /Бизнес/ }).check();
      await a.page.getByRole('checkbox', { name: /Исходники/ }).check();
      await expect.poll(() => textOf(a.page, '.order-form__total'), POLL).toBe('Итого: 4 300 руб. · срок 8 дн.');
      await a.page.locator('.order-form').getByRole('button', { name: 'Заказать' }).click();
      await a.page.waitForURL(/\/payments\/[^/?]+$/);
      await hydrated(a.page);
      const orderId = new URL(a.page.url()).pathname.split('/').pop()!;
      await a.page.getByRole('radio', { name: /Банковская карта/ }).check();
      await checkPage(a.page, `${tag}-pay`);
      await a.page.getByRole('button', { name: 'Оплатить 4 300 руб.' }).click();
      await payInSandbox(a.page, rubles(price));
      await expectPaid(a.page, orderId);
      await checkPage(a.page, `${tag}-paid`);

      // 2. The seller finds the order chat under «Заказы»: the card (state, price, deadline) and the system message.
      await visit(b.page, '/profile/messages');
      await b.page.getByRole('tab', { name: /Заказы/ }).click();
      const orderChat = b.page.locator('[data-testid="chat-list-orders"] .chat-item');
      await expect.poll(() => orderChat.count(), POLL).toBe(1);
      await orderChat.first().click();
      await expect.poll(() => cardStatus(b.page), POLL).toBe('В работе');
      const facts = norm(await card(b.page).textContent());
      expect(facts).toContain(title);
      expect(facts).toContain('Бизнес');
      expect(facts).toContain('4 300 руб.');
      expect(facts).toMatch(/до срока/);
      expect(facts).toContain(`Вы получите ${rubles(sellerGets)}`);
      await expect
        .poll(
          () =>
            log(b.page)
              .locator('.msg--system')
              .allTextContents()
              .then((t) => t.map(norm).join(' | ')),
          POLL,
        )
        .toContain('Заказ оплачен, деньги зарезервированы.');
      await checkPage(b.page, `${tag}-seller-chat`);

      // The customer follows the payment page's link into the same chat.
      await a.page.getByRole('link', { name: 'Перейти в чат заказа' }).click();
      await a.page.waitForURL(/\/profile\/messages\?tab=orders&chat=/);
      await hydrated(a.page);
      await expect.poll(() => cardStatus(a.page), POLL).toBe('В работе');

      // The seller delivers with a message and a file.
      await card(b.page).getByRole('button', { name: 'Сдать работу' }).click();
      await dialog(b.page)
        .getByLabel('Сообщение заказчику')
        .fill('Готово: логотип и фирменный стиль, исходники во вложении.');
      await dialog(b.page)
        .locator('input[type="file"]')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_1X1 });
      await expect.poll(async () => norm(await dialog(b.page).textContent()), POLL).toContain('logo.png');
      const submit = dialog(b.page).getByRole('button', { name: 'Сдать работу' });
      await expect.poll(() => submit.isEnabled(), POLL).toBe(true);
      await photograph(b.page, path.join(SHOTS, `${tag}-deliver-dialog-${width}.png`));
      await submit.click();
      await expect.poll(() => cardStatus(b.page), POLL).toBe('Сдан');

      // 3. The customer sees the delivery live, with the file, and asks for a revision; the seller sees it live.
      await expect.poll(() => cardStatus(a.page), POLL).toBe('Сдан');
      const delivery = log(a.page).locator('.msg--delivery').last();
      await expect
        .poll(async () => norm(await delivery.textContent()), POLL)
        .toContain('Готово: логотип и фирменный стиль');
      await expect.poll(() => delivery.locator('img[alt="logo.png"], a:has-text("logo.png")').count(), POLL).toBe(1);
      await checkPage(a.page, `${tag}-customer-delivered`);
      await card(a.page).getByRole('button', { name: 'Запросить доработку' }).click();
      await dialog(a.page).getByLabel('Что нужно доработать').fill('Сделайте, пожалуйста, логотип чуть крупнее.');
      await dialog(a.page).getByRole('button', { name: 'Отправить на доработку' }).click();
      await expect.poll(() => cardStatus(a.page), POLL).toBe('В работе');
      await expect.poll(() => cardStatus(b.page), POLL).toBe('В работе');
      expect(norm(await card(b.page).textContent())).toContain('Доработок осталось: 1');

      // The seller delivers again; the customer accepts; both cards end completed without a reload.
      await card(b.page).getByRole('button', { name: 'Сдать работу' }).click();
      await dialog(b.page).getByLabel('Сообщение заказчику').fill('Увеличил логотип, новая версия готова.');
      await dialog(b.page).getByRole('button', { name: 'Сдать работу' }).click();
      await expect.poll(() => cardStatus(a.page), POLL).toBe('Сдан');
      await card(a.page).getByRole('button', { name: 'Принять' }).click();
      await dialog(a.page).getByRole('button', { name: 'Принять' }).click();
      await expect.poll(() => cardStatus(a.page), POLL).toBe('Завершён');
      await expect.poll(() => cardStatus(b.page), POLL).toBe('Завершён');
      await checkPage(b.page, `${tag}-seller-completed`);

      // 4. The seller's balance is the price less the commission; they withdraw all of it to a card.
      await visit(b.page, '/profile/finance');
      const available = () => textOf(b.page, '[data-testid="balance-available"]');
      const held = () => textOf(b.page, '.fin-balance:nth-child(2) .fin-balance__value');
      expect(await available()).toBe(rubles(sellerGets));
      expect(await held()).toBe('0 руб.');
      const entries = b.page.locator('.fin-entries tbody tr');
      expect(await entries.count()).toBe(1);
      // The seller's line: the price, the commission and the net, then the plus and the balance (issue 25).
      expect(norm(await entries.first().textContent())).toMatch(
        /Оплата за заказ · Заказ №\d+Цена заказа4 300 руб\.Комиссия сервиса−645 руб\.Вам3 655 руб\.\+3 655 руб\.3 655 руб\./,
      );
      await checkPage(b.page, `${tag}-finance`);
      // The card goes into the sandbox's payout widget: the page gets its token and mask only (ADR 050).
      await b.page.getByLabel('Номер карты').fill('4111 1111 1111 1111');
      await b.page.getByRole('button', { name: 'Сохранить карту' }).click();
      await expect.poll(() => textOf(b.page, '[data-testid="payout-card"]'), POLL).toContain('Карта 411111 •• 1111');
      await b.page.getByLabel('Сумма, руб.').fill(String(sellerGets / 100));
      await b.page.getByRole('button', { name: 'Вывести' }).click();
      await expect.poll(available, POLL).toBe('0 руб.');
      expect(await held()).toBe(rubles(sellerGets));

      // An admin approves the request on /admin/payments.
      const admin = await e2e.open({ token: adminToken, ...device(width) });
      await visit(admin.page, '/admin/payments');
      const request = admin.page.locator('tr', { hasText: seller.email });
      await expect.poll(() => request.count(), POLL).toBe(1);
      expect(norm(await request.textContent())).toContain(norm(rubles(sellerGets)));
      // The card is its mask: no number is kept anywhere to show (ADR 050).
      expect(norm(await request.textContent())).toContain('Банковская карта: 411111 •• 1111');
      expect(norm(await request.textContent())).not.toContain('4111111111111111');
      await checkPage(admin.page, `${tag}-admin-payments`);
      await request.getByRole('button', { name: 'Одобрить' }).click();
      await expect.poll(() => request.count(), POLL).toBe(0);

      // The seller's money has left: nothing held, the entry of the paid withdrawal; the request is done.
      await visit(b.page, '/profile/finance');
      expect(await held()).toBe('0 руб.');
      expect(await available()).toBe('0 руб.');
      expect(norm(await entries.first().textContent())).toContain('Вывод выполнен');
      // Only the order's payment is a green plus: the withdrawal is a minus, its held lines have no sign (issue 25).
      expect(await b.page.locator('.fin-entries .fin-plus').count()).toBe(1);
      expect(await b.page.locator('.fin-entries .fin-minus').count()).toBe(1);
      await visit(b.page, '/profile/payments');
      const withdrawal = b.page.locator('tr', { hasText: '411111 •• 1111' });
      expect(await withdrawal.count()).toBe(1);
      expect(norm(await withdrawal.textContent())).toContain(
        `${rubles(sellerGets)}Банковская карта: 411111 •• 1111 (Visa)Выполнен`,
      );
      await checkPage(b.page, `${tag}-seller-payments`);
    },
  );

  it.each([
    [1280, 'usdt'],
    [375, 'balance'],
  ] as const)('a project: a seller bids, the customer accepts the bid and pays (%i px, %s)', async (width, method) => {
    const tag = 'project';
    const { user: customer, token: customerToken } = await e2e.user({ name: 'Вера', surname: 'Проектова' });
    const { token: sellerToken } = await e2e.user({ role: 'seller', name: 'Глеб', surname: 'Откликов' });
    const title = `Нужен сайт для студии йоги ${unique()}`;
    const project = await createProject(e2e.server.database.db, customer.id, { title, budget: 600_000 });
    const price = 500_000;
    if (method === 'balance') {
      // Money on the customer's balance, as an earlier card payment would have left it.
      await e2e.server.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
        postTransfer(tx, {
          kind: 'payment',
          key: `e2e-top-up:${customer.id}`,
          legs: [
            { account: { kind: 'external', method: 'card' }, amount: -1_000_000 },
            { account: { kind: 'available', userId: customer.id }, amount: 1_000_000 },
          ],
        }),
      );
    }

    // The seller bids on the project page.
    const b = await e2e.open({ token: sellerToken, ...device(width) });
    await visit(b.page, `/projects/development/${project.id}`);
    const form = b.page.getByTestId('bid-form');
    await form.getByLabel('Цена, руб.').fill('5000');
    await form.getByLabel('Срок, дней').fill('5');
    await form.getByLabel('Комментарий').fill('Сделаю адаптивный сайт на современном стеке, покажу похожие работы.');
    await checkPage(b.page, `${tag}-bid-form`);
    await form.getByRole('button', { name: 'Откликнуться' }).click();
    await expect.poll(() => form.count(), POLL).toBe(0);
    await expect.poll(() => textOf(b.page, 'main'), POLL).toContain('5 000');

    // The customer accepts it (with the confirmation) and lands on the order's payment page.
    const a = await e2e.open({ token: customerToken, ...device(width) });
    await visit(a.page, `/projects/development/${project.id}`);
    const received = a.page.getByTestId('received-bids');
    await expect.poll(() => textOf(a.page, '[data-testid="received-bids"]'), POLL).toContain('Глеб Откликов');
    await checkPage(a.page, `${tag}-received-bids`);
    await received.getByTestId('accept-bid').click();
    await dialog(a.page).getByRole('button', { name: 'Принять и перейти к оплате' }).click();
    await a.page.waitForURL(/\/payments\/[^/?]+$/);
    await hydrated(a.page);
    const orderId = new URL(a.page.url()).pathname.split('/').pop()!;
    expect(await textOf(a.page, 'main')).toContain(title);

    if (method === 'usdt') {
      // 5 000 руб. + the method's 1 % fee at 95 руб. per USDT, rounded up to the cent: 53,16 USDT.
      const usdt = norm(formatCurrency(Math.ceil((price * 1.01) / USDT_RATE), 'USDT'));
      expect(usdt).toBe('53,16 USDT');
      await a.page.getByRole('radio', { name: /USDT/ }).check();
      await a.page.getByRole('button', { name: 'Рассчитать сумму в USDT' }).click();
      await expect.poll(() => textOf(a.page, '.pay-quote__amount'), POLL).toBe(`К оплате: ${usdt}`);
      expect(await textOf(a.page, '.pay-quote__timer')).toMatch(/^Курс зафиксирован ещё 1[45]:\d\d$/);
      await checkPage(a.page, `${tag}-quote`);
      await a.page.getByRole('button', { name: `Оплатить ${usdt}` }).click();
      await payInSandbox(a.page, usdt);
      await expectPaid(a.page, orderId);
    } else {
      await a.page.getByRole('radio', { name: /Баланс/ }).check();
      expect(await textOf(a.page, '.pay-method--on')).toContain('Доступно 10 000 руб.');
      await checkPage(a.page, `${tag}-pay-balance`);
      await a.page.getByRole('button', { name: 'Оплатить 5 000 руб.' }).click();
      await expect.poll(() => textOf(a.page, 'main'), POLL).toContain('Заказ оплачен');
    }
    await checkPage(a.page, `${tag}-paid`);

    // The customer's payments list shows it; the seller finds the order in progress among their sales.
    await visit(a.page, '/profile/payments');
    const payment = a.page.locator('tr', { hasText: title });
    if (method === 'usdt') {
      expect(norm(await payment.textContent())).toContain('53,16 USDT');
      expect(norm(await payment.textContent())).toContain('Оплачен');
    } else {
      // From the balance: no provider's payment, the ledger moved the money (the finance page shows it).
      await visit(a.page, '/profile/finance');
      expect(await textOf(a.page, '[data-testid="balance-available"]')).toBe('5 000 руб.');
      expect(norm(await a.page.locator('.fin-entries tbody tr').first().textContent())).toContain('Оплата заказа');
    }
    await checkPage(a.page, `${tag}-customer-money`);
    await visit(b.page, '/profile/orders?role=selling');
    const row = b.page.locator('.order-row', { hasText: title });
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(norm(await row.textContent())).toMatch(
      /^Заказ №\d+ ?В работе.*Заказчик: Вера Проектова ?5 000 руб\. ?до срока 4 дня/,
    );
    await checkPage(b.page, `${tag}-seller-orders`);
  });
});
