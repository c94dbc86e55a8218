import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { BRAND, DESKTOP_USER_AGENT, checkA11y, h1Of, hydrated, pathOf, useE2E, userMenuToggle, visit } from './fixtures.ts';

// SPEC §2/§6 route guards: authenticated (profile area, /verify), redirect-if-authenticated
// (/login, /reg), the admin area, and the bare /profile and /admin paths.

// Pages with an {id} need a real item to render: their guard is checked, their content belongs to
// the specs of the issues that build them.
const ITEM_ID = randomUUID();

const PROFILE_PAGES = [
  '/profile/settings',
  '/profile/dashboard',
  '/profile/bids',
  '/profile/items',
  '/profile/items/create',
  '/profile/saved',
  '/profile/orders',
  '/profile/finance',
  '/profile/reviews',
  '/profile/disputes',
  '/profile/messages',
  '/profile/payments',
  '/profile/referral',
  '/profile/notifications',
];

const ADMIN_MENU_PAGES = [
  '/admin',
  '/admin/settings',
  '/admin/route-rules',
  '/admin/audit',
  '/admin/search-suggestions',
  '/admin/bids',
  '/admin/orders',
  '/admin/appeals',
  '/admin/disputes',
  '/admin/payments',
  '/admin/privacy',
  '/admin/users',
  '/admin/projects',
  '/admin/services',
  '/admin/blog',
];
const ITEM_PAGES = [`/profile/items/${ITEM_ID}/edit`, `/admin/users/${ITEM_ID}`, `/admin/projects/${ITEM_ID}/edit`, `/admin/services/${ITEM_ID}/edit`, `/admin/blog/${ITEM_ID}/edit`];

/**
 * The page's heading is present and non-empty, and the document title follows "{title} - Подряд"
 * (a page may title itself more generally than its heading, e.g. "Новое объявление" / "Новый проект").
 */
async function expectHeading(page: Page): Promise<string> {
  const h1 = await h1Of(page);
  expect(h1, pathOf(page)).not.toBe('');
  await expect.poll(() => page.title(), { message: pathOf(page) }).toMatch(new RegExp(`^\\S.* - ${BRAND}$`));
  return h1;
}

async function sideMenuLinks(page: Page, label: string): Promise<string[]> {
  return page
    .getByRole('navigation', { name: label })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

describe('route guards', () => {
  const e2e = useE2E();

  it('sends a guest from signed-in pages to /login?from=…', async () => {
    // The document request itself redirects (no client-side flash of the page).
    const raw = await fetch(`${e2e.url}/profile/settings`, { redirect: 'manual', headers: { 'user-agent': DESKTOP_USER_AGENT } });
    expect(raw.status).toBe(302);
    expect(raw.headers.get('location')).toBe('/login?from=%2Fprofile%2Fsettings');

    const { page } = await e2e.open();
    for (const [from, to] of [
      ['/profile/settings', '/login?from=%2Fprofile%2Fsettings'],
      ['/admin/users', '/login?from=%2Fadmin%2Fusers'],
      ['/verify', '/login?from=%2Fverify'],
      // The bare paths come back to themselves or to the page they stand for.
      ['/profile', /^\/login\?from=%2Fprofile(%2Fdashboard)?$/],
      ['/admin', /^\/login\?from=%2Fadmin(%2Fusers)?$/],
      ...ITEM_PAGES.map((p) => [p, `/login?from=${encodeURIComponent(p)}`] as const),
    ] as const) {
      expect(await visit(page, from), from).toBe(200);
      if (typeof to === 'string') expect(pathOf(page), from).toBe(to);
      else expect(pathOf(page), from).toMatch(to);
      expect(await page.locator('main h1').textContent(), from).toBe('Вход');
    }
    await checkA11y(page);
  });

  it('keeps the admin area a 404 for signed-in users who are not admins', async () => {
    const { token } = await e2e.user({ role: 'customer' });
    const { page } = await e2e.open({ token });
    expect(await visit(page, '/admin/users')).toBe(404);
    expect(pathOf(page)).toBe('/admin/users');
    expect(await page.locator('main h1').textContent()).toBe('Упс! Данной страницы не существует.');
    expect(await page.getByRole('navigation', { name: 'Администрирование' }).count()).toBe(0);
    await checkA11y(page);

    const { token: sellerToken } = await e2e.user({ role: 'seller' });
    const seller = await e2e.open({ token: sellerToken });
    for (const href of ['/admin/orders', '/admin', `/admin/services/${ITEM_ID}/edit`]) {
      expect(await visit(seller.page, href), href).toBe(404);
      expect(await h1Of(seller.page), href).toBe('Упс! Данной страницы не существует.');
    }
  });

  it('shows an admin the admin layout with a side menu to every admin page', async () => {
    const { user, token } = await e2e.user({ role: 'admin' });
    const { page } = await e2e.open({ token });

    // /admin is the admin home (ADR 036).
    expect(await visit(page, '/admin')).toBe(200);
    expect(pathOf(page)).toBe('/admin');
    expect([...(await sideMenuLinks(page, 'Администрирование'))].sort()).toEqual([...ADMIN_MENU_PAGES].sort());
    await expectHeading(page);
    await checkA11y(page);

    // Every menu entry opens its page (client-side), marked as the current one, with its heading.
    const menu = page.getByRole('navigation', { name: 'Администрирование' });
    for (const href of ADMIN_MENU_PAGES.filter((h) => h !== '/admin')) {
      const link = menu.locator(`a[href="${href}"]`);
      const before = await page.evaluate(() => document.querySelector('main')?.innerHTML);
      await link.click();
      await page.waitForURL((u) => u.pathname === href);
      await hydrated(page);
      await expect.poll(() => page.evaluate(() => document.querySelector('main')?.innerHTML), { message: href }).not.toBe(before);
      await expectHeading(page);
      expect(await link.getAttribute('aria-current'), href).toBe('page');
      await checkA11y(page);
    }

    // An item page, with a real item: the admin's own account.
    expect(await visit(page, `/admin/users/${user.id}`)).toBe(200);
    await expectHeading(page);
    expect(await page.getByRole('navigation', { name: 'Администрирование' }).count()).toBe(1);
    await checkA11y(page);

    // The user menu leads admins to the admin area's home (the overview).
    await userMenuToggle(page).click();
    expect(await page.getByRole('link', { name: 'Администрирование' }).getAttribute('href')).toBe('/admin');
  });

  it('sends a signed-in user away from /login and /reg', async () => {
    const { user, token } = await e2e.user();
    const { page } = await e2e.open({ token });
    expect(await visit(page, '/login')).toBe(200);
    expect(pathOf(page)).toBe('/');
    // Signed in: the header shows the user menu, not the guest links.
    expect(await userMenuToggle(page).textContent()).toContain(user.name);
    expect(await page.locator('header').getByRole('link', { name: 'Войти' }).count()).toBe(0);
    await checkA11y(page);

    await visit(page, '/reg');
    expect(pathOf(page)).toBe('/');
    // …or to where ?from= points.
    await visit(page, '/login?from=%2Fprofile%2Forders');
    expect(pathOf(page)).toBe('/profile/orders');

    // …but never to another host, however ?from= is spelled: the document's own 302 stays on our origin.
    const headers = { 'user-agent': DESKTOP_USER_AGENT, cookie: `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}` };
    for (const from of ['/%5Cevil.example', '%2F%5Cevil.example', '%2F%2Fevil.example', '/%09/evil.example', '%2F..%2F%2Fevil.example', 'https%3A%2F%2Fevil.example', 'javascript%3Aalert(1)']) {
      const raw = await fetch(`${e2e.url}/login?from=${from}`, { redirect: 'manual', headers });
      expect(raw.status, from).toBe(302);
      const location = raw.headers.get('location')!;
      expect(location, from).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, e2e.url).origin, from).toBe(e2e.url);
    }
    // And in the browser, the page it lands on is ours.
    await visit(page, '/login?from=/%5Cevil.example');
    expect(new URL(page.url()).origin).toBe(e2e.url);
  });

  it('shows a signed-in user every profile page with the profile side menu', async () => {
    const { token } = await e2e.user();
    const { page } = await e2e.open({ token });

    // /profile has no page of its own.
    expect(await visit(page, '/profile')).toBe(200);
    expect(pathOf(page)).toBe('/profile/dashboard');

    const menu = page.getByRole('navigation', { name: 'Личный кабинет' });
    const menuLinks = await sideMenuLinks(page, 'Личный кабинет');
    expect(menuLinks.length).toBeGreaterThanOrEqual(13);
    for (const href of menuLinks) expect(PROFILE_PAGES, href).toContain(href);
    await expectHeading(page);
    await checkA11y(page);

    // The menu's pages, opened from the menu (client-side).
    for (const href of menuLinks.filter((h) => h !== '/profile/dashboard')) {
      const link = menu.locator(`a[href="${href}"]`);
      const before = await page.evaluate(() => document.querySelector('main')?.innerHTML);
      await link.click();
      await page.waitForURL((u) => u.pathname === href);
      await hydrated(page);
      await expect.poll(() => page.evaluate(() => document.querySelector('main')?.innerHTML), { message: href }).not.toBe(before);
      await expectHeading(page);
      expect(await link.getAttribute('aria-current'), href).toBe('page');
      await checkA11y(page);
    }

    // The others, and one menu page, loaded directly.
    for (const href of [...PROFILE_PAGES.filter((h) => !menuLinks.includes(h)), '/profile/settings']) {
      expect(await visit(page, href), href).toBe(200);
      expect(pathOf(page)).toBe(href);
      await expectHeading(page);
      expect(await menu.count(), href).toBe(1);
      await checkA11y(page);
    }
  });
});
