import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { hydrated, useE2E } from './fixtures.ts';
import { JS_BUDGET_KIB, guestScripts, totalKib } from './js-budget.ts';

// Issue 11: the JavaScript a first-time guest downloads (gzip, every file the page fetches) stays under the budget on
// the home page, a service page and /projects. bench/js-budget.ts prints the same figures per file
// (docs/decisions/020).

describe('a first-time guest’s JavaScript', () => {
  const e2e = useE2E();

  it(`is at most ${JS_BUDGET_KIB} KiB gzip on /, a service page and /projects`, async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    const service = await createService(e2e.server.database.db, seller.id, { category: 'design' });
    const pages = ['/', `/services/design/${service.id}`, '/projects'];
    const sizes: Record<string, string> = {};
    for (const page of pages) {
      const scripts = await guestScripts(e2e.browser, e2e.url, page);
      expect(scripts.length, `${page}: scripts seen`).toBeGreaterThan(1);
      sizes[page] = totalKib(scripts).toFixed(1);
    }
    console.log('guest JavaScript, KiB gzip:', sizes);
    for (const page of pages) expect(Number(sizes[page]), page).toBeLessThanOrEqual(JS_BUDGET_KIB);
  });

  it('loads the filters panel and the search suggestions on first use, keeping what was typed', async () => {
    const { page } = await e2e.open();
    const fetched: string[] = [];
    page.on('request', (req) => fetched.push(new URL(req.url()).pathname));
    const deferredChunks = () => fetched.filter((path) => /\/assets\/(listing-filters|search-box)-/.test(path));
    await page.goto('/');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    // Hydrated without them: their server HTML is there, as it is.
    expect(deferredChunks()).toEqual([]);
    expect(await page.locator('[data-deferred="filters"] form[method="get"]').count()).toBe(1);
    expect(await page.locator('[data-deferred="search"] #site-search').count()).toBe(1);

    // The search box: the first keystrokes go into the server's field, the code comes, the text and focus stay and
    // the suggestions open.
    const box = page.getByRole('combobox', { name: 'Поиск услуг' });
    await box.click();
    await page.keyboard.type('лого');
    await expect.poll(() => fetched.some((path) => path.includes('/assets/search-box-')), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => box.inputValue()).toBe('лого');
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => box.getAttribute('aria-expanded'), { timeout: 10_000 }).toBe('true');
    await page.keyboard.press('Escape');

    // The filters: typed into the server's form, applied by React Router (no document load) once the code is there.
    const query = page.locator('#listing-filters input[type="search"]');
    await query.fill('дизайн');
    await expect.poll(() => fetched.some((path) => path.includes('/assets/listing-filters-')), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => query.inputValue()).toBe('дизайн');
    const documents = fetched.filter((path) => path === '/').length;
    await page.locator('#listing-filters').getByRole('button', { name: 'Применить' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'дизайн');
    await hydrated(page);
    expect(fetched.filter((path) => path === '/').length, 'no document load').toBe(documents);
  });
});
