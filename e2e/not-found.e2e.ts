import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BRAND, CRAWLER_USER_AGENT, DESKTOP_USER_AGENT, checkA11y, clientNavigate, h1Of, hydrated, pathOf, useE2E, visit } from './fixtures.ts';

// SPEC §2/§8: unknown routes and failed page validation answer 404 with the exact error screen;
// crawlers get a bare 404 instead.

/** Asserts SPEC's 404 screen word for word. */
async function expectNotFoundScreen(page: Page) {
  await expect.poll(() => h1Of(page)).toBe('Упс! Данной страницы не существует.');
  const main = page.locator('main');
  const crumbs = main.getByRole('navigation', { name: 'Навигационная цепочка' });
  expect(await crumbs.locator('li').allTextContents()).toEqual(['Главная', 'Страница не найдена']);
  expect(await crumbs.getByRole('link', { name: 'Главная' }).getAttribute('href')).toBe('/');
  expect(await main.locator('h1').textContent()).toBe('Упс! Данной страницы не существует.');
  expect(await main.getByText('Страница, которую вы ищете, недоступна.', { exact: true }).isVisible()).toBe(true);
  const back = main.getByRole('link', { name: 'Вернуться на главную' });
  expect(await back.isVisible()).toBe(true);
  expect(await back.getAttribute('href')).toBe('/');
  // Inside the normal frame: header and footer are there.
  expect(await page.locator('header a[href="/"]').count()).toBeGreaterThan(0);
  expect(await page.locator('footer a[href="/faq"]').count()).toBe(1);
  await expect.poll(() => page.title()).toBe(`Страница не найдена - ${BRAND}`);
}

describe('404 screen', () => {
  const e2e = useE2E();

  it('answers an unknown route with HTTP 404 and the SPEC screen; its button goes home', async () => {
    const { page } = await e2e.open();
    expect(await visit(page, '/no/such/page-here')).toBe(404);
    await expectNotFoundScreen(page);
    await checkA11y(page);

    await page.getByRole('link', { name: 'Вернуться на главную' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await hydrated(page);
    await expect.poll(() => h1Of(page)).toBe('Все услуги');
  });

  it('answers a failed page validation (/services/unknown-slug) with the same 404 screen', async () => {
    const { page } = await e2e.open();
    expect(await visit(page, '/services/unknown-slug')).toBe(404);
    await expectNotFoundScreen(page);
    await checkA11y(page);

    // The same for the other listings' category parameter.
    expect(await visit(page, '/projects/unknown-slug')).toBe(404);
    await expectNotFoundScreen(page);
  });

  it('shows the 404 screen on a client-side navigation to an unknown route too', async () => {
    const { page } = await e2e.open();
    await visit(page, '/faq');
    await clientNavigate(page, '/definitely-missing');
    expect(pathOf(page)).toBe('/definitely-missing');
    await expectNotFoundScreen(page);
    await checkA11y(page);
  });

  it('gives search crawlers a bare 404 without the error page', async () => {
    for (const path of ['/no/such/page-here', '/services/unknown-slug']) {
      const response = await fetch(`${e2e.url}${path}`, { headers: { 'user-agent': CRAWLER_USER_AGENT } });
      expect(response.status, path).toBe(404);
      const body = await response.text();
      expect(body, path).not.toContain('Упс!');
      expect(body, path).not.toContain('<html');
    }
    // A person's browser gets the full screen from the same URL.
    const human = await fetch(`${e2e.url}/no/such/page-here`, { headers: { 'user-agent': DESKTOP_USER_AGENT } });
    expect(human.status).toBe(404);
    expect(await human.text()).toContain('Упс! Данной страницы не существует.');
  });
});
