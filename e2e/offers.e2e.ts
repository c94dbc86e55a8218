import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { device, hydrated, norm, pageCheck, shotsDir, useE2E, visit, widthsFor } from './fixtures.ts';

// Issue 30's custom offer in an order chat (ADR 066), in Chromium on a 375 px phone (at 1280 px too with
// E2E_WIDTHS=both, ADR 095): the seller offers a new job in
// two stages from the order card; the customer asks for a change; the seller edits it; the customer accepts it and
// lands on the payment of its stage 1. Screenshots in /tmp/offers-shots/.

const e2e = useE2E();
const checkPage = pageCheck(shotsDir('offers'), { settle: true });
const POLL = { timeout: 30_000, interval: 250 };
const panelText = async (page: Page) => norm(await page.getByTestId('offer').textContent());

describe('a custom offer in an order chat', { timeout: 180_000 }, () => {
  it.each(widthsFor(375))('%i px: offered in stages, asked to change, edited, accepted', async (width) => {
    const seller = await e2e.user({ role: 'seller', name: 'Ирина', surname: 'Предложенова' });
    const customer = await e2e.user({ name: 'Павел', surname: 'Заказов' });
    const service = await createService(e2e.server.database.db, seller.user.id, {
      title: `Логотип (${width})`,
      price: 200_000,
      days: 2,
    });
    const draft = await e2e.server.app.services.orders.create(customer.user, {
      service_id: service.id,
      package: null,
      extras: [],
    });
    await payOrderForTest(e2e.server.app, draft._id);
    const { chat_id: chatId } = await e2e.server.app.services.orders.get(customer.user, draft._id);

    // The seller offers a new job in two stages from the order card.
    const s = await e2e.open({ token: seller.token, ...device(width) });
    await visit(s.page, `/profile/messages?tab=orders&chat=${chatId}`);
    await hydrated(s.page);
    // On a phone the idle panel folds with the card's rarer steps.
    // The card comes with the chat's data after hydration: waited for, since isVisible() does not wait.
    const card = s.page.getByTestId('order-card');
    await card.waitFor();
    const more = card.getByRole('button', { name: 'Подробнее' });
    if (await more.isVisible()) await more.click();
    await s.page.getByTestId('offer').getByRole('button', { name: 'Предложить новый заказ' }).click();
    const form = s.page.getByTestId('offer-form');
    await form.getByLabel('Что сделать').fill('Фирменный стиль');
    await form.getByLabel('Описание').fill('Визитки, бланк и шаблоны для соцсетей в стиле логотипа.');
    await form.getByLabel('Цена, руб.').fill('8000');
    await form.getByLabel('Срок, дней').fill('5');
    await form.getByLabel('Разбить на этапы').check();
    const stage = (i: number) => form.locator('.bid-stages__stage').nth(i);
    await stage(0).getByLabel('Название этапа').fill('Визитки и бланк');
    await stage(0).getByLabel('Что сдаётся по этапу').fill('Макеты визиток и бланка');
    await stage(0).getByLabel('Сумма, руб.').fill('3000');
    await stage(0).getByLabel('Срок, дней').fill('2');
    await stage(1).getByLabel('Название этапа').fill('Соцсети');
    await stage(1).getByLabel('Что сдаётся по этапу').fill('Шаблоны постов и обложки');
    await stage(1).getByLabel('Сумма, руб.').fill('5000');
    await stage(1).getByLabel('Срок, дней').fill('3');
    await checkPage(s.page, 'offer-form');
    await form.getByRole('button', { name: 'Отправить предложение' }).click();
    await expect.poll(() => panelText(s.page), POLL).toContain('Ждёт ответа');

    // The customer sees it in the same chat and asks for a change.
    const c = await e2e.open({ token: customer.token, ...device(width) });
    await visit(c.page, `/profile/messages?tab=orders&chat=${chatId}`);
    await hydrated(c.page);
    await expect.poll(() => panelText(c.page), POLL).toContain('Фирменный стиль');
    expect(await panelText(c.page)).toContain('2 этапа');
    await checkPage(c.page, 'offer-received');
    await c.page.getByTestId('offer').getByRole('button', { name: 'Попросить изменить' }).click();
    await c.page.getByRole('dialog').getByLabel('Что изменить').fill('Добавьте, пожалуйста, шаблон презентации');
    await c.page.getByRole('dialog').getByRole('button', { name: 'Отправить' }).click();
    await expect.poll(() => panelText(c.page), POLL).toContain('Просят изменить');

    // The seller sees the request live and edits the offer: 9 000 руб. now.
    await expect
      .poll(() => panelText(s.page), POLL)
      .toContain('Заказчик просит: Добавьте, пожалуйста, шаблон презентации');
    await s.page.getByTestId('offer').getByRole('button', { name: 'Изменить предложение' }).click();
    await form.getByLabel('Цена, руб.').fill('9000');
    await stage(1).getByLabel('Сумма, руб.').fill('6000');
    await form.getByRole('button', { name: 'Отправить изменённое' }).click();
    await expect.poll(() => panelText(s.page), POLL).toContain('Ждёт ответа');

    // The customer accepts the edited offer and lands on its stage 1's payment page.
    await expect.poll(() => panelText(c.page), POLL).toContain('9 000');
    await c.page.getByTestId('offer').getByRole('button', { name: 'Принять и перейти к оплате' }).click();
    await c.page.waitForURL(/\/payments\/[^/?]+$/);
    await hydrated(c.page);
    expect(norm(await c.page.locator('main').textContent())).toContain('Оплата этапа 1 «Визитки и бланк»');
    await checkPage(c.page, 'offer-accepted-pay');
  });
});
