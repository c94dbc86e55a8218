import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  DESKTOP_USER_AGENT,
  checkA11y,
  clientNavigate,
  h1Of,
  hasMarker,
  hydrated,
  pathOf,
  setMarker,
  useE2E,
  userMenuToggle,
  visit,
} from './fixtures.ts';

// SPEC §2 behaviours of navigation: route rules, referral codes, /test without the development flag
// (with it: version.e2e.ts), the seller redirect, kept listing state and the logout confirmation.

/** Starts a client-side navigation that is expected to unload the page (no waiting for it in the page). */
const startNavigation = (page: Page, to: string) =>
  page.evaluate((target) => {
    void (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate(target);
  }, to);

const sortSelect = (page: Page) => page.locator('main select[name="sort"]');

describe('navigation', () => {
  const e2e = useE2E();

  describe('route rules', () => {
    it('redirects a client-side navigation without reloading the page', async () => {
      await e2e.server.app.services.routeRules.set('/old-page', '/faq');
      const { page } = await e2e.open();
      await visit(page, '/');
      await setMarker(page);
      await clientNavigate(page, '/old-page');
      expect(pathOf(page)).toBe('/faq');
      expect(await hasMarker(page), 'no document load').toBe(true);
      await expect.poll(() => h1Of(page)).toBe('Частые вопросы');
      await checkA11y(page);
    });

    it('redirects a document request with HTTP 302', async () => {
      await e2e.server.app.services.routeRules.set('/old-doc', '/about');
      const raw = await fetch(`${e2e.url}/old-doc`, { redirect: 'manual', headers: { 'user-agent': DESKTOP_USER_AGENT } });
      expect(raw.status).toBe(302);
      expect(raw.headers.get('location')).toBe('/about');

      const { page } = await e2e.open();
      await visit(page, '/old-doc');
      expect(pathOf(page)).toBe('/about');
      await checkA11y(page);
    });

    it('leaves the app by a full page load for an absolute redirect', async () => {
      await e2e.server.app.services.routeRules.set('/leave', `${e2e.url}/about?external=1`);
      const { page } = await e2e.open();
      await visit(page, '/faq');
      await setMarker(page);
      await startNavigation(page, '/leave');
      await page.waitForURL((u) => u.pathname === '/about' && u.search === '?external=1');
      await hydrated(page);
      expect(await hasMarker(page), 'a document load happened').toBe(false);
      await expect.poll(() => h1Of(page)).toBe('О проекте');
      await checkA11y(page);
    });
  });

  describe('referral code', () => {
    it('stores ?referralCode= for a guest', async () => {
      const { page } = await e2e.open();
      await visit(page, '/?referralCode=ABC123');
      await checkA11y(page);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('referralCode'))).toBe('ABC123');
      // It stays for the rest of the visit, and a later code replaces it.
      await visit(page, '/faq');
      expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBe('ABC123');
      await clientNavigate(page, '/about?referralCode=XYZ789');
      expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBe('XYZ789');
    });

    it("clears it when it is the signed-in user's own code", async () => {
      const { user, token } = await e2e.user();
      const { page } = await e2e.open({ token });
      await visit(page, '/?referralCode=SOMEONE1');
      expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBe('SOMEONE1');
      await checkA11y(page);

      await visit(page, `/?referralCode=${user.referralCode}`);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('referralCode'))).toBeNull();
    });
  });

  it('redirects /test to / without the development flag', async () => {
    const raw = await fetch(`${e2e.url}/test`, { redirect: 'manual', headers: { 'user-agent': DESKTOP_USER_AGENT } });
    expect(raw.status).toBe(302);
    expect(raw.headers.get('location')).toBe('/');

    const { page } = await e2e.open();
    await visit(page, '/test');
    expect(pathOf(page)).toBe('/');
    await checkA11y(page);
    expect(await page.getByText('Диагностика').count()).toBe(0);
  });

  describe('seller redirect', () => {
    it('sends a seller opening the home page directly to /projects', async () => {
      const { token } = await e2e.user({ role: 'seller' });
      const { page } = await e2e.open({ token });
      for (const path of ['/', '/services', '/services/all']) {
        await visit(page, path);
        expect(pathOf(page), path).toBe('/projects');
      }
      expect(await h1Of(page)).toBe('Биржа проектов');
      await checkA11y(page);
    });

    it('leaves a customer on the home page', async () => {
      const { token } = await e2e.user({ role: 'customer' });
      const { page } = await e2e.open({ token });
      expect(await visit(page, '/')).toBe(200);
      expect(pathOf(page)).toBe('/');
      await checkA11y(page);
    });

    it('sends a seller to /projects only when coming from the home page', async () => {
      const { token } = await e2e.user({ role: 'seller' });
      const { page } = await e2e.open({ token });
      await visit(page, '/faq');
      await setMarker(page);

      // From another page: the listing opens.
      await clientNavigate(page, '/services/all');
      expect(pathOf(page)).toBe('/services/all');
      await expect.poll(() => h1Of(page)).toBe('Все услуги');
      await checkA11y(page);

      // The home page reached from another page stays…
      await clientNavigate(page, '/');
      expect(pathOf(page)).toBe('/');
      // …but leaving it for /services is a home-page visit: off to the projects.
      await clientNavigate(page, '/services');
      expect(pathOf(page)).toBe('/projects');
      await expect.poll(() => h1Of(page)).toBe('Биржа проектов');
      expect(await hasMarker(page), 'all client-side').toBe(true);
      await checkA11y(page);
    });
  });

  describe('kept listing state', () => {
    for (const [path, value] of [
      ['/services', 'new'],
      ['/projects', 'budget_desc'],
      ['/freelancers/all', 'new'],
    ] as const) {
      it(`keeps the sort of ${path} while the user visits other pages`, async () => {
        const { page } = await e2e.open();
        await visit(page, path);
        const initial = await sortSelect(page).inputValue();
        expect(initial).not.toBe(value);
        await sortSelect(page).selectOption(value);
        await hydrated(page);
        await checkA11y(page);

        await clientNavigate(page, '/faq');
        await expect.poll(() => h1Of(page)).toBe('Частые вопросы');
        expect(await sortSelect(page).count()).toBe(0);
        // Back by the plain address, as a menu link would go: the listing is as the user left it.
        await clientNavigate(page, path);
        expect(new URL(page.url()).pathname).toBe(path);
        await expect.poll(() => sortSelect(page).count()).toBe(1);
        await expect.poll(() => sortSelect(page).inputValue()).toBe(value);
      });
    }
  });

  describe('logout', () => {
    it('asks for confirmation, then signs out to /login with a reload', async () => {
      const { user, token } = await e2e.user();
      const { page, context } = await e2e.open({ token });
      await visit(page, '/faq');
      const userMenu = userMenuToggle(page);
      expect(await userMenu.textContent()).toContain(user.name);

      // Cancel first: nothing happens.
      await userMenu.click();
      await page.locator('header').getByRole('button', { name: 'Выйти' }).click();
      const dialog = page.getByRole('dialog', { name: 'Выйти из аккаунта?' });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await checkA11y(page);
      await dialog.getByRole('button', { name: 'Отмена' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      expect(pathOf(page)).toBe('/faq');

      await setMarker(page);
      if (!(await page.locator('header').getByRole('button', { name: 'Выйти' }).isVisible())) await userMenu.click();
      await page.locator('header').getByRole('button', { name: 'Выйти' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Выйти' }).click();

      await page.waitForURL((u) => u.pathname === '/login');
      await hydrated(page);
      expect(await hasMarker(page), 'the page reloaded').toBe(false);
      expect(await page.locator('header').getByRole('link', { name: 'Войти' }).isVisible()).toBe(true);
      expect(await userMenuToggle(page).count()).toBe(0);
      expect((await context.cookies()).find((c) => c.name === 'authToken')).toBeUndefined();
      expect(await page.evaluate(() => localStorage.getItem('isAuth'))).toBe('false');
      await checkA11y(page);
    });
  });
});
