import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { useE2E } from './fixtures.ts';
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
});
