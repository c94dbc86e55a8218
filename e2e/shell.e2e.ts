import { describe, expect, it } from 'vitest';
import { BRAND, bootLinks, checkA11y, h1Of, hydrated, pathOf, useE2E, useFallbackRates, userMenuToggle, visit } from './fixtures.ts';

// The foundation shell: server-rendered document, header (logo, catalogue, search, currency, guest
// links), footer pages and the mobile menu.

describe('shell', () => {
  const e2e = useE2E();

  it('server-renders the home page in Russian with the title template and default description', async () => {
    const response = await fetch(`${e2e.url}/`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/156.0.0.0' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="ru"');
    expect(html).toContain(`<title>Услуги фрилансеров - ${BRAND}</title>`);
    expect(html).toMatch(/<meta name="description" content="Биржа услуг"\/?>/);
    // The page itself is in the HTML, not only rendered by scripts.
    expect(html).toContain('<h1 class="page__title">Все услуги</h1>');
    expect(html).toContain('Войти');
  });

  it('shows the header: logo, catalogue from the reference data, search, currency and guest links', async () => {
    const catalogue = await e2e.server.app.services.lookups.catalogue();
    const design = catalogue.find((c) => c.title === 'Дизайн');
    expect(design, 'reference data has the Дизайн category').toBeDefined();

    const { page } = await e2e.open();
    expect(await visit(page, '/')).toBe(200);
    await checkA11y(page);
    expect(await page.title()).toBe(`Услуги фрилансеров - ${BRAND}`);

    const header = page.locator('header');
    const logo = header.getByRole('link', { name: new RegExp(`^${BRAND}`) });
    await expect.poll(() => logo.isVisible()).toBe(true);
    expect(await logo.getAttribute('href')).toBe('/');

    expect(await header.getByRole('link', { name: 'Войти' }).getAttribute('href')).toBe('/login');
    expect(await header.getByRole('link', { name: 'Регистрация' }).getAttribute('href')).toBe('/reg');
    expect(await userMenuToggle(page).count()).toBe(0);

    // Каталог opens a panel of the real categories.
    const designLink = header.getByRole('link', { name: 'Дизайн', exact: true });
    expect(await designLink.isVisible()).toBe(false);
    await header.locator('summary', { hasText: 'Каталог' }).click();
    await expect.poll(() => designLink.isVisible()).toBe(true);
    expect(await designLink.getAttribute('href')).toBe(`/services/${design!.slug}`);
    for (const c of catalogue) {
      expect(await header.getByRole('link', { name: c.title, exact: true }).count(), c.title).toBeGreaterThan(0);
    }
    await checkA11y(page);
    await designLink.click();
    await page.waitForURL((u) => u.pathname === `/services/${design!.slug}`);
    await hydrated(page);
    await expect.poll(() => h1Of(page)).toBe('Дизайн');
    await expect.poll(() => page.title()).toBe(`Дизайн - ${BRAND}`);
    await checkA11y(page);
  });

  it('fails the accessibility check on a serious violation, with axe already in the page from an earlier check', async () => {
    const { page } = await e2e.open();
    expect(await visit(page, '/')).toBe(200);
    await checkA11y(page);
    // A picture without a text alternative (axe's image-alt, critical), added after axe was put into the page.
    await page.evaluate(() => document.querySelector('main')!.append(Object.assign(document.createElement('img'), { id: 'no-alt' })));
    await expect(checkA11y(page)).rejects.toThrow(/image-alt \(critical\)/);
    await page.evaluate(() => document.getElementById('no-alt')!.remove());
    await checkA11y(page);
  });

  it('keeps the catalogue out of the page: the menu comes from its file, which the browser keeps', async () => {
    const catalogue = await e2e.server.app.services.lookups.catalogue();
    const { path } = await e2e.server.app.services.lookups.catalogueFile();
    const html = await (await fetch(`${e2e.url}/projects`)).text();
    // A guest's reading page hands its preloads to the boot script, which adds them as the app starts (ADR 020).
    expect(bootLinks(html)).toContain(`<link rel="preload" as="fetch" href="${path}" crossorigin="anonymous"/>`);
    // The tree is not in the hydration data (its 23.6 KB were, in every page).
    expect(html).not.toContain('"subs"');

    const { page } = await e2e.open();
    expect(await visit(page, '/projects')).toBe(200);
    await hydrated(page);
    await page.locator('header summary', { hasText: 'Каталог' }).click();
    const last = catalogue.at(-1)!;
    await expect.poll(() => page.locator('header').getByRole('link', { name: last.title, exact: true }).isVisible()).toBe(true);
    // A second full page load takes the file from the browser's cache: nothing goes over the network.
    expect(await visit(page, '/')).toBe(200);
    await hydrated(page);
    const transferred = await page.evaluate((url) => (performance.getEntriesByName(url)[0] as PerformanceResourceTiming).transferSize, `${e2e.url}${path}`);
    expect(transferred).toBe(0);
  });

  it('searches services from the header', async () => {
    const { page } = await e2e.open();
    await visit(page, '/faq');
    const box = page.getByRole('combobox', { name: 'Поиск услуг' });
    await box.fill('логотип');
    await box.press('Enter');
    await page.waitForURL((u) => u.pathname === '/services/all' && u.searchParams.get('q') === 'логотип');
    await hydrated(page);
    // The box keeps the query on the results page.
    await expect.poll(() => page.getByRole('combobox', { name: 'Поиск услуг' }).inputValue()).toBe('логотип');
    await checkA11y(page);
  });

  it('turns the currency switch off, with the reason, while no rates are known', async () => {
    const { page } = await e2e.open();
    await visit(page, '/');
    const select = page.getByRole('combobox', { name: /^Валюта/ });
    expect(await select.isDisabled()).toBe(true);
    expect(await select.inputValue()).toBe('RUB');
    expect(await select.getAttribute('aria-label')).toBe('Валюта: Курсы валют недоступны, цены показаны в рублях');
    await checkA11y(page);
  });

  it('opens every footer page with a heading and the "{h1} - Подряд" title', async () => {
    const { page } = await e2e.open();
    await visit(page, '/');
    const footer = page.locator('footer');
    const expected = ['/faq', '/help', '/about', '/contacts', '/conditions', '/privacy', '/consent', '/blog'];
    const hrefs = await footer.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expected);

    let previous = await h1Of(page);
    for (const href of expected) {
      await page.locator(`footer a[href="${href}"]`).click();
      await page.waitForURL((u) => u.pathname === href);
      await hydrated(page);
      // Every footer page has a heading of its own.
      await expect.poll(() => h1Of(page), { message: href }).not.toBe(previous);
      const h1 = await h1Of(page);
      expect(h1, href).not.toBe('');
      await expect.poll(() => page.title(), { message: href }).toBe(`${h1} - ${BRAND}`);
      await checkA11y(page);
      previous = h1;
    }

    // Loaded directly, a static page is the same.
    expect(await visit(page, '/conditions')).toBe(200);
    expect(await page.title()).toBe(`${await page.locator('main h1').textContent()} - ${BRAND}`);
  });

  it('collapses the header into a burger menu at 375 px', async () => {
    const { page } = await e2e.open({ viewport: { width: 375, height: 740 } });
    await visit(page, '/');
    const burger = page.getByRole('button', { name: 'Открыть меню' });
    const catalogueToggle = page.locator('header summary', { hasText: 'Каталог' });
    expect(await burger.isVisible()).toBe(true);
    expect(await catalogueToggle.isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Войти' }).isVisible()).toBe(false);
    await checkA11y(page);

    await burger.click();
    const close = page.getByRole('button', { name: 'Закрыть меню' });
    await expect.poll(() => close.getAttribute('aria-expanded')).toBe('true');
    expect(await catalogueToggle.isVisible()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Поиск услуг' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Войти' }).isVisible()).toBe(true);
    await checkA11y(page);

    await close.click();
    await expect.poll(() => catalogueToggle.isVisible()).toBe(false);
    expect(pathOf(page)).toBe('/');
  });

  // A buyer's row is the fullest (the post button, the role toggle, messages, notifications, the avatar). The page's
  // column stops at 1,200 px, so a wider window once gave the row no more room: with the logo's name shown from
  // 1,440 px, the search field shrank to 24 px on every common desktop width, and at 1,280 px it cut its placeholder.
  it('keeps a buyer’s header on one row from 1181 to 1920 px, the search field showing its whole placeholder; below, a menu', async () => {
    const { token } = await e2e.user();
    const { page } = await e2e.open({ token });
    await visit(page, '/faq');
    // The signed-in icons come with the app's lazy part: a slow machine may take more than the poll's default second.
    await expect.poll(() => page.locator('header .header-messages').count(), { timeout: 30_000, interval: 250 }).toBe(2);
    for (const width of [1181, 1280, 1366, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      const row = await page.evaluate(() => {
        const inner = document.querySelector('.header__inner')!.getBoundingClientRect();
        const input = document.querySelector<HTMLInputElement>('header .search__input')!;
        // The placeholder's text as a value: the field scrolls when it cannot show it whole.
        input.value = input.placeholder;
        const placeholderFits = input.scrollWidth <= input.clientWidth;
        input.value = '';
        const items = [...document.querySelectorAll('.header__inner > *, .header__menu > *')]
          .filter((el) => !el.classList.contains('header__menu'))
          .map((el) => ({ what: el.className || el.tagName, box: el.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0)
          .sort((a, b) => a.box.left - b.box.left);
        const offRow = items.filter(({ box }) => box.top < inner.top || box.bottom > inner.bottom || box.right > inner.right + 0.5);
        const overlapping = items.slice(1).filter(({ box }, i) => box.left < items[i]!.box.right - 0.5);
        return {
          placeholderFits,
          searchWidth: input.clientWidth,
          offRow: offRow.map((item) => item.what),
          overlapping: overlapping.map((item) => item.what),
        };
      });
      expect(row.placeholderFits, `${width} px: the search field is ${row.searchWidth} px`).toBe(true);
      expect(row.searchWidth, `${width} px`).toBeGreaterThanOrEqual(140);
      expect(row.offRow, `${width} px`).toEqual([]);
      expect(row.overlapping, `${width} px`).toEqual([]);
    }

    // Below 1181 px the row folds into a menu, each entry at its left edge (the messages once stood alone at the right
    // from 901 to 1180 px).
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.getByRole('button', { name: /^Открыть меню/ }).click();
    const menu = page.locator('#header-menu');
    await menu.locator('.header-messages').first().waitFor();
    const lefts = await menu.evaluate((el) =>
      [...el.children]
        .map((child) => ({ what: child.className || child.tagName, box: child.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0)
        .map(({ what, box }) => `${what} ${Math.round(box.left)}`),
    );
    expect(lefts.length).toBeGreaterThanOrEqual(8);
    const edge = lefts[0]!.split(' ').at(-1);
    expect(lefts.filter((entry) => entry.split(' ').at(-1) !== edge)).toEqual([]);
  });
});

describe('shell with currency rates', () => {
  const e2e = useE2E();
  useFallbackRates(e2e);

  it('keeps the selected currency across reloads (localStorage selectedCurrency)', async () => {
    const { page } = await e2e.open();
    await visit(page, '/');
    const select = page.getByRole('combobox', { name: 'Валюта' });
    expect(await select.inputValue()).toBe('RUB');
    expect(await select.locator('option').allTextContents()).toEqual(['RUB', 'USDT', 'BTC']);
    await select.selectOption('USDT');
    expect(await page.evaluate(() => localStorage.getItem('selectedCurrency'))).toBe('USDT');

    await page.reload();
    await hydrated(page);
    await expect.poll(() => page.getByRole('combobox', { name: 'Валюта' }).inputValue()).toBe('USDT');
    await checkA11y(page);

    // And on another page of the same visit.
    await visit(page, '/about');
    await expect.poll(() => page.getByRole('combobox', { name: 'Валюта' }).inputValue()).toBe('USDT');
  });
});
