import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { searchQueries } from '../server/modules/search/schema.ts';
import { services } from '../server/modules/services/schema.ts';
import { checkA11y, hydrated, MOBILE_USER_AGENT, useE2E, visit, photograph } from './fixtures.ts';

// The header search box's suggestions: categories from the catalogue and popular searches from the API; and
// search that finds what people mean (ADR 028): Russian spellings, a word being typed, typos.

const e2e = useE2E();
const POLL = { timeout: 15_000, interval: 100 };
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/search-shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => photograph(page, path.join(SHOTS, `${name}.png`), { fullPage: true });
const cardTitles = (page: Page) => page.locator('main .s-card__title').allTextContents();

describe('header search suggestions', () => {
  it('offers categories and popular searches as one types, by mouse and by keyboard', async () => {
    // A popular search of its own (a made-up word), as if many people had made it.
    const popular = `логотип с квокками ${Date.now() % 100_000}`;
    await e2e.server.database.db.insert(searchQueries).values({ query: popular, searches: 10_000 }).onConflictDoNothing();
    // A suggestion is offered only while it finds something (ADR 028).
    const { user } = await e2e.user({ role: 'seller' });
    await createService(e2e.server.database.db, user.id, { title: `Нарисую ${popular}` });

    const { page } = await e2e.open();
    await visit(page, '/');
    const box = page.getByRole('combobox', { name: 'Поиск услуг' });
    const list = page.getByRole('listbox', { name: 'Подсказки поиска' });
    const options = list.getByRole('option');

    await box.fill('логот');
    await expect.poll(() => options.allTextContents(), POLL).toContain(`${popular}`);
    const texts = await options.allTextContents();
    expect(texts[0]).toBe('ЛоготипыДизайн'); // the sub-category first, with its category
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await checkA11y(page);

    // The mouse: a category opens its listing.
    await options.first().click();
    await page.waitForURL((url) => url.pathname === '/services/design' && url.searchParams.get('sub') === 'logo-design');
    await hydrated(page);
    expect(await list.isHidden()).toBe(true);

    // The keyboard: arrows walk the options, Enter runs the popular search, Escape closes.
    await box.fill('логотип с кв');
    await expect.poll(() => options.allTextContents(), POLL).toEqual([popular]);
    await box.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('site-search-option-0');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/services/all' && url.searchParams.get('q') === popular);
    // The address changes before React shows the new page; the box takes the page's query when it does, so one
    // types after that (CI met text typed in between replaced by the query).
    await expect.poll(() => page.locator('main h1').textContent(), POLL).toBe(`Результаты по запросу «${popular}»`);
    await hydrated(page);
    expect(await box.inputValue()).toBe(popular);
    await box.fill('лого');
    await expect.poll(() => list.isVisible(), POLL).toBe(true);
    await box.press('Escape');
    expect(await list.isHidden()).toBe(true);
    expect(await box.inputValue()).toBe('лого');
  });

  it('an administrator removes a suggestion from the admin page, and the header stops offering it', async () => {
    const planted = `логотип с капибарами ${Date.now() % 100_000}`;
    await e2e.server.database.db.insert(searchQueries).values({ query: planted, searches: 10_000 }).onConflictDoNothing();

    const { token } = await e2e.user({ role: 'admin' });
    const { page } = await e2e.open({ token });
    await visit(page, '/admin/services');
    await page.getByRole('link', { name: 'просмотреть и удалить' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/search-suggestions');
    await hydrated(page);
    const row = page.getByRole('row').filter({ hasText: planted });
    await expect.poll(() => row.count(), POLL).toBe(1);
    await checkA11y(page);

    await row.getByRole('button', { name: `Удалить подсказку «${planted}»` }).click();
    await expect.poll(() => page.locator('.toast').first().textContent(), POLL).toContain('удалена');
    await expect.poll(() => row.count(), POLL).toBe(0);
    await page.getByRole('link', { name: 'Удалённые' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: planted }).count(), POLL).toBe(1);

    const box = page.getByRole('combobox', { name: 'Поиск услуг' });
    // The box asks the API as one types; a removed suggestion is not among the answers.
    const answered = page.waitForResponse((res) => res.url().includes('/api/search/suggestions'));
    await box.fill('логотип с капиб');
    const answer = await answered;
    expect(((await answer.json()) as { result: string[] }).result).not.toContain(planted);
  });
});

describe('search finds what people mean', () => {
  it('a Russian spelling, a word being typed and a typo find services; a typo says «Возможно, вы искали»', async () => {
    const { user } = await e2e.user({ role: 'seller' });
    const db = e2e.server.database.db;
    await createService(db, user.id, { category: 'development', sub: 'bots-development', title: 'Сделаю Telegram-бота для записи клиентов', tags: ['бот'] });
    await createService(db, user.id, { category: 'design', sub: 'logo-design', title: 'Нарисую логотип для пекарни', tags: ['логотип'] });

    const { page } = await e2e.open();
    await visit(page, '/');
    const box = page.getByRole('combobox', { name: 'Поиск услуг' });
    const search = async (q: string) => {
      await box.fill(q);
      await box.press('Enter');
      await page.waitForURL((url) => url.pathname === '/services/all' && url.searchParams.get('q') === q);
      await hydrated(page);
    };

    await search('телеграм');
    await expect.poll(() => cardTitles(page), POLL).toEqual(['Сделаю Telegram-бота для записи клиентов']);
    await shot(page, 'telegram-1280');

    await search('лого');
    await expect.poll(() => cardTitles(page), POLL).toContain('Нарисую логотип для пекарни');

    await search('лготип');
    const corrected = page.locator('.listing__corrected');
    await expect.poll(() => corrected.textContent(), POLL).toContain('Возможно, вы искали логотип');
    await expect.poll(() => cardTitles(page), POLL).toContain('Нарисую логотип для пекарни');
    await checkA11y(page);
    await shot(page, 'typo-1280');
    await corrected.getByRole('link', { name: 'логотип' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'логотип');
    await expect.poll(() => corrected.count(), POLL).toBe(0);
    await expect.poll(() => cardTitles(page), POLL).toContain('Нарисую логотип для пекарни');

    // Server-rendered: the page says it without any script.
    const html = await (await fetch(`${e2e.url}/services/all?q=${encodeURIComponent('лготип')}`)).text();
    expect(html).toContain('listing__corrected');
    expect(html).toContain('Возможно, вы искали');

    // A phone, straight from an address.
    const phone = await e2e.open({ viewport: { width: 375, height: 812 }, isMobile: true, userAgent: MOBILE_USER_AGENT });
    await visit(phone.page, `/services/all?q=${encodeURIComponent('лготип')}`);
    await expect.poll(() => phone.page.locator('.listing__corrected').textContent(), POLL).toContain('Возможно, вы искали логотип');
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(phone.page, 'typo-375');
    await visit(phone.page, `/services/all?q=${encodeURIComponent('телеграм')}`);
    await expect.poll(() => cardTitles(phone.page), POLL).toEqual(['Сделаю Telegram-бота для записи клиентов']);
    await shot(phone.page, 'telegram-375');
  });

  it('a search no service matches with every word shows those matching some, and an empty one offers a project', async () => {
    const { user } = await e2e.user({ role: 'seller' });
    await createService(e2e.server.database.db, user.id, { category: 'audio-video', title: 'Запишу озвучку для рекламного ролика', tags: ['озвучка'] });
    const { page } = await e2e.open();
    await visit(page, `/services/all?q=${encodeURIComponent('озвучка барбершопа')}`);
    await expect.poll(() => page.locator('main h1').textContent(), POLL).toBe('Результаты по запросу «озвучка барбершопа»');
    await expect
      .poll(() => page.locator('.listing__status').textContent(), POLL)
      .toContain('Ничего не нашлось по всем словам запроса «озвучка барбершопа». Показываем похожие услуги.');
    await expect.poll(() => cardTitles(page), POLL).toContain('Запишу озвучку для рекламного ролика');
    await checkA11y(page);
    await shot(page, 'partial-1280');

    // Nothing at all: «Разместите проект» opens the project form with the search as its title.
    const nothing = 'вомбат ъъъъ'; // no word any service of this file has (an earlier test sells «квокками»)
    await visit(page, `/services/all?q=${encodeURIComponent(nothing)}`);
    const offer = page.getByRole('link', { name: 'Разместите проект' });
    await expect.poll(() => offer.getAttribute('href'), POLL).toBe(`/profile/items/create?kind=project&title=${encodeURIComponent(nothing).replaceAll('%20', '+')}`);
    const customer = await e2e.user();
    const signedIn = await e2e.open({ token: customer.token });
    await visit(signedIn.page, (await offer.getAttribute('href'))!);
    await expect.poll(() => signedIn.page.locator('input[name="title"]').inputValue(), POLL).toBe(nothing);
  });

  it('an administrator adds a synonym group and a search by it finds services at once', async () => {
    const { user } = await e2e.user({ role: 'seller' });
    await createService(e2e.server.database.db, user.id, { category: 'design', title: 'Нарисую маскота для бренда', tags: ['персонаж'] });
    const { token } = await e2e.user({ role: 'admin' });
    const { page } = await e2e.open({ token });
    await visit(page, '/admin/search-suggestions');
    await hydrated(page);
    const area = page.getByLabel('Группы синонимов');
    await expect.poll(() => area.inputValue(), POLL).toContain('telegram, телеграм');
    await area.fill(`${await area.inputValue()}\nмаскот, талисман`);
    await page.getByRole('button', { name: 'Сохранить синонимы' }).click();
    await expect.poll(() => page.locator('.toast').first().textContent(), POLL).toContain('Синонимы сохранены');
    await checkA11y(page);
    await shot(page, 'admin-synonyms-1280');
    await visit(page, `/services/all?q=${encodeURIComponent('талисман')}`);
    await expect.poll(() => cardTitles(page), POLL).toEqual(['Нарисую маскота для бренда']);
  });
});

describe('server-rendered pages count their visitors by the visitor’s address', () => {
  // Behind a proxy the address comes from X-Forwarded-For: a request can pose as any address here.
  const proxied = useE2E({ TRUST_PROXY: '127.0.0.1' });
  const page = (path: string, address: string) => fetch(`${proxied.url}${path}`, { headers: { 'x-forwarded-for': address } });

  it('searches and views made through SSR count per address, not as the loopback', async () => {
    const { user } = await proxied.user({ role: 'seller' });
    const word = `окапи${Date.now().toString(36).replace(/\d/g, '')}`;
    const service = await createService(proxied.server.database.db, user.id, { title: `Нарисую логотип с ${word} для кафе` });

    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await page(`/services/all?q=${encodeURIComponent(word)}`, address)).status).toBe(200);
    await proxied.server.app.services.searchSuggestions.flush();
    const offered = await fetch(`${proxied.url}/api/search/suggestions?q=${encodeURIComponent(word)}`);
    expect(((await offered.json()) as { result: string[] }).result).toEqual([word]);

    for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2']) expect((await page(`/services/design/${service.id}`, address)).status).toBe(200);
    await proxied.server.app.services.serviceCatalog.flushViews();
    const [row] = await proxied.server.database.db.select({ views: services.views }).from(services).where(eq(services.id, service.id));
    expect(row?.views).toBe(2);
  });
});
