import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createProject, createService } from '../server/db/catalog-factories.ts';
import { unique } from '../server/test/api.ts';
import { payOrderForTest } from '../server/modules/orders/testing.ts';
import { hydrated, pathOf, useE2E, visit, pageCheck, widthsFor, device, norm, shotsDir } from './fixtures.ts';

// Issue 14's appeals in Chromium: a member complains about a service from its page («Пожаловаться», a plain link
// that a guest follows through the sign-in), the appeals tab names the service in its prefilled form; an admin
// takes the appeal and answers it on /admin/appeals; the member sees the answer on the appeals tab and its
// notification. A member's complaints on a 375 px phone, the admin's answer at 1280 px (both screens with
// E2E_WIDTHS=both, ADR 095); screenshots in /tmp/appeals-shots/.

const e2e = useE2E();

const checkPage = pageCheck(shotsDir('appeals'), { settle: true });

const POLL = { timeout: 30_000, interval: 250 };

const COMPLAINT = 'Продавец предлагает оплатить заказ переводом на карту, минуя площадку.';
const ANSWER = 'Спасибо! Мы проверили переписку и заблокировали продавца.';

describe('appeals', { timeout: 150_000 }, () => {
  it.each(widthsFor(375))('«Пожаловаться» on a project page, a profile and an order card, not on one’s own (%i px)', async (width) => {
    const db = e2e.server.database.db;
    const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller' });
    const { user: customer, token: customerToken } = await e2e.user({ role: 'customer' });
    const project = await createProject(db, customer.id, { category: 'development' });
    const service = await createService(db, seller.id, { title: `Логотип ${unique()}`, category: 'design' });
    const { orders } = e2e.server.app.services;
    const draft = await orders.create(customer, { service_id: service.id, package: null, extras: [] });
    // Paid: the order reaches its seller, with its chat (ADR 042).
    await payOrderForTest(e2e.server.app, draft._id);
    const order = await orders.get(customer, draft._id);
    const hrefOf = async (page: Page) => page.getByRole('link', { name: 'Пожаловаться' }).first().getAttribute('href');
    const countOf = (page: Page) => page.getByRole('link', { name: 'Пожаловаться' }).count();

    const s = await e2e.open({ token: sellerToken, ...device(width) });
    await visit(s.page, `/projects/development/${project.id}`);
    await hydrated(s.page);
    expect(await hrefOf(s.page)).toBe(`/profile/disputes?tab=appeals&subject=project&object=${project.id}`);
    await checkPage(s.page, 'project-page');
    await visit(s.page, `/user/${customer.id}`);
    await hydrated(s.page);
    expect(await hrefOf(s.page)).toBe(`/profile/disputes?tab=appeals&subject=user&object=${customer.id}`);
    // The order card of the order's chat, for its party.
    await visit(s.page, `/profile/messages?tab=orders&chat=${order.chat_id}`);
    await hydrated(s.page);
    const card = s.page.getByTestId('order-card');
    // On a phone the card folds its less frequent steps under «Подробнее» (ADR 043).
    if (width < 768) await card.getByRole('button', { name: 'Подробнее' }).click();
    await card.getByRole('link', { name: 'Пожаловаться' }).waitFor({ timeout: 30_000 });
    expect(await card.getByRole('link', { name: 'Пожаловаться' }).getAttribute('href')).toBe(`/profile/disputes?tab=appeals&subject=order&object=${order._id}`);
    await checkPage(s.page, 'order-card');

    // The customer's own project and profile carry none.
    const c = await e2e.open({ token: customerToken, ...device(width) });
    await visit(c.page, `/projects/development/${project.id}`);
    await hydrated(c.page);
    expect(await countOf(c.page)).toBe(0);
    await visit(c.page, `/user/${customer.id}`);
    await hydrated(c.page);
    expect(await countOf(c.page)).toBe(0);
  });

  it('a guest following «Пожаловаться» is sent to sign in and back to the prefilled form', async () => {
    const { user: seller } = await e2e.user({ role: 'seller' });
    const service = await createService(e2e.server.database.db, seller.id, { title: `Логотип ${unique()}`, category: 'design' });
    const { page } = await e2e.open();
    await visit(page, `/services/design/${service.id}`);
    await checkPage(page, 'service-page-guest');
    const report = page.getByRole('link', { name: 'Пожаловаться' });
    expect(await report.getAttribute('href')).toBe(`/profile/disputes?tab=appeals&subject=service&object=${service.id}`);
    await report.click();
    await expect.poll(() => pathOf(page), POLL).toMatch(/^\/login\?from=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('from') ?? '')).toBe(`/profile/disputes?tab=appeals&subject=service&object=${service.id}`);
  });

  it.each(widthsFor(1280))('a complaint about a service, taken and answered by an admin (%i px)', async (width) => {
    const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller', name: 'Сергей', surname: 'Продавцов' });
    const { user: customer, token: customerToken } = await e2e.user({ name: 'Анна', surname: 'Жалобина' });
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const title = `Логотип для кофейни ${unique()}`;
    const service = await createService(e2e.server.database.db, seller.id, { title, category: 'design' });

    // The seller sees no «Пожаловаться» on their own service.
    const s = await e2e.open({ token: sellerToken, ...device(width) });
    await visit(s.page, `/services/design/${service.id}`);
    await hydrated(s.page);
    expect(await s.page.getByRole('link', { name: 'Пожаловаться' }).count()).toBe(0);

    // 1. The customer complains from the service page: the appeals tab opens with the form naming the service.
    const a = await e2e.open({ token: customerToken, ...device(width) });
    await visit(a.page, `/services/design/${service.id}`);
    await hydrated(a.page);
    await a.page.getByRole('link', { name: 'Пожаловаться' }).click();
    await expect.poll(() => pathOf(a.page), POLL).toBe(`/profile/disputes?tab=appeals&subject=service&object=${service.id}`);
    await hydrated(a.page);
    const form = a.page.getByTestId('appeal-form');
    await expect.poll(async () => norm(await a.page.getByTestId('appeal-subject').textContent()), POLL).toBe(`Жалоба на услугу «${title}»`);
    await form.getByRole('textbox', { name: 'Суть обращения' }).fill(COMPLAINT);
    await checkPage(a.page, 'appeal-form');
    await form.getByRole('button', { name: 'Отправить' }).click();
    const mine = a.page.getByTestId('appeal');
    await expect.poll(() => mine.count(), POLL).toBe(1);
    await expect.poll(() => a.page.getByTestId('appeal-form').count(), POLL).toBe(0);
    expect(await mine.first().getAttribute('data-status')).toBe('new');
    expect(norm(await mine.first().textContent())).toContain(COMPLAINT);
    // The form's subject leaves the address (a navigation: after the list shows the appeal).
    await expect.poll(() => pathOf(a.page), POLL).toBe('/profile/disputes?tab=appeals');
    await checkPage(a.page, 'my-appeals-new');

    // 2. An admin finds it in the queue of new appeals, takes it and answers it.
    const admin = await e2e.open({ token: adminToken, ...device(width) });
    await visit(admin.page, `/admin/appeals?q=${encodeURIComponent(title)}`);
    await hydrated(admin.page);
    const queued = admin.page.getByTestId('appeal');
    await expect.poll(() => queued.count(), POLL).toBe(1);
    expect(norm(await queued.first().textContent())).toContain(COMPLAINT);
    // The object is linked: to the service in the admin area.
    expect(await queued.first().getByRole('link', { name: title }).getAttribute('href')).toBe(`/admin/services/${service.id}/edit`);
    await checkPage(admin.page, 'admin-queue');
    await queued.first().getByRole('button', { name: 'Взять в работу' }).click();
    await expect.poll(() => queued.first().getAttribute('data-status'), POLL).toBe('in_progress');
    expect(norm(await queued.first().textContent())).toContain('Жалобина');
    await queued.first().getByRole('textbox', { name: 'Ответ автору' }).fill(ANSWER);
    await queued.first().getByRole('button', { name: 'Ответить и закрыть' }).click();
    await expect.poll(() => queued.first().getAttribute('data-status'), POLL).toBe('closed');
    expect(norm(await queued.first().getByTestId('appeal-answer').textContent())).toContain(ANSWER);
    await checkPage(admin.page, 'admin-answered');
    // No longer among the new ones.
    await visit(admin.page, `/admin/appeals?q=${encodeURIComponent(title)}`);
    await hydrated(admin.page);
    await expect.poll(() => admin.page.getByText('Обращений не нашлось.').count(), POLL).toBe(1);

    // 3. The customer sees the answer on the appeals tab, and its notification.
    await visit(a.page, '/profile/disputes?tab=appeals');
    await hydrated(a.page);
    await expect.poll(() => a.page.getByTestId('appeal').first().getAttribute('data-status'), POLL).toBe('closed');
    expect(norm(await a.page.getByTestId('appeal-answer').first().textContent())).toContain(ANSWER);
    await checkPage(a.page, 'my-appeals-answered');
    await visit(a.page, '/profile/notifications');
    await hydrated(a.page);
    const notice = a.page.getByTestId('notifications-list').getByText(`Администрация ответила на ваше обращение`, { exact: false });
    await expect.poll(() => notice.count(), POLL).toBe(1);
    expect(norm(await notice.first().textContent())).toContain(title);
    await notice.first().click();
    await expect.poll(() => pathOf(a.page), POLL).toBe('/profile/disputes?tab=appeals');
    expect(customer.id).toBeTruthy();
  });
});
