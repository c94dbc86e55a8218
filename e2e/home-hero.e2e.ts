import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { checkA11y, clientNavigate, hydrated, useE2E, visit, photograph, widthsFor } from './fixtures.ts';

// Issue 15 (15): a guest's home page opens with a compact welcome — what Подряд is, a search, popular categories and
// how the safe deal works — rendered by the server and kept as its HTML in the browser (no guest JavaScript).

const e2e = useE2E();

describe('the home page’s welcome', () => {
  it.each(widthsFor(375))('at %i px a guest sees what Подряд is, a search, categories and the safe deal', async (width) => {
    const phone = width < 500;
    const { page } = await e2e.open({ viewport: { width, height: phone ? 740 : 800 }, isMobile: phone });
    await visit(page, '/');
    const hero = page.getByRole('region', { name: /биржа фриланс-услуг/ });
    expect(await hero.isVisible()).toBe(true);
    expect(await hero.getByRole('search').count()).toBe(1);
    const categories = hero.getByRole('navigation', { name: 'Популярные категории' }).getByRole('link');
    expect(await categories.count()).toBeGreaterThanOrEqual(3);
    expect(await categories.first().getAttribute('href')).toMatch(/^\/services\/[a-z-]+$/);
    expect(await hero.getByRole('heading', { name: 'Как работает безопасная сделка' }).isVisible()).toBe(true);
    expect(await hero.locator('ol li').count()).toBe(3);
    // The server's HTML, kept as it is: React never rendered it (no fiber on its element), so no code of its own.
    const kept = page.locator('[data-deferred="hero"] .hero');
    expect(await kept.evaluate((el) => Object.keys(el).some((key) => key.startsWith('__reactFiber$')))).toBe(false);
    await checkA11y(page);
    await photograph(page, `/tmp/home-hero-${width}.png`);

    // Its search is a GET form to the catalogue.
    await hero.getByRole('searchbox').fill('логотип');
    await hero.getByRole('button', { name: 'Найти' }).click();
    await page.waitForURL((url) => url.pathname === '/services/all' && url.searchParams.get('q') === 'логотип');
    await hydrated(page);
    expect(await page.locator('.hero').count()).toBe(0);
  });

  it('is rendered by the browser on a client-side navigation back home, and not for a signed-in buyer', async () => {
    const { page } = await e2e.open();
    await visit(page, '/projects');
    await clientNavigate(page, '/');
    await expect.poll(() => page.locator('.hero').count()).toBe(1);

    const { token } = await e2e.user({ role: 'customer' });
    const buyer = await e2e.open({ token });
    await visit(buyer.page, '/');
    expect(await buyer.page.locator('.hero').count()).toBe(0);
    expect(await buyer.page.locator('.listing').count()).toBe(1);
  });
});

describe('a signed-in buyer’s home page (issue 15)', () => {
  it.each(widthsFor(375))('at %i px shows what they opened last and what they saved, rendered by the server', async (width) => {
    const phone = width < 500;
    const { user: seller } = await e2e.user({ role: 'seller' });
    const db = e2e.server.database.db;
    const stamp = `${width}-${Date.now().toString(36)}`;
    const viewed = await createService(db, seller.id, { title: `Просмотренная услуга ${stamp}`, category: 'design' });
    const saved = await createService(db, seller.id, { title: `Сохранённая услуга ${stamp}`, category: 'design' });
    const { token } = await e2e.user({ role: 'customer' });
    const { page } = await e2e.open({ token, viewport: { width, height: phone ? 740 : 800 }, isMobile: phone });

    // Nothing opened or saved yet: no rows, the listing as before.
    await visit(page, '/');
    expect(await page.locator('.personal-row').count()).toBe(0);

    await visit(page, `/services/design/${viewed.id}`);
    const favourite = await page.request.post(`${e2e.url}/api/favorites/toggle`, {
      headers: { authorization: `Bearer ${token}` },
      data: { id: saved.id, type: 'service' },
    });
    expect(favourite.status()).toBe(200);

    // The server's HTML already has both rows (no script needed to see them).
    const html = await (await page.request.get(`${e2e.url}/`)).text();
    expect(html).toContain('Вы недавно смотрели');
    expect(html).toContain(`Просмотренная услуга ${stamp}`);
    expect(html).toContain(`Сохранённая услуга ${stamp}`);

    await visit(page, '/');
    const recent = page.getByRole('region', { name: 'Вы недавно смотрели' });
    const savedRow = page.getByRole('region', { name: 'Избранное' });
    expect(await recent.getByText(`Просмотренная услуга ${stamp}`).isVisible()).toBe(true);
    expect(await savedRow.getByText(`Сохранённая услуга ${stamp}`).isVisible()).toBe(true);
    expect(await savedRow.getByRole('link', { name: 'Всё избранное' }).getAttribute('href')).toBe('/profile/saved');
    expect(await page.locator('.listing').count()).toBe(1);
    await checkA11y(page);
    await photograph(page, `/tmp/home-signed-in-${width}.png`);

    // Coming back to / in the browser, the rows are there again.
    await clientNavigate(page, '/projects');
    await clientNavigate(page, '/');
    await expect.poll(() => page.getByRole('region', { name: 'Вы недавно смотрели' }).count()).toBe(1);
  });
});
