import { describe, expect, it } from 'vitest';
import type { UserRow } from '../server/modules/users/schema.ts';
import { createService } from '../server/db/catalog-factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { balancesOf } from '../server/modules/ledger/index.ts';
import { unique } from '../server/test/api.ts';
import { MOBILE_USER_AGENT, hydrated, useE2E, visit, pageCheck, norm, shotsDir } from './fixtures.ts';

// Issue 14's disputes in Chromium (ADR 034): a customer opens a dispute from the order card of a paid order; the
// seller and an admin see it arrive without reloading; the admin takes it, writes in its chat and splits it 40/60,
// and both balances change; another dispute is cancelled by its opener with the toast «Заявка отменена». The
// pages at 1280 and 375 px; screenshots in /tmp/disputes-shots/.

const e2e = useE2E();

const checkPage = pageCheck(shotsDir('disputes'));

const POLL = { timeout: 30_000, interval: 250 };
const PRICE = 150_000;
const MOBILE = { viewport: { width: 375, height: 740 }, isMobile: true, userAgent: MOBILE_USER_AGENT };

/** A paid order of a fresh seller's service by a fresh customer. */
async function paidOrder() {
  const { services: app } = e2e.server.app;
  const seller = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Спорный' });
  const customer = await e2e.user({ name: 'Анна', surname: 'Заказова' });
  const title = `Логотип для кофейни ${unique()}`;
  const service = await createService(e2e.server.database.db, seller.user.id, { title, category: 'design', price: PRICE, days: 3, revisions: 1 });
  const draft = await app.orders.create(customer.user, { service_id: service.id, package: null, extras: [] });
  await payOrderForTest(e2e.server.app, draft._id);
  // Read again once paid: its chat opens then (ADR 042).
  const order = await app.orders.get(customer.user, draft._id);
  return { seller, customer, order };
}

describe('disputes', { timeout: 180_000 }, () => {
  it('a customer opens a dispute, the seller and an admin see it live, the admin splits it 40/60', async () => {
    const { seller, customer, order } = await paidOrder();
    const admin = await e2e.user({ role: 'admin', name: 'Арбитр', surname: 'Первый' });
    const a = await e2e.open({ token: customer.token, viewport: { width: 1280, height: 800 } });
    const b = await e2e.open({ token: seller.token, viewport: { width: 1280, height: 800 } });
    const c = await e2e.open({ token: admin.token, viewport: { width: 1280, height: 800 } });
    // The empty form's 400 (its field errors are the point) is logged by the browser.
    e2e.allowConsoleErrors(/status of 400 .*\/api\/disputes\/\]/);

    // The seller and the admin are already on their pages: the dispute must come to them.
    await visit(b.page, '/profile/disputes');
    await hydrated(b.page);
    // The admin's queue reloads on each event (and the root's data with it): one socket all along, none dropped.
    const handshakes: string[] = [];
    c.page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/socket.io/' && !url.searchParams.has('sid')) handshakes.push(url.search);
    });
    await visit(c.page, '/admin/disputes');
    await hydrated(c.page);
    const sellerDisputes = b.page.getByTestId('dispute');
    const adminRow = c.page.locator(`[data-testid="admin-dispute"]`, { hasText: `№${order.number}` });
    expect(await sellerDisputes.count()).toBe(0);
    expect(await adminRow.count()).toBe(0);

    // 1. The customer opens the dispute form from the order card; the server's field errors show by their fields.
    await visit(a.page, `/profile/messages?tab=orders&chat=${order.chat_id}`);
    await hydrated(a.page);
    const openButton = a.page.getByTestId('order-card').getByRole('button', { name: 'Открыть спор' });
    await openButton.waitFor({ timeout: 30_000 });
    await openButton.click();
    const form = a.page.getByTestId('dispute-form');
    // The customer is offered the reasons of the customer's side only (ADR 039).
    expect((await form.locator('select[name="reason"] option').allTextContents()).map(norm)).toEqual([
      'Выберите причину',
      'Работа не сдана в срок',
      'Результат не соответствует заданию',
      'Другая сторона не выходит на связь',
      'Другое',
    ]);
    await form.getByRole('button', { name: 'Открыть спор' }).click();
    await expect.poll(() => form.locator('.field__error').count(), POLL).toBe(2);
    expect(norm(await form.textContent())).toContain('Выберите причину спора');
    await checkPage(a.page, 'dispute-form-errors');
    await form.getByRole('combobox', { name: 'Причина' }).selectOption('not_delivered');
    await form.getByRole('textbox', { name: 'Описание' }).fill('Срок прошёл два дня назад, работы нет, исполнитель не отвечает на сообщения.');
    await form.getByRole('button', { name: 'Открыть спор' }).click();
    await expect.poll(() => a.page.getByTestId('dispute-form').count(), POLL).toBe(0);
    await expect.poll(async () => norm(await a.page.getByTestId('order-card').textContent()), POLL).toContain('Спор');

    // Live, with no reload: the seller's list and the admin's queue.
    await expect.poll(() => sellerDisputes.count(), POLL).toBe(1);
    expect(norm(await sellerDisputes.first().textContent())).toContain('Работа не сдана в срок');
    await expect.poll(() => adminRow.count(), POLL).toBe(1);
    await checkPage(b.page, 'seller-disputes');
    await checkPage(c.page, 'admin-queue');

    // 2. The admin opens it, takes it, writes in its chat, and splits it 40/60 seeing the amounts first.
    await adminRow.getByRole('button').first().click();
    const detail = c.page.getByTestId('admin-dispute-detail');
    await detail.waitFor({ timeout: 30_000 });
    await detail.getByRole('button', { name: 'Взять спор и писать в чат' }).click();
    const composer = detail.getByRole('textbox', { name: /Сообщение/ });
    await composer.waitFor({ timeout: 30_000 });
    await composer.fill('Здравствуйте, я арбитр. Пришлите, пожалуйста, переписку о сроках.');
    await composer.press('Enter');
    // The customer, still on the messages page (which lists no dispute's chat), sees them counted on «Споры и
    // обращения»: the admin's joining and their message (until someone reads them: a message's seen state is one).
    const customerMenu = a.page.getByRole('navigation', { name: 'Личный кабинет' });
    await expect.poll(async () => norm(await customerMenu.getByTestId('unseen-disputes').textContent()), POLL).toBe('2, 2 непрочитанных');
    // The seller has the dispute's chat open: the admin's message arrives live.
    await sellerDisputes.first().getByRole('button', { name: /Переписка/ }).click();
    await expect.poll(async () => norm(await b.page.getByTestId('dispute-thread').textContent()), POLL).toContain('я арбитр');

    await detail.getByRole('radio', { name: 'Разделение суммы' }).check();
    await detail.getByRole('spinbutton', { name: 'Доля исполнителя, %' }).fill('40');
    // 40 % of 1 500 руб. = 600 руб., less 15 % commission (90 руб.): 510 руб. to the seller; 900 руб. back to the customer.
    await expect.poll(async () => norm(await detail.getByTestId('decision-preview').textContent()), POLL).toBe(
      'Заказчику (60 %): 900 руб.Исполнителю (40 %): 510 руб. (600 руб. за вычетом комиссии сервиса 90 руб.)',
    );
    await checkPage(c.page, 'admin-decision-form');
    await detail.getByRole('button', { name: 'Принять решение' }).click();
    await c.page.getByRole('button', { name: 'Подтвердить', exact: true }).click();
    await expect.poll(async () => norm(await detail.getByTestId('dispute-decision').textContent()), POLL).toContain('Разделение суммы');
    expect(handshakes).toHaveLength(1);

    // Both balances changed, in kopecks.
    const db = e2e.server.database.db;
    expect(await balancesOf(db, seller.user.id)).toEqual({ available: 51_000, held: 0 });
    expect(await balancesOf(db, customer.user.id)).toEqual({ available: 90_000, held: 0 });

    // The parties see the decision live, with the way to appeal it.
    await expect.poll(async () => norm(await b.page.getByTestId('dispute-decision').first().textContent()), POLL).toMatch(/510 (₽|руб\.)/);
    await visit(a.page, '/profile/disputes');
    await hydrated(a.page);
    const mine = a.page.getByTestId('dispute').first();
    await expect.poll(async () => norm(await mine.textContent()), POLL).toContain('Решён');
    const appeal = mine.getByRole('link', { name: 'Обжаловать решение' });
    expect(await appeal.getAttribute('href')).toMatch(/\/profile\/disputes\?tab=appeals&subject=dispute&object=[0-9a-f-]{36}$/);
    await checkPage(a.page, 'customer-resolved');
  });

  it('the opener cancels another dispute: «Заявка отменена», the order goes on', async () => {
    const { seller, customer, order } = await paidOrder();
    const opened = await e2e.server.app.services.disputes.create(customer.user, {
      order_id: order._id,
      reason: 'poor_quality',
      description: 'Логотип не похож на согласованный эскиз, правки не вносятся.',
      files: [],
    });
    // The respondent follows the link of the dispute's letter or notification: that dispute, its chat open (ADR 046).
    const s = await e2e.open({ token: seller.token, ...MOBILE });
    await visit(s.page, `/profile/disputes?dispute=${opened._id}`);
    await hydrated(s.page);
    const asked = s.page.locator(`[data-dispute="${opened._id}"]`);
    await asked.getByTestId('dispute-thread').waitFor({ timeout: 30_000 });
    expect(norm(await asked.textContent())).toContain('Спор открыла другая сторона: Анна Заказова');
    const a = await e2e.open({ token: customer.token, ...MOBILE });
    await visit(a.page, '/profile/disputes');
    await hydrated(a.page);
    const card = a.page.getByTestId('dispute').first();
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: /Переписка/ }).click();
    await a.page.getByTestId('dispute-thread').waitFor({ timeout: 30_000 });
    await checkPage(a.page, 'customer-dispute-open');
    await card.getByRole('button', { name: 'Отменить заявку' }).click();
    await a.page.getByRole('dialog').getByRole('button', { name: 'Отменить заявку' }).click();
    await expect.poll(async () => norm(await a.page.locator('.toast').first().textContent()), POLL).toBe('Заявка отменена');
    await expect.poll(async () => norm(await card.textContent()), POLL).toContain('Отменён');
    expect(await card.getByRole('button', { name: 'Отменить заявку' }).count()).toBe(0);
    const [row] = await e2e.server.app.services.orders.adminList(customer.user, { q: `№${order.number}`, limit: 5 }).then((p) => p.result);
    expect(row?.status).toBe('in_progress');
    await checkPage(a.page, 'customer-cancelled');
  });

  it('the admin queue and the dispute form at 375 px', async () => {
    const { customer, order } = await paidOrder();
    const admin = await e2e.user({ role: 'admin' });
    const c = await e2e.open({ token: admin.token, ...MOBILE });
    await e2e.server.app.services.disputes.create(customer.user, {
      order_id: order._id,
      reason: 'no_contact',
      description: 'Исполнитель пропал после оплаты и не отвечает уже три дня.',
      files: [],
    });
    await visit(c.page, '/admin/disputes');
    await hydrated(c.page);
    await expect.poll(() => c.page.getByTestId('admin-dispute').count(), POLL).toBeGreaterThan(0);
    await checkPage(c.page, 'admin-queue');
    await c.page.locator('[data-testid="admin-dispute"]', { hasText: `№${order.number}` }).getByRole('button').first().click();
    await c.page.getByTestId('decision-form').waitFor({ timeout: 30_000 });
    await checkPage(c.page, 'admin-dispute-detail');

    const { order: another, customer: buyer } = await paidOrder();
    const a = await e2e.open({ token: buyer.token, ...MOBILE });
    await visit(a.page, `/profile/messages?tab=orders&chat=${another.chat_id}`);
    await hydrated(a.page);
    // On a phone the card folds its less frequent steps under «Подробнее» (ADR 043).
    await a.page.getByTestId('order-card').getByRole('button', { name: 'Подробнее' }).click();
    const openButton = a.page.getByTestId('order-card').getByRole('button', { name: 'Открыть спор' });
    await openButton.waitFor({ timeout: 30_000 });
    await openButton.click();
    await a.page.getByTestId('dispute-form').waitFor();
    await checkPage(a.page, 'dispute-form');
  });

  it('a seller with more disputes than a page sees the rest on «Показать ещё»', async () => {
    const { services: app } = e2e.server.app;
    const seller = await e2e.user({ role: 'seller' });
    const service = await createService(e2e.server.database.db, seller.user.id, { title: `Вёрстка ${unique()}`, category: 'design', price: PRICE });
    // A customer may open DISPUTES_PER_DAY disputes a day: six customers, nine each.
    const opened: { customer: UserRow; id: string }[] = [];
    for (let c = 0; c < 6; c++) {
      const { user: customer } = await e2e.user();
      for (let i = 0; i < 9; i++) {
        const order = await app.orders.create(customer, { service_id: service.id, package: null, extras: [] });
        await payOrderForTest(e2e.server.app, order._id);
        const dispute = await app.disputes.create(customer, { order_id: order._id, reason: 'no_contact', description: 'Исполнитель не выходит на связь после оплаты.', files: [] });
        opened.push({ customer, id: dispute._id });
      }
    }
    const b = await e2e.open({ token: seller.token, viewport: { width: 1280, height: 800 } });
    await visit(b.page, '/profile/disputes');
    const cards = b.page.getByTestId('dispute');
    await expect.poll(() => cards.count(), POLL).toBe(50);
    expect(norm(await b.page.locator('.listing__shown').textContent())).toBe('Показано 50 из 54');
    await b.page.getByRole('button', { name: 'Показать ещё' }).click();
    await expect.poll(() => cards.count(), POLL).toBe(54);
    expect(await b.page.getByRole('button', { name: 'Показать ещё' }).count()).toBe(0);
    // Each dispute once: the second page follows the first.
    const ids = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-dispute')));
    expect(new Set(ids).size).toBe(54);
    // Out of the admin queue (oldest open first), where the other tests look for theirs.
    for (const { customer, id } of opened) await app.disputes.cancel(customer, id);
  });
});
