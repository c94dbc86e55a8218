import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { DEFAULT_PASSWORD } from '../server/db/factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { issueEmailToken } from '../server/platform/email-tokens.ts';
import { PROFILE_MENU } from '../web/features/shell/page-titles.ts';
import { POST_PROJECT_PATH } from '../web/lib/post-project.ts';
import { device, h1Of, hydrated, shotsDir, useE2E, userMenuToggle, visit, apiCall as apiAs, photograph } from './fixtures.ts';
import { expectFitsViewport } from './layout.ts';

// The site on a 375 px phone (issue 25): no page swipes sideways once its live counters have come, the header's
// search and menu, the ways to post a project, the clipped strips, the order card in a chat, the next steps after
// confirming an email. Photographed into /tmp/mobile-shots/.

const e2e = useE2E();
const SHOTS = shotsDir('mobile');
const POLL = { timeout: 30_000, interval: 250 };
const PHONE = device(375);

const shot = (page: Page, name: string) =>
  photograph(page, path.join(SHOTS, `${name}-${page.viewportSize()!.width}.png`), { fullPage: true });

/** An API call as another person's browser would make it. */
const apiCall = (token: string, method: string, url: string, body?: unknown) => apiAs(e2e.url, token, method, url, body);

describe('profile pages at 375 px', () => {
  // Thirteen pages, each waiting for its counters: more than the default minute on a busy machine.
  it(
    'stay as wide as the screen once the unseen and unread badges have come over the socket',
    { timeout: 180_000 },
    async () => {
      const { services: app } = e2e.server.app;
      const customer = await e2e.user({ name: 'Анна', surname: 'Заказова' });
      const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
      // A dispute the seller opened on the customer's order (its chat's message is counted on «Споры», the menu's
      // tenth link, far right in the strip), an unseen message, an unread notification (a bid on their project).
      const service = await createService(e2e.server.database.db, seller.user.id, { price: 150_000, days: 3 });
      const order = await app.orders.create(customer.user, { service_id: service.id, package: null, extras: [] });
      await payOrderForTest(e2e.server.app, order._id);
      await app.disputes.create(seller.user, {
        order_id: order._id,
        reason: 'no_contact',
        description: 'Заказчик не отвечает на вопросы по заданию уже третий день.',
        files: [],
      });
      await apiCall(seller.token, 'POST', '/api/messages/', {
        message: 'Здравствуйте! Есть вопрос',
        recipient: customer.user.id,
      });
      const project = await createProject(e2e.server.database.db, customer.user.id, { title: 'Лендинг для кофейни' });
      await apiCall(seller.token, 'POST', `/api/projects/${project.id}/bids`, {
        price: 1_500_000,
        days: 7,
        comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
      });

      const { page } = await e2e.open({ token: customer.token, ...PHONE });
      for (const [to] of PROFILE_MENU) {
        await visit(page, to);
        // The counters come over the socket after the page has loaded: measure once they are on screen.
        await page
          .locator('.side-menu [data-testid="unseen-messages"]')
          .waitFor({ state: 'visible', timeout: POLL.timeout });
        await page
          .locator('.side-menu [data-testid="unseen-disputes"]')
          .waitFor({ state: 'visible', timeout: POLL.timeout });
        await page.locator('.header__burger .header__burger-dot').waitFor({ state: 'visible', timeout: POLL.timeout });
        await expectFitsViewport(page);
      }
      await shot(page, 'profile-settings');
    },
  );
});

describe('«Разместить проект»', () => {
  it('takes a guest on a phone from the menu through sign-in to the project form', async () => {
    const customer = await e2e.user();
    const { page } = await e2e.open(PHONE);
    await visit(page, '/');
    await page.getByRole('button', { name: 'Открыть меню' }).click();
    await page.locator('#header-menu').getByRole('link', { name: 'Разместить проект' }).click();
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('from') === POST_PROJECT_PATH);
    await hydrated(page);
    await page.getByLabel('Email').fill(customer.user.email);
    await page.getByLabel('Пароль').fill(DEFAULT_PASSWORD);
    await page.locator('main').getByRole('button', { name: 'Войти', exact: true }).click();
    await page.waitForURL((u) => u.pathname + u.search === POST_PROJECT_PATH);
    await hydrated(page);
    expect(await h1Of(page)).toBe('Новый проект');
    await expectFitsViewport(page);
  });

  it('is in a buyer’s header, avatar menu, /projects and home at 1280 px; not in a seller’s header', async () => {
    const customer = await e2e.user();
    const { page } = await e2e.open({ token: customer.token });
    await visit(page, '/projects');
    const inHeader = page.locator('header .header__post');
    expect(await inHeader.isVisible()).toBe(true);
    expect(await inHeader.getAttribute('href')).toBe(POST_PROJECT_PATH);
    expect(
      await page.getByTestId('post-project').getByRole('link', { name: 'Разместить проект' }).getAttribute('href'),
    ).toBe(POST_PROJECT_PATH);
    await userMenuToggle(page).click();
    expect(
      await page.locator('.user-menu__panel').getByRole('link', { name: 'Разместить проект' }).getAttribute('href'),
    ).toBe(POST_PROJECT_PATH);
    await shot(page, 'projects');
    await visit(page, '/');
    await page.getByTestId('post-project').waitFor();
    await expectFitsViewport(page);

    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const other = await e2e.open({ token: seller.token });
    await visit(other.page, '/projects');
    expect(await other.page.locator('header .header__post').count()).toBe(0);
    expect(await other.page.getByTestId('post-project').count()).toBe(0);
  });
});

describe('the phone header', () => {
  it('opens the search field from its own button; the menu names its icons', async () => {
    const customer = await e2e.user();
    const { page } = await e2e.open({ token: customer.token, ...PHONE });
    await visit(page, '/profile/settings');
    const field = page.getByRole('combobox', { name: 'Поиск услуг' });
    expect(await field.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Поиск', exact: true }).click();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement), POLL).toBe(true);
    expect(await page.getByRole('button', { name: 'Разместить проект' }).count()).toBe(0);
    await shot(page, 'header-search');
    await field.fill('логотип');
    await field.press('Enter');
    await page.waitForURL((u) => u.pathname === '/services/all' && u.searchParams.get('q') === 'логотип');
    await hydrated(page);
    expect(await field.isVisible()).toBe(false);

    await page.getByRole('button', { name: /^Открыть меню/ }).click();
    const menu = page.locator('#header-menu');
    for (const words of ['Сообщения', 'Уведомления', 'Валюта']) {
      expect(await menu.locator('.header__label', { hasText: words }).isVisible(), words).toBe(true);
    }
    await shot(page, 'header-menu');
    await expectFitsViewport(page);
  });
});

describe('pages at 375 px', () => {
  it('a service page with packages and options fits; the sort keeps its longest choice whole; strips show more', async () => {
    const seller = await e2e.user({ role: 'seller' });
    const service = await createService(e2e.server.database.db, seller.user.id, {
      price: 600_000,
      days: 5,
      packages: [
        { kind: 'economy', price: 600_000, days: 5, revisions: 1, description: 'Базовый объём работ, одна правка' },
        { kind: 'standard', price: 1_080_000, days: 7, revisions: 3, description: 'Расширенный объём и исходники' },
        { kind: 'business', price: 1_800_000, days: 10, revisions: 5, description: 'Полный комплект под ключ' },
      ],
      extras: [
        { title: 'Срочное выполнение', price: 300_000, days: 0 },
        { title: 'Дополнительный вариант', price: 240_000, days: 1 },
      ],
    });
    const customer = await e2e.user();
    const { page } = await e2e.open({ token: customer.token, ...PHONE });
    await visit(page, `/services/design/${service.id}`);
    await expectFitsViewport(page);
    await shot(page, 'service');

    // With a filter on, the filters button is wider (its count): the sort select is not squeezed below its text.
    await visit(page, '/services/all?sort=price_desc&online=1');
    const squeezed = await page.locator('.listing__sort select').evaluate((select) => {
      const free = select.cloneNode(true) as HTMLSelectElement;
      free.style.cssText = 'position:absolute;left:0;top:0;width:auto;max-width:none;flex:none';
      document.body.append(free);
      const needed = free.getBoundingClientRect().width;
      free.remove();
      return select.getBoundingClientRect().width < needed - 0.5;
    });
    expect(squeezed, 'the sort select is narrower than its longest choice').toBe(false);
    await expectFitsViewport(page);

    // The categories' strip scrolls sideways with a shadow where more entries wait.
    const strip = page.locator('.listing__categories ul');
    expect(await strip.evaluate((ul) => ul.scrollWidth > ul.clientWidth)).toBe(true);
    expect(await strip.evaluate((ul) => getComputedStyle(ul).backgroundImage)).toContain('radial-gradient');
  });

  it('the order card in a chat folds to its status, deadline and main step', async () => {
    const { services: app } = e2e.server.app;
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const customer = await e2e.user();
    const service = await createService(e2e.server.database.db, seller.user.id, {
      title: 'Презентация для инвесторов на двадцать слайдов с инфографикой',
      price: 900_000,
      days: 5,
    });
    const order = await app.orders.create(customer.user, { service_id: service.id, package: null, extras: [] });
    await payOrderForTest(e2e.server.app, order._id);
    // A service's order has its chat once it is paid (ADR 042).
    const { chat_id: chatId } = await app.orders.get(customer.user, order._id);

    const { page } = await e2e.open({ token: seller.token, ...PHONE });
    await visit(page, `/profile/messages?tab=orders&chat=${chatId}`);
    const card = page.getByTestId('order-card');
    await card.getByRole('button', { name: 'Сдать работу' }).waitFor({ timeout: POLL.timeout });
    expect(await card.getByText('В работе').isVisible()).toBe(true);
    expect(await card.getByText(/до срока/).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Открыть спор' }).isVisible()).toBe(false);
    const folded = (await card.boundingBox())!.height;
    expect(folded, 'the folded card is at most a fifth of the phone’s height').toBeLessThanOrEqual(148);
    await shot(page, 'order-card');
    const toggle = card.getByRole('button', { name: 'Подробнее' });
    await toggle.click();
    expect(await card.getByRole('button', { name: 'Открыть спор' }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Свернуть' }).getAttribute('aria-expanded')).toBe('true');
    await expectFitsViewport(page);

    // A desktop shows it all, with no toggle.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await card.getByRole('button', { name: 'Открыть спор' }).isVisible()).toBe(true);
    expect(await card.locator('.order-card__toggle').isVisible()).toBe(false);
  });

  it('confirming the email offers a buyer and a seller their next steps', async () => {
    const customer = await e2e.user({ emailConfirmedAt: null });
    const token = await issueEmailToken(e2e.server.database.db, customer.user.id, 'confirm', 60 * 60 * 1000);
    const { page } = await e2e.open({ token: customer.token, ...PHONE });
    await visit(page, `/confirm_account?token=${encodeURIComponent(token)}`);
    const steps = page.getByTestId('next-steps');
    await steps.waitFor({ timeout: POLL.timeout });
    expect(await steps.getByRole('link', { name: 'Найдите услугу' }).getAttribute('href')).toBe('/services/all');
    expect(await steps.getByRole('link', { name: 'Разместите проект' }).getAttribute('href')).toBe(POST_PROJECT_PATH);
    await shot(page, 'confirmed');
    await expectFitsViewport(page);

    const seller = await e2e.user({ role: 'seller' });
    const other = await e2e.open({ token: seller.token, ...PHONE });
    await visit(other.page, '/verify');
    const sellerSteps = other.page.getByTestId('next-steps');
    expect(await sellerSteps.getByRole('link', { name: 'Заполните профиль' }).getAttribute('href')).toBe(
      '/profile/settings',
    );
    expect(await sellerSteps.getByRole('link', { name: 'Создайте услугу' }).getAttribute('href')).toBe(
      '/profile/items/create?kind=service',
    );
  });
});
