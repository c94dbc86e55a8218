import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { DESKTOP_USER_AGENT, hydrated, useE2E, visit, widthsFor } from './fixtures.ts';

// Issue 15 (12): at 1280×800 the catalogue's filters reach below the fold; after «Применить» the results come into
// view, with scripts (the panel scrolls to them) and without (the form's action ends with #listing-results).

const e2e = useE2E();
const word = (n: number) => `квоккадизайн${n}x${Date.now() % 100_000}`;

/** Where the results' top is, relative to the viewport's height: 0 ≤ top < height means in view. */
const resultsTop = (page: Page) =>
  page.evaluate(() => ({ top: document.getElementById('listing-results')!.getBoundingClientRect().top, height: innerHeight }));

const inView = async (page: Page) => {
  const { top, height } = await resultsTop(page);
  return top >= 0 && top < height / 2;
};

describe('applying the catalogue filters', () => {
  it.each(widthsFor(375))('at %i px brings the results into view', async (width) => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    const q = word(width);
    await createService(e2e.server.database.db, seller.id, { title: `Логотип ${q}`, category: 'design' });
    const phone = width < 500;
    const { page } = await e2e.open({ viewport: { width, height: phone ? 740 : 800 }, isMobile: phone });
    await visit(page, '/services/all');
    const panel = page.locator('#listing-filters');
    if (phone) await page.locator('.listing__filters-toggle').click();
    const apply = panel.getByRole('button', { name: 'Применить' });
    await apply.scrollIntoViewIfNeeded();
    if (!phone) expect((await resultsTop(page)).top, 'the results are out of view before').toBeLessThan(0);
    await panel.locator('input[type="search"]').fill(q);
    await apply.click();
    await page.waitForURL((url) => url.searchParams.get('q') === q);
    await hydrated(page);
    await expect.poll(() => page.locator('.listing__count').textContent()).toContain('1');
    await expect.poll(() => inView(page)).toBe(true);
  });

  it('without JavaScript, at 1280 px, the results are in view after the page loads', async () => {
    const context = await e2e.browser.newContext({
      javaScriptEnabled: false,
      baseURL: e2e.url,
      userAgent: DESKTOP_USER_AGENT,
      viewport: { width: 1280, height: 800 },
    });
    try {
      const page = await context.newPage();
      await page.goto('/services/all');
      const panel = page.locator('#listing-filters');
      const apply = panel.getByRole('button', { name: 'Применить' });
      await apply.scrollIntoViewIfNeeded();
      expect((await resultsTop(page)).top).toBeLessThan(0);
      const q = word(0);
      await panel.locator('input[type="search"]').fill(q);
      await apply.click();
      await page.waitForURL((url) => url.searchParams.get('q') === q && url.hash === '#listing-results');
      await page.waitForLoadState('load');
      expect(await inView(page)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
