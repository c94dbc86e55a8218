import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { unique } from '../server/test/api.ts';
import { hydrated, useE2E, visit, pageCheck, widthsFor, device, norm, shotsDir } from './fixtures.ts';

// Issue 13's reviews in Chromium (ADR 029): an order completes (made through the app's commands), the customer
// reviews it from the order card in the order's chat, the seller sees nothing of it yet and reviews it from
// /profile/reviews («Ждут вашего отзыва»), which publishes both; the seller answers once; the service page shows
// the review with its answer, the rating with its count and the JSON-LD AggregateRating; an admin removes it. On a
// 375 px phone (at 1280 px too with E2E_WIDTHS=both, ADR 095); screenshots in /tmp/reviews-shots/.

const e2e = useE2E();

const checkPage = pageCheck(shotsDir('reviews'));

const POLL = { timeout: 30_000, interval: 250 };

const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());

const CUSTOMER_TEXT = 'Логотип получился отличный, всё сдано раньше срока.';
const ANSWER = 'Спасибо! Обращайтесь ещё.';

describe('reviews', { timeout: 150_000 }, () => {
  it.each(widthsFor(375))('double-blind reviews of a completed order, an answer, the service page (%i px)', async (width) => {
    const { services: app } = e2e.server.app;
    const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Отзывов' });
    const { user: customer, token: customerToken } = await e2e.user({ name: 'Анна', surname: 'Заказова' });
    const title = `Логотип для кофейни ${unique()}`;
    const service = await createService(e2e.server.database.db, seller.id, { title, category: 'design', price: 150_000, days: 3, revisions: 1 });

    // The order completes through the app's own commands: ordered, paid, delivered, accepted.
    const order = await app.orders.create(customer, { service_id: service.id, package: null, extras: [] });
    await payOrderForTest(e2e.server.app, order._id);
    await app.orders.deliver(seller, order._id, { message: 'Логотип готов, файлы в чате.', files: [] });
    await app.orders.accept(customer, order._id);

    const a = await e2e.open({ token: customerToken, ...device(width) });
    const b = await e2e.open({ token: sellerToken, ...device(width) });

    // 1. The customer reviews from the order card of the order's chat.
    // The order's chat opened when it was paid (ADR 042).
    const { chat_id: chatId } = await app.orders.get(customer, order._id);
    await visit(a.page, `/profile/messages?tab=orders&chat=${chatId}`);
    await hydrated(a.page);
    const leave = a.page.getByTestId('order-card').getByRole('button', { name: 'Оставить отзыв' });
    await leave.waitFor({ timeout: 30_000 });
    await leave.click();
    const dialog = a.page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /^5 — Отлично/ }).check({ force: true });
    await dialog.getByRole('textbox', { name: 'Отзыв' }).fill(CUSTOMER_TEXT);
    await checkPage(a.page, 'order-card-review-form');
    await dialog.getByRole('button', { name: 'Оставить отзыв' }).click();
    await expect.poll(() => a.page.getByRole('dialog').count(), POLL).toBe(0);
    await expect.poll(() => a.page.getByTestId('order-card').getByRole('button', { name: 'Оставить отзыв' }).count(), POLL).toBe(0);

    // Hidden: the customer's own list says so; the seller sees no review, only that the order waits for theirs.
    await visit(a.page, '/profile/reviews?box=given');
    await hydrated(a.page);
    await expect.poll(() => a.page.getByTestId('review-hidden').count(), POLL).toBe(1);
    await checkPage(a.page, 'customer-given-hidden');

    await visit(b.page, '/profile/reviews');
    await hydrated(b.page);
    const pending = b.page.getByTestId('pending-review');
    await pending.first().waitFor({ timeout: 30_000 });
    expect(norm(await pending.first().textContent())).toContain('другая сторона уже оставила отзыв');
    expect(await b.page.getByTestId('review').count()).toBe(0);
    await checkPage(b.page, 'seller-pending');

    // 2. The seller reviews (the text is optional for the seller): both are published at once.
    await pending.first().getByRole('button', { name: 'Оставить отзыв' }).click();
    await pending.first().getByRole('radio', { name: /^4 — Хорошо/ }).check({ force: true });
    await pending.first().getByRole('button', { name: 'Оставить отзыв' }).click();
    await expect.poll(() => b.page.getByTestId('pending-review').count(), POLL).toBe(0);
    const received = b.page.getByTestId('review');
    await expect.poll(() => received.count(), POLL).toBe(1);
    expect(norm(await received.first().textContent())).toContain(CUSTOMER_TEXT);

    // 3. The seller answers, once: the form goes, the answer shows.
    await received.first().getByRole('button', { name: 'Ответить' }).click();
    await received.first().getByRole('textbox').fill(ANSWER);
    await checkPage(b.page, 'seller-answer-form');
    await received.first().getByRole('button', { name: 'Опубликовать ответ' }).click();
    await expect.poll(async () => norm(await received.first().locator('.review__answer').textContent()), POLL).toContain(ANSWER);
    expect(await received.first().getByRole('button', { name: 'Ответить' }).count()).toBe(0);
    await checkPage(b.page, 'seller-received-answered');

    // The customer sees the seller's review of them.
    await visit(a.page, '/profile/reviews');
    await hydrated(a.page);
    await expect.poll(() => a.page.getByTestId('review').count(), POLL).toBe(1);
    expect(await textOf(a.page, '[data-testid="review"]')).toContain('Исполнитель');

    // 4. The service page: the rating with its count, the review and its answer.
    await visit(a.page, `/services/design/${service.id}`);
    await hydrated(a.page);
    expect(await textOf(a.page, '.detail__facts .rating')).toMatch(/5,0 ?\(1 отзыв\)/);
    const section = a.page.locator('#reviews');
    expect(norm(await section.textContent())).toContain(CUSTOMER_TEXT);
    expect(norm(await section.textContent())).toContain(ANSWER);
    expect(norm(await section.locator('h2').textContent())).toContain('1 отзыв');
    await section.scrollIntoViewIfNeeded();
    await checkPage(a.page, 'service-page-reviews');

    // A guest's page carries the AggregateRating.
    const html = await (await fetch(`${e2e.url}/services/design/${service.id}`)).text();
    const ld = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([^<]+)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    const product = ld.find((d) => d['@type'] === 'Product') as { aggregateRating?: { ratingValue: string; reviewCount: number } } | undefined;
    expect(product?.aggregateRating).toMatchObject({ ratingValue: '5.0', reviewCount: 1 });

    // The seller's public page shows it too.
    await visit(b.page, `/user/${seller.id}`);
    await hydrated(b.page);
    expect(norm(await b.page.locator('#reviews').textContent())).toContain(CUSTOMER_TEXT);
    await checkPage(b.page, 'user-page-reviews');

    // 5. An admin removes the review from the person's admin page (audited, ADR 029): it leaves the public pages
    // and the rating.
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const admin = await e2e.open({ token: adminToken, ...device(width) });
    await visit(admin.page, `/admin/users/${seller.id}`);
    await hydrated(admin.page);
    const listed = admin.page.getByTestId('review');
    await expect.poll(() => listed.count(), POLL).toBe(1);
    expect(norm(await listed.first().textContent())).toContain(CUSTOMER_TEXT);
    await checkPage(admin.page, 'admin-user-reviews');
    admin.page.once('dialog', (dialog) => void dialog.accept());
    await listed.first().getByRole('button', { name: 'Удалить отзыв' }).click();
    await expect.poll(() => admin.page.getByText('Опубликованных отзывов нет.').count(), POLL).toBe(1);
    const left = (await (await fetch(`${e2e.url}/api/services/${service.id}/reviews`)).json()) as { result: unknown[] };
    expect(left.result).toEqual([]);
    const profile = (await (await fetch(`${e2e.url}/api/users/${seller.id}`)).json()) as { result: { reviews_count: number } };
    expect(profile.result.reviews_count).toBe(0);
  });
});
