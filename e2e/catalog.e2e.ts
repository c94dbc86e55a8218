import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import {
  CRAWLER_USER_AGENT,
  DESKTOP_USER_AGENT,
  MOBILE_USER_AGENT,
  checkA11y,
  domQuiet,
  h1Of,
  hydrated,
  pathOf,
  photograph,
  useE2E,
  visit,
  widthsFor,
} from './fixtures.ts';

// The catalog issue's "Done means", end to end: a seller publishes a service through the form, an administrator
// approves it, a guest finds it by another form of a word and opens it (server-rendered), a customer posts a project
// that a seller finds on its category page, favourites follow the account to another browser, and the guest's path
// works on a 375 px phone. Screenshots of the pages land in /tmp/catalog-shots/ for a look by eye.

const e2e = useE2E();

const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/catalog-shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => photograph(page, path.join(SHOTS, `${name}.png`), { fullPage: true });
/** The page as it is and, from a wider screen, narrowed to 375 px (which must not scroll sideways), then back. */
async function shots(page: Page, name: string) {
  const size = page.viewportSize()!;
  await shot(page, `${name}-${size.width}`);
  if (size.width === 375) return;
  await page.setViewportSize({ width: 375, height: 740 });
  await domQuiet(page);
  await shot(page, `${name}-375`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize(size);
  await domQuiet(page);
  expect(wide, `${pathOf(page)} scrolls sideways at 375 px`).toBeLessThanOrEqual(376);
}

const POLL = { timeout: 15_000, interval: 200 };
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, userAgent: MOBILE_USER_AGENT } as const;

// Searches use words no other title of this server has, in another grammatical form than the title's: "бегемотом"
// is found by "бегемоты", "крокодилом" by "крокодилы" (Russian stemming). Titles end with a unique suffix, so the
// tests run in any order and alongside each other.
let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

/** "2 500 руб." as the site prints rubles (SPEC §9: Russian thousand separators, no-break spaces). */
const rub = (rubles: number) => `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }).format(rubles)}\u00a0руб.`;

// ---------------------------------------------------------------------------------------------------------
// Small valid PNGs (a striped picture, 4:3), made here so the upload goes through the server's type sniffing.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** An RGB PNG of `width`×`height` with diagonal stripes of two colours. */
function stripedPng(width: number, height: number, a: [number, number, number], b: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const [r, g, bl] = Math.floor((x + y) / 24) % 2 ? a : b;
      raw.set([r, g, bl], row + 1 + x * 3);
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

const toastText = (page: Page) => page.locator('.toast').first().textContent();

/**
 * No sideways scrolling: the page is no wider than the screen. (A phone zooms a too-wide page out, so the window's
 * own width would grow with it: the check is against the viewport the context was given.)
 */
async function expectNoHorizontalOverflow(page: Page) {
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${pathOf(page)} is wider than the ${width} px screen`).toBeLessThanOrEqual(width + 1);
}

/** Types into the header's search box and submits it (on a phone the header menu is opened first, and closes after). */
async function searchFromHeader(page: Page, text: string) {
  const box = page.getByRole('combobox', { name: 'Поиск услуг' });
  const phone = !(await box.isVisible());
  if (phone) await page.getByRole('button', { name: 'Открыть меню' }).click();
  await box.fill(text);
  await box.press('Enter');
  await page.waitForURL((u) => u.pathname === '/services/all' && u.searchParams.get('q') === text);
  await hydrated(page);
  // The menu has led somewhere: it no longer covers the results.
  if (phone) expect(await page.locator('#header-menu').isVisible()).toBe(false);
}

async function login(page: Page, email: string, password: string) {
  await visit(page, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill(password);
  await page.locator('main').getByRole('button', { name: 'Войти', exact: true }).click();
}

async function favoritesOf(token: string): Promise<{ id: string; type: string }[]> {
  const res = await fetch(`${e2e.url}/api/favorites`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { id: string; type: string }[] }).result;
}

// ---------------------------------------------------------------------------------------------------------

// Whole flows through several browsers: more time than a single page's check.
describe('catalog', { timeout: 120_000 }, () => {
  it('a seller publishes a service → an admin approves it → a guest finds it by another word form; the page is server-rendered', async () => {
    const word = `бегемот`;
    const title = `Нарисую логотип с бегемотом для кофейни ${unique()}`;
    const description =
      'Нарисую логотип с весёлым бегемотом для вашей кофейни или кондитерской.\n\n' +
      'В работу входят три эскиза на выбор, доработка выбранного варианта и исходники в векторе.';
    const { token: sellerToken } = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Продавцов' });

    // 1. The seller fills the form and sends the service to moderation.
    const s = await e2e.open({ token: sellerToken });
    await visit(s.page, '/profile/items/create');
    expect(await h1Of(s.page)).toBe('Новая услуга');
    expect(await s.page.title()).toMatch(/^Новая услуга - /);
    const form = s.page.getByRole('form', { name: 'Ваша услуга' });
    await form.getByLabel('Название', { exact: true }).fill(title);
    await form.getByLabel('Описание', { exact: true }).fill(description);
    await form.getByLabel('Категория', { exact: true }).selectOption('design');
    await form.getByLabel('Подкатегория').selectOption('logo-design');
    const tags = form.getByRole('textbox', { name: 'Теги', exact: true });
    for (const tag of ['логотип', word]) {
      await tags.fill(tag);
      await tags.press('Enter');
    }
    await expect.poll(() => form.getByRole('list', { name: 'Добавленные теги' }).locator('li').allTextContents()).toEqual(['логотип', word]);

    await form.locator('input[type=file]').setInputFiles([
      { name: 'begemot-1.png', mimeType: 'image/png', buffer: stripedPng(400, 300, [37, 99, 235], [219, 234, 254]) },
      { name: 'begemot-2.png', mimeType: 'image/png', buffer: stripedPng(400, 300, [234, 88, 12], [254, 215, 170]) },
    ]);
    const previews = form.locator('.uploader__list img.uploader__preview[src^="/uploads/"]');
    await expect.poll(() => previews.count(), POLL).toBe(2);
    expect(await previews.first().getAttribute('alt')).toBe('Обложка: begemot-1.png');

    const price = form.getByRole('region', { name: 'Цена и сроки' });
    await price.getByLabel('Цена, руб.').fill('2500');
    await price.getByLabel('Срок, дней').fill('3');
    const packages = [
      { name: 'Эконом', price: '2500', days: '3', what: 'Один вариант логотипа, две правки' },
      { name: 'Стандарт', price: '5000', days: '5', what: 'Три варианта логотипа и исходники' },
      { name: 'Бизнес', price: '9000', days: '7', what: 'Логотип, фирменные цвета и шрифты' },
    ];
    for (const p of packages) {
      const box = form.getByRole('group', { name: p.name, exact: true });
      await box.getByRole('checkbox', { name: `Включить пакет «${p.name}»` }).check();
      await box.getByLabel('Цена, руб.').fill(p.price);
      await box.getByLabel('Срок, дней').fill(p.days);
      await box.getByLabel('Что входит').fill(p.what);
    }
    await checkA11y(s.page);
    await shots(s.page, '01-service-form');
    await form.getByRole('button', { name: 'Отправить на модерацию' }).click();

    await s.page.waitForURL('**/profile/items');
    await hydrated(s.page);
    await expect.poll(() => toastText(s.page), POLL).toBe('Услуга отправлена на модерацию');
    const row = s.page.locator('.my-item', { hasText: title });
    await expect.poll(() => row.locator('.status-badge').textContent(), POLL).toBe('На модерации');
    expect(await row.locator('.my-item__hint').textContent()).toContain('Модератор проверит услугу');
    // Not public yet: the title is not a link.
    expect(await row.getByRole('link', { name: title, exact: true }).count()).toBe(0);
    // A signed-in seller's header (role toggle, messages, avatar) fits 1280 px.
    await expectNoHorizontalOverflow(s.page);
    await checkA11y(s.page);
    await shots(s.page, '02-my-services-moderation');

    // 2. An administrator approves it from the moderation queue.
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const a = await e2e.open({ token: adminToken });
    await visit(a.page, '/admin/services');
    expect(await a.page.getByRole('navigation', { name: 'Состояние' }).locator('[aria-current=page]').textContent()).toContain('На модерации');
    const queued = a.page.locator('table.queue tbody tr', { hasText: title });
    await expect.poll(() => queued.count(), POLL).toBe(1);
    expect(await queued.textContent()).toContain('Борис Продавцов');
    expect(await queued.locator('.queue__money').textContent()).toContain(rub(2500));
    await expectNoHorizontalOverflow(a.page);
    await checkA11y(a.page);
    await shots(a.page, '03-admin-queue');
    await queued.getByRole('button', { name: `Одобрить «${title}»` }).click();
    await expect.poll(() => toastText(a.page), POLL).toBe('Услуга одобрена и опубликована');
    await expect.poll(() => queued.count(), POLL).toBe(0);

    // The seller sees it active, with a link to its public page.
    await visit(s.page, '/profile/items');
    await expect.poll(() => row.locator('.status-badge').textContent(), POLL).toBe('Активна');
    const publicHref = await row.getByRole('link', { name: title, exact: true }).getAttribute('href');
    expect(publicHref).toMatch(/^\/services\/design\/[0-9a-f-]{36}$/);

    // 3. A guest, in a browser of their own, searches from the home page with another form of the word.
    const g = await e2e.open();
    await visit(g.page, '/');
    await searchFromHeader(g.page, 'бегемоты');
    const card = g.page.locator('.s-card', { hasText: title });
    await expect.poll(() => card.count(), POLL).toBe(1);
    expect(await g.page.locator('.s-card').count()).toBe(1);
    expect(await card.locator('.s-card__price').textContent()).toBe(`от\u00a0${rub(2500)}`);
    expect(await card.locator('.s-card__name').textContent()).toBe('Борис Продавцов');
    // The cover is the first image the seller uploaded.
    expect(await card.locator('img').first().getAttribute('src')).toMatch(/^\/uploads\//);
    await checkA11y(g.page);
    await shots(g.page, '04-search-results');

    await card.getByRole('link', { name: title, exact: true }).click();
    await g.page.waitForURL((u) => u.pathname === publicHref);
    await hydrated(g.page);
    expect(await h1Of(g.page)).toBe(title);
    const order = g.page.locator('.order-box');
    expect(await order.locator('.order-box__price').textContent()).toBe(`от\u00a0${rub(2500)}`);
    const packageRows = g.page.locator('table.svc-packages tbody tr');
    expect(await packageRows.locator('th').allTextContents()).toEqual(['Эконом', 'Стандарт', 'Бизнес']);
    expect(await packageRows.nth(2).textContent()).toContain(rub(9000));
    expect(await g.page.locator('.tags').textContent()).toContain(`#${word}`);
    expect(await g.page.locator('.detail__gallery img[src^="/uploads/"]').count()).toBeGreaterThanOrEqual(1);
    await checkA11y(g.page);
    await shots(g.page, '05-service-page');

    // The same page without JavaScript: the server's HTML holds the title and the prices (for people and crawlers).
    for (const userAgent of [DESKTOP_USER_AGENT, CRAWLER_USER_AGENT]) {
      const res = await fetch(`${e2e.url}${publicHref}`, { headers: { 'user-agent': userAgent } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`<h1 class="page__title">${title}</h1>`);
      expect(html).toContain(`от\u00a0${rub(2500)}`);
      expect(html).toContain(rub(9000));
      expect(html).toContain(`<title>${title} - Подряд</title>`);
    }
  });

  it.each(widthsFor(1280))('at %i px a seller edits a live service: buyers keep the approved version until an admin approves the edit', async (width) => {
    const viewport = { width, height: width < 500 ? 740 : 900 };
    const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller' });
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const before = `Сверстаю лендинг для пекарни ${unique()}`;
    const after = `${before}, новая версия`;
    const service = await createService(e2e.server.database.db, seller.id, { title: before, category: 'development' });
    const servicePath = `/services/development/${service.id}`;

    // The seller edits the title and saves.
    const s = await e2e.open({ token: sellerToken, viewport });
    await visit(s.page, `/profile/items/${service.id}/edit`);
    const form = s.page.getByRole('form', { name: 'Ваша услуга' });
    await expect.poll(() => s.page.getByRole('note').filter({ hasText: 'покупатели видят текущую версию' }).count(), POLL).toBe(1);
    await form.getByLabel('Название', { exact: true }).fill(after);
    await form.getByRole('button', { name: 'Отправить на модерацию' }).click();
    await s.page.waitForURL('**/profile/items');
    await expect.poll(() => toastText(s.page), POLL).toBe('Изменения отправлены на модерацию, покупатели пока видят прежнюю версию');
    const row = s.page.locator('.my-item', { hasText: before });
    await expect.poll(() => row.locator('.status-badge').textContent(), POLL).toBe('Активна');
    expect(await row.locator('.my-item__hint').textContent()).toContain('Изменения на модерации');
    if (width === 375) await expectNoHorizontalOverflow(s.page);

    // A buyer still opens the approved version: no 404 while the edit waits.
    const g = await e2e.open({ viewport });
    expect(await visit(g.page, servicePath)).toBe(200);
    expect(await h1Of(g.page)).toBe(before);

    // The admin's queue has the edit; the edit page shows the new version; approving it swaps them.
    const a = await e2e.open({ token: adminToken, viewport });
    await visit(a.page, '/admin/services');
    const queued = a.page.locator('table.queue tbody tr', { hasText: before });
    await expect.poll(() => queued.count(), POLL).toBe(1);
    expect(await queued.textContent()).toContain('Правка на проверке');
    await visit(a.page, `/admin/services/${service.id}/edit`);
    expect(await a.page.getByRole('form', { name: 'Услуга', exact: true }).getByLabel('Название', { exact: true }).inputValue()).toBe(after);
    await a.page.getByRole('button', { name: `Одобрить «${before}»` }).click();
    await expect.poll(() => toastText(a.page), POLL).toBe('Услуга одобрена и опубликована');
    if (width === 375) await expectNoHorizontalOverflow(a.page);

    await expect.poll(async () => {
      await visit(g.page, servicePath);
      return h1Of(g.page);
    }, POLL).toBe(after);
    await checkA11y(g.page);
  });

  it('a customer switches to buying and posts a project → a seller finds it on its category page', async () => {
    const title = `Нужен сайт для кракозябровой студии ${unique()}`;
    // Both roles, selling at the moment: the create page offers to switch to buying.
    const { token: customerToken } = await e2e.user({ roles: ['customer', 'seller'], activeRole: 'seller', name: 'Анна', surname: 'Заказова' });
    const c = await e2e.open({ token: customerToken });
    await visit(c.page, '/profile/items/create?kind=project');
    expect(await h1Of(c.page)).toBe('Новый проект');
    expect(await c.page.title()).toMatch(/^Новый проект - /);
    await c.page.getByRole('button', { name: 'Включить режим «Покупатель»' }).click();
    await expect.poll(() => toastText(c.page), POLL).toBe('Включён режим «Покупатель»');
    await expect.poll(() => c.page.getByRole('group', { name: 'Режим' }).getByRole('button', { name: 'Покупатель' }).getAttribute('aria-pressed'), POLL).toBe('true');

    const form = c.page.getByRole('form', { name: 'Проект' });
    await form.getByLabel('Название', { exact: true }).fill(title);
    await form
      .getByLabel('Описание', { exact: true })
      .fill('Нужен сайт-визитка для студии: главная, услуги, цены, контакты и форма записи. Пришлите примеры работ.');
    await form.getByLabel('Категория', { exact: true }).selectOption('development');
    await form.getByLabel('Подкатегория').selectOption('website-development');
    await form.getByLabel('Бюджет до, руб.').fill('30000');
    await form.getByLabel('Срок, дней').fill('14');
    await checkA11y(c.page);
    await shots(c.page, '06-project-form');
    await form.getByRole('button', { name: 'Опубликовать' }).click();
    await c.page.waitForURL('**/profile/items');
    await hydrated(c.page);
    await expect.poll(() => toastText(c.page), POLL).toBe('Проект опубликован');
    const mine = c.page.locator('.my-item', { hasText: title });
    await expect.poll(() => mine.locator('.status-badge').textContent(), POLL).toBe('Активен');
    const href = await mine.getByRole('link', { name: title, exact: true }).getAttribute('href');
    expect(href).toMatch(/^\/projects\/development\/[0-9a-f-]{36}$/);

    // A seller goes from the exchange to the project's category and opens it.
    const { token: sellerToken } = await e2e.user({ role: 'seller' });
    const s = await e2e.open({ token: sellerToken });
    await visit(s.page, '/projects');
    await s.page.getByRole('navigation', { name: 'Категории' }).getByRole('link', { name: 'Разработка и IT' }).click();
    await s.page.waitForURL((u) => u.pathname === '/projects/development');
    await hydrated(s.page);
    expect(await h1Of(s.page)).toBe('Разработка и IT');
    const card = s.page.locator('.p-card', { hasText: title });
    await expect.poll(() => card.count(), POLL).toBe(1);
    expect(await card.locator('.p-card__budget').textContent()).toBe(`до\u00a0${rub(30_000)}`);
    await checkA11y(s.page);
    await shots(s.page, '07-projects-category');
    await card.getByRole('link', { name: title, exact: true }).click();
    await s.page.waitForURL((u) => u.pathname === href);
    await hydrated(s.page);
    expect(await h1Of(s.page)).toBe(title);
    expect(await s.page.locator('main').textContent()).toContain('Анна Заказова');
    await checkA11y(s.page);
    await shots(s.page, '08-project-page');
  });

  it('favourites: a guest is sent to sign in; a member’s mark survives a reload and shows in another browser', async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    const title = `Сверстаю открытку с кракозяброй ${unique()}`;
    const service = await createService(e2e.server.database.db, seller.id, { title, category: 'design' });
    const servicePath = `/services/design/${service.id}`;

    // A guest's heart leads to /login, which comes back here afterwards.
    const g = await e2e.open();
    await visit(g.page, servicePath);
    await g.page.locator('.order-box').getByRole('button', { name: 'В избранное' }).click();
    await g.page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(g.page.url()).searchParams.get('from')).toBe(servicePath);
    // It says why (issue 15, 11).
    await expect.poll(() => g.page.getByRole('status').filter({ hasText: 'Войдите, чтобы сохранить' }).count()).toBe(1);

    // A member marks it; the mark is the account's (the server has it) and survives a reload.
    const password = 'lyubimoe-12345';
    const { user, token } = await e2e.user({ password });
    const m = await e2e.open({ token });
    await visit(m.page, servicePath);
    const heart = m.page.locator('.order-box .fav-btn');
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed'), POLL).toBe('true');
    expect(await heart.textContent()).toBe('Убрать из избранного');
    await expect.poll(async () => (await favoritesOf(token)).some((f) => f.id === service.id && f.type === 'service'), POLL).toBe(true);
    await m.page.reload();
    await hydrated(m.page);
    await expect.poll(() => heart.getAttribute('aria-pressed'), POLL).toBe('true');
    await checkA11y(m.page);

    // Another browser (a phone, this time): signing in brings the list along.
    const other = await e2e.open(PHONE);
    await login(other.page, user.email, password);
    await other.page.waitForURL((u) => u.pathname === '/');
    await hydrated(other.page);
    await visit(other.page, '/profile/saved');
    // The profile menu is one scrolling row on a phone: the current page's entry is scrolled into sight.
    const here = other.page.getByRole('navigation', { name: 'Личный кабинет' }).getByRole('link', { name: 'Избранное' });
    expect(await here.getAttribute('aria-current')).toBe('page');
    const box = (await here.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    const saved = other.page.locator('.s-card', { hasText: title });
    await expect.poll(() => saved.count(), POLL).toBe(1);
    await expect.poll(() => saved.locator('.fav-btn').getAttribute('aria-pressed'), POLL).toBe('true');
    await expect.poll(() => other.page.getByRole('navigation', { name: 'Разделы избранного' }).getByRole('link', { name: /Услуги/ }).textContent(), POLL).toBe('Услуги1');
    await checkA11y(other.page);
    await expectNoHorizontalOverflow(other.page);
    await shots(other.page, '09-saved');
  });

  it('a freelancer’s card keeps a two-word name clear of the favourite button beside a long rating line', async () => {
    // «★ 4,8 (10 отзывов)» does not break; it once set the width of every line of the card's body, so «Анна Соколова»
    // ran under the heart at 1,280 px instead of wrapping.
    const { user: seller } = await e2e.user({ role: 'seller', name: 'Анна', surname: 'Соколова', rating: 480, reviewsCount: 10, completedOrders: 11 });
    await createService(e2e.server.database.db, seller.id, { category: 'design', title: `Логотип для пекарни ${unique()}` });
    const { page } = await e2e.open({ viewport: { width: 1280, height: 900 } });
    await visit(page, '/freelancers/all?sort=new');
    const card = page.locator('.f-card', { hasText: `@${seller.userName}` });
    await expect.poll(() => card.count(), POLL).toBe(1);
    expect(await card.locator('.rating').textContent()).toMatch(/\(10\s+отзывов\)/);
    const title = (await card.locator('.f-card__title').boundingBox())!;
    const body = (await card.locator('.f-card__body').boundingBox())!;
    const heart = (await card.locator('.f-card__fav').boundingBox())!;
    expect(title.x + title.width).toBeLessThanOrEqual(body.x + body.width + 0.5);
    expect(title.x + title.width).toBeLessThanOrEqual(heart.x);
  });

  it('on a 375 px phone a guest searches from the header and reads the service page without sideways scrolling', async () => {
    const { user: seller } = await e2e.user({ role: 'seller', name: 'Константин', surname: 'Длиннофамильный-Мобильный' });
    const title = `Оформлю меню для кафе с крокодилом и длинным названием услуги ${unique()}`;
    const service = await createService(e2e.server.database.db, seller.id, {
      title,
      category: 'design',
      price: 350_000,
      tags: ['меню', 'крокодил'],
      packages: [
        { kind: 'economy', price: 350_000, days: 2, revisions: 1, description: 'Одна страница меню' },
        { kind: 'standard', price: 700_000, days: 4, revisions: 2, description: 'Меню до четырёх страниц с иллюстрациями' },
        { kind: 'business', price: 1_200_000, days: 7, revisions: 5, description: 'Полное меню, фото блюд, версия для печати и сайта' },
      ],
    });

    const { page } = await e2e.open(PHONE);
    await visit(page, '/');
    await expectNoHorizontalOverflow(page);
    await shot(page, '10-home-375');
    await searchFromHeader(page, 'крокодилы');
    const card = page.locator('.s-card', { hasText: title });
    await expect.poll(() => card.count(), POLL).toBe(1);
    expect(await card.isVisible()).toBe(true);
    expect(await card.locator('.s-card__price').isVisible()).toBe(true);
    await expectNoHorizontalOverflow(page);
    await checkA11y(page);
    await shot(page, '11-search-results-375');

    await card.getByRole('link', { name: title, exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/services/design/${service.id}`);
    await hydrated(page);
    expect(await h1Of(page)).toBe(title);
    for (const locator of [
      page.locator('main h1'),
      page.locator('.order-box__price'),
      page.locator('.order-box').getByRole('link', { name: 'Заказать' }),
      page.locator('table.svc-packages'),
    ]) {
      await locator.scrollIntoViewIfNeeded();
      expect(await locator.isVisible()).toBe(true);
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375 + 1);
    }
    expect(await page.locator('.order-box__price').textContent()).toBe(`от\u00a0${rub(3500)}`);
    await expectNoHorizontalOverflow(page);
    await checkA11y(page);
    await shot(page, '12-service-page-375');
  });
});
