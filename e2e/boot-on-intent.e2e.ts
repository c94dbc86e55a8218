import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { hasMarker, hold, hydrated, setMarker, useE2E, useFallbackRates } from './fixtures.ts';

// A guest's reading page starts the app on the first sign of intent (web/lib/boot-on-intent.ts, docs/decisions/076):
// what they download at load, what starts the app, and that nothing done before it is lost or done twice.

const APP_CODE = /\/assets\/entry\.client-[^/]+\.js$/;

/** The app's scripts this page has fetched so far. */
function scriptsOf(page: Page) {
  const fetched: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') fetched.push(new URL(req.url()).pathname);
  });
  return fetched;
}

/** Holds the app's entry back until open() is called. */
const holdApp = (page: Page) => hold(page, APP_CODE);

const started = (page: Page) =>
  page.evaluate(() => !!(window as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized);

describe('a guest’s reading page, started on intent', () => {
  // In the full browser: what a guest's page fetches before any input is the point here, and the headless shell's
  // pointer rests over the page from the start, so its hover may start the app at load (ADR 088).
  const e2e = useE2E({}, { browser: 'chromium' });

  it('downloads no module while the guest only reads; a pointer over the page starts the app, and links then stay in it', async () => {
    const { page } = await e2e.open();
    const fetched = scriptsOf(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    expect(fetched).toEqual([]);
    expect(await page.locator('script#app-modules[type="text/x-app-modules"]').count()).toBe(1);
    expect(await page.locator('link[rel="modulepreload"]').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(await started(page)).toBe(false);

    await page.mouse.move(200, 300);
    await page.mouse.move(400, 320);
    await expect.poll(() => started(page), { timeout: 15_000 }).toBe(true);
    expect(fetched.some((path) => APP_CODE.test(path))).toBe(true);
    await hydrated(page);
    await setMarker(page);
    await page.locator('main a[href="/projects"], header a[href="/projects"]').first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/projects');
    expect(await hasMarker(page)).toBe(true);
  });

  it('holds a tap on a button until the app is there, then makes it once', async () => {
    const { page } = await e2e.open({ viewport: { width: 375, height: 740 }, isMobile: true });
    const gate = await holdApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const burger = page.locator('header button.header__burger');
    await burger.tap();
    await expect.poll(() => gate.asked, { timeout: 10_000 }).toBe(true);
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    gate.open();
    await expect.poll(() => page.locator('header button.header__burger').getAttribute('aria-expanded'), { timeout: 15_000 }).toBe('true');
    await hydrated(page);
    // Made once: the menu stays open.
    await page.waitForTimeout(300);
    expect(await page.locator('header button.header__burger').getAttribute('aria-expanded')).toBe('true');
  });

  it('follows a link clicked before the app as a link', async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    await createService(e2e.server.database.db, seller.id, { category: 'design' });
    const { page } = await e2e.open();
    const gate = await holdApp(page);
    await page.goto('/services/design', { waitUntil: 'domcontentloaded' });
    await setMarker(page);
    const card = page.locator('main a[href^="/services/design/"]').first();
    const href = await card.getAttribute('href');
    await card.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(href);
    // A document load: the page's own, not the app's (whose code was still held).
    expect(await hasMarker(page)).toBe(false);
    gate.open();
    await hydrated(page);
  });

  it('starts at once for a signed-in person, for a guest who chose another currency and for a referral link', async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    await createService(e2e.server.database.db, seller.id, { category: 'design' });
    const { token } = await e2e.user({ role: 'customer' });
    const signedIn = await e2e.open({ token });
    const fetched = scriptsOf(signedIn.page);
    // Not 'networkidle': a signed-in page keeps its socket open.
    await signedIn.page.goto('/');
    expect(await signedIn.page.locator('#app-modules').count()).toBe(0);
    await expect.poll(() => fetched.some((path) => APP_CODE.test(path)), { timeout: 15_000 }).toBe(true);

    // Its prices are the app's to convert: no pointer, no key, and the app starts.
    const inUsdt = await e2e.open({ initScripts: [() => location.origin !== 'null' && localStorage.setItem('selectedCurrency', 'USDT')] });
    await inUsdt.page.goto('/');
    await expect.poll(() => started(inUsdt.page), { timeout: 15_000 }).toBe(true);

    const referred = await e2e.open();
    await referred.page.goto('/?referralCode=REF123');
    await expect.poll(() => referred.page.evaluate(() => localStorage.getItem('referralCode')), { timeout: 15_000 }).toBe('REF123');
  });

  it('leaves the page where the guest scrolled it when the app starts', async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    for (let i = 0; i < 6; i++) await createService(e2e.server.database.db, seller.id, { category: 'design' });
    const { page } = await e2e.open({ viewport: { width: 375, height: 600 }, isMobile: true });
    // React Router keeps one position for the listings: saved as the app leaves a listing scrolled down.
    await page.goto('/services');
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.goto('/projects', { waitUntil: 'domcontentloaded' });
    // Back on a listing: the inline script puts it where it was; the guest scrolls up, then touches the page.
    await page.goto('/services', { waitUntil: 'networkidle' });
    expect(await started(page)).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(300);
    await page.locator('body').dispatchEvent('pointerover');
    await expect.poll(() => started(page), { timeout: 15_000 }).toBe(true);
    await hydrated(page);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.scrollY)).toBe(300);
  });
});

describe('a guest’s reading page with currency rates, started on intent', () => {
  // In the full browser: what a guest's page fetches before any input is the point here, and the headless shell's
  // pointer rests over the page from the start, so its hover may start the app at load (ADR 088).
  const e2e = useE2E({}, { browser: 'chromium' });
  useFallbackRates(e2e);

  it('keeps a currency chosen before the app: the list shows it and the choice is stored', async () => {
    const { page } = await e2e.open();
    const gate = await holdApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const currency = page.getByRole('combobox', { name: 'Валюта', exact: true });
    await currency.selectOption('USDT');
    await expect.poll(() => gate.asked, { timeout: 10_000 }).toBe(true);
    gate.open();
    await hydrated(page);
    // Hydration set the list back to the server's choice; the held change made it again, through the app.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('selectedCurrency')), { timeout: 10_000 }).toBe('USDT');
    expect(await currency.inputValue()).toBe('USDT');
  });
});
