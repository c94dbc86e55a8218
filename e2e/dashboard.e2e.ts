import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { users, type UserRow } from '../server/modules/users/schema.ts';
import { postTransfer } from '../server/modules/ledger/index.ts';
import { systemActor } from '../server/platform/actor.ts';
import { TURNSTILE_DUMMY_TOKEN } from '../server/lib/turnstile.ts';
import { formatRubles } from '../contract/money-format.ts';
import { dayOf } from '../contract/dashboard.ts';
import { DESKTOP_USER_AGENT, hydrated, newContext, pathOf, useE2E, visit, pageCheck, widthsFor, norm, shotsDir, device } from './fixtures.ts';

/** Rubles as the site writes them, its no-break spaces made plain like the texts `norm` reads. */
const rubles = (kopecks: number) => norm(formatRubles(kopecks));

// Issue 13's proof in Chromium: a customer brought by a referrer orders a seller's service, pays, and accepts the
// work. The seller's dashboard (/profile opens it) shows the order's earnings in its chart, in words and in the
// chart's table; the period switch redraws it (a year: 365 points, no transition); the referrer's /profile/referral
// shows the person and the reward, and copies the link. On a 375 px phone (at 1280 px too with E2E_WIDTHS=both, ADR 095), photographed into
// /tmp/dashboard-shots/. The charts library is fetched by the dashboard and never by the home page.

const e2e = useE2E();
const checkPage = pageCheck(shotsDir('dashboard'));

const POLL = { timeout: 20_000, interval: 250 };
/** uPlot's own class name: in its code, in no other script of ours. */
const UPLOT_MARKER = 'u-legend';

interface World {
  seller: UserRow;
  sellerToken: string;
  referrer: UserRow;
  referrerToken: string;
  earned: number;
  reward: number;
  orderNumber: number;
}

let n = 0;
/** A referrer, a customer registered with their code (the real registration), and an order completed through the real commands. */
async function completedOrder(price: number): Promise<World> {
  const { services } = e2e.server.app;
  const db = e2e.server.database.db;
  const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller', name: 'Алексей', surname: 'Смирнов' });
  const { user: referrer, token: referrerToken } = await e2e.user({ name: 'Ольга', surname: 'Соколова' });
  const service = await createService(db, seller.id, { category: 'design', price, days: 3, title: `Логотип для кофейни ${++n}` });
  const email = `brought_${Date.now().toString(36)}${n}@example.com`;
  await services.auth.register(
    {
      user_name: `brought_${Date.now().toString(36)}${n}`,
      name: 'Марина',
      surname: 'Кузнецова',
      email,
      password: 'a-good-password-1',
      repeat_password: 'a-good-password-1',
      role: 'customer',
      'cf-turnstile-response': TURNSTILE_DUMMY_TOKEN,
      referralCode: referrer.referralCode,
      personal_data_consent: true,
    },
    `10.77.0.${n}`,
  );
  const [customer] = await db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email)).returning();
  expect(customer!.referredBy).toBe(referrer.id);
  await services.platform.withTx(systemActor('e2e'), (ctx) =>
    postTransfer(ctx.tx, {
      kind: 'adjustment',
      key: `e2e-fund:${customer!.id}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -price },
        { account: { kind: 'available', userId: customer!.id }, amount: price },
      ],
    }),
  );
  const order = await services.orders.create(customer!, { service_id: service.id, package: null, extras: [] });
  await services.payments.pay(customer!, { order_id: order._id, method: 'balance' });
  await services.orders.deliver(seller, order._id, { message: 'Логотип готов: три варианта в чате.', files: [] });
  const done = await services.orders.accept(customer!, order._id);
  expect(done.status).toBe('completed');
  return {
    seller,
    sellerToken,
    referrer,
    referrerToken,
    earned: price - done.commission,
    reward: Math.round((price * 350) / 10_000),
    orderNumber: done.number,
  };
}

/** Scripts whose code has uPlot's marker, seen by the page from now on. */
function uplotScripts(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res) => {
    if (!res.url().endsWith('.js')) return;
    void res.text().then(
      (body) => body.includes(UPLOT_MARKER) && seen.push(new URL(res.url()).pathname),
      () => {},
    );
  });
  return seen;
}

describe('the dashboard and the referral page', () => {
  let world: World;
  beforeAll(async () => {
    world = await completedOrder(1_200_000);
  });

  it.each(widthsFor(375))("shows the seller's earnings in a chart and its table, and the referrer's reward (%i px)", async (width) => {
    const today = dayOf(new Date());
    const dayText = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${today}T00:00:00Z`));

    // The seller: /profile opens the dashboard of their active role.
    const s = await e2e.open({ token: world.sellerToken, ...device(width) });
    const charts = uplotScripts(s.page);
    await visit(s.page, '/profile');
    expect(pathOf(s.page)).toBe('/profile/dashboard');
    expect(norm(await s.page.getByTestId('dash-role').textContent())).toBe('Продавец');
    expect(norm(await s.page.getByTestId('dash-total-amount').textContent())).toBe(rubles(world.earned));
    const money = s.page.getByTestId('dash-chart-money');
    // The chart is drawn (uPlot's canvas), its caption says the amount in words.
    await expect.poll(() => money.locator('.uplot canvas').count(), POLL).toBeGreaterThan(0);
    expect(norm(await money.locator('figcaption').textContent())).toContain(`${rubles(world.earned)} заработано за 30 дней`);
    expect(await money.locator('.dash-chart__plot').getAttribute('class')).toContain('dash-chart__plot--animated');
    // Its table: today's row with the order's earnings.
    await money.getByText('Таблица').click();
    const row = money.locator('.dash-chart__table tbody tr');
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(norm(await row.textContent())).toBe(`${dayText}${rubles(world.earned)}`);
    expect(charts.length, 'the dashboard fetched the charts library').toBeGreaterThan(0);
    await checkPage(s.page, 'dashboard-seller');

    // A year: 365 points, drawn without a transition (SPEC §9); the earnings are still there.
    await s.page.getByRole('link', { name: 'Год' }).click();
    await s.page.waitForURL((u) => u.search === '?period=365');
    await hydrated(s.page);
    const yearPlot = s.page.getByTestId('dash-chart-money').locator('.dash-chart__plot');
    expect(await yearPlot.getAttribute('data-points')).toBe('365');
    expect(await yearPlot.getAttribute('class')).not.toContain('--animated');
    await expect.poll(() => s.page.getByTestId('dash-chart-money').locator('.uplot canvas').count(), POLL).toBeGreaterThan(0);
    expect(norm(await s.page.getByTestId('dash-total-amount').textContent())).toBe(rubles(world.earned));
    await checkPage(s.page, 'dashboard-seller-year');

    // The referrer: the person brought, the reward from the order, the link to share.
    const r = await e2e.open({ token: world.referrerToken, ...device(width) });
    await r.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });
    await visit(r.page, '/profile/referral');
    expect(norm(await r.page.getByTestId('referral-total').textContent())).toBe(rubles(world.reward));
    expect(norm(await r.page.getByTestId('referral-people').textContent())).toContain('Марина К.');
    expect(norm(await r.page.getByTestId('referral-people').textContent())).not.toContain('Кузнецова');
    const reward = norm(await r.page.getByTestId('referral-earnings').locator('tbody tr').first().textContent());
    expect(reward).toContain(`№${world.orderNumber}`);
    expect(reward).toContain('3,5 %');
    expect(reward).toContain(`+${rubles(world.reward)}`);
    expect(await r.page.getByTestId('referral-link').inputValue()).toBe(`${e2e.url}/?referralCode=${world.referrer.referralCode}`);
    await r.page.getByRole('button', { name: 'Скопировать' }).click();
    await expect.poll(() => r.page.locator('.toast').first().textContent(), POLL).toContain('Ссылка скопирована');
    expect(await r.page.evaluate(() => navigator.clipboard.readText())).toBe(`${e2e.url}/?referralCode=${world.referrer.referralCode}`);
    await checkPage(r.page, 'referral');
    // The referrer bought nothing as a customer: their own dashboard is empty, and says so.
    await visit(r.page, '/profile/dashboard');
    expect(norm(await r.page.getByTestId('dash-role').textContent())).toBe('Покупатель');
    expect(norm(await r.page.getByTestId('dash-chart-money').locator('figcaption').textContent())).toContain('Расходов за 30 дней нет.');
  });

  it('never makes the home page fetch the charts library', async () => {
    const context = await newContext(e2e.browser, { baseURL: e2e.url, userAgent: DESKTOP_USER_AGENT });
    try {
      const page = await context.newPage();
      const charts = uplotScripts(page);
      const scripts: string[] = [];
      page.on('response', (res) => void (res.url().endsWith('.js') && scripts.push(new URL(res.url()).pathname)));
      await page.goto('/', { waitUntil: 'networkidle' });
      await hydrated(page);
      expect(scripts.length).toBeGreaterThan(1);
      expect(charts).toEqual([]);
      expect(scripts.filter((s) => /uplot/i.test(s))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
