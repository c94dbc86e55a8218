import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createService } from '../server/db/catalog-factories.ts';
import { services } from '../server/modules/services/schema.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { statementsDuring } from '../server/test/statements.ts';
import { apiCall as apiAs, DESKTOP_USER_AGENT, norm, useE2E, visit } from './fixtures.ts';

// A service page as a guest reads it: the service, its reviews and the seller's other public services, read in
// as few statements as they can be (issue 31: a page rendered on a cache miss waits for each of them).

const e2e = useE2E();

const apiCall = (token: string, method: string, url: string, body?: unknown) => apiAs(e2e.url, token, method, url, body);

describe('a service page', { timeout: 120_000 }, () => {
  it("shows the seller's other public services and a review, read in three statements", async () => {
    const seller = await e2e.user({ role: 'seller', roles: ['customer', 'seller'] });
    const customer = await e2e.user();
    const { db } = e2e.server.database;
    const service = await createService(db, seller.user.id, { title: 'Логотип для кофейни под ключ', price: 100_000, days: 3, popularity: 50 });
    const others: { id: string; title: string }[] = [];
    for (let i = 0; i < 5; i++) others.push(await createService(db, seller.user.id, { title: `Другая работа продавца ${i + 1}`, popularity: 100 - i }));
    await createService(db, seller.user.id, { title: 'Приостановленная услуга продавца', status: 'paused', popularity: 1_000 });

    const order = await apiCall(customer.token, 'POST', '/api/orders', { service_id: service.id });
    const orderId = order.result._id as string;
    await payOrderForTest(e2e.server.app, orderId);
    await apiCall(seller.token, 'POST', `/api/orders/${orderId}/deliver`, { message: 'Готово, проверьте.' });
    await apiCall(customer.token, 'POST', `/api/orders/${orderId}/accept`, {});
    await apiCall(customer.token, 'POST', `/api/orders/${orderId}/reviews`, { rating: 5, text: 'Логотип получился отличный, спасибо!' });
    await apiCall(seller.token, 'POST', `/api/orders/${orderId}/reviews`, { rating: 5 });

    const path = `/services/design/${service.id}`;
    const { page } = await e2e.open();
    expect(await visit(page, path)).toBe(200);
    const main = norm(await page.locator('main').innerText());
    expect(main).toContain('Логотип получился отличный, спасибо!');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Другие услуги продавца' }) });
    const titles = (await section.locator('.card-grid li').allInnerTexts()).map(norm);
    // The four most popular of the others: not this one, not the paused one.
    expect(titles.map((t) => others.findIndex((o) => t.includes(o.title)))).toEqual([0, 1, 2, 3]);

    // Rendered every time (a query nobody asked before misses the page cache): the service with its seller, the
    // seller's services, the reviews — their count is the page's length when it holds them all.
    const read = await statementsDuring(e2e.server.database.db, async () => {
      const res = await fetch(`${e2e.url}${path}?q=${Date.now()}`, { headers: { 'user-agent': DESKTOP_USER_AGENT } });
      expect(res.status).toBe(200);
      await res.text();
    });
    expect(read, read.join('\n\n')).toHaveLength(3);

    // The seller pauses one of the four: the page shows the fifth in its place.
    await db.update(services).set({ status: 'paused' }).where(eq(services.id, others[0]!.id));
    await visit(page, `${path}?after=pause`);
    const after = (await section.locator('.card-grid li').allInnerTexts()).map(norm);
    expect(after.map((t) => others.findIndex((o) => t.includes(o.title)))).toEqual([1, 2, 3, 4]);
  });
});
