import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { fakeProvidersEnv, holdRates } from '../server/test/payment-fakes.ts';
import { startFakeYookassa } from '../server/modules/payments/providers/yookassa/fake.ts';
import { startFakeBtcpay } from '../server/modules/payments/providers/btcpay/fake.ts';
import { formatCurrency, formatRubles } from '../contract/money-format.ts';
import { PAYMENT_MESSAGES } from '../contract/payment-constants.ts';
import { apiCall, device, hydrated, norm, pageCheck, shotsDir, useE2E, visit, widthsFor, type Width, photograph } from './fixtures.ts';

// Issue 27 in Chromium: the order's payment page against the real adapters (ЮKassa for the card, BTCPay Server for
// USDT and BTC), each talking to its local fake over HTTP, with the sandbox off so that nothing can fall back to it.
// The browser leaves for the fake's own page (ЮKassa's confirmation, BTCPay's checkout) and comes back to the return
// URL the adapter gave; the money arrives by the fakes' webhooks. Photographed into /tmp/pay-shots/.

const yookassa = await startFakeYookassa();
const btcpay = await startFakeBtcpay();

const e2e = useE2E({
  PAYMENTS_SANDBOX: 'false',
  ...fakeProvidersEnv({ yookassa, btcpay }),
});

// 1 BTC = 9 000 000 ₽, 1 USDT = 90 ₽.
const BTC_RATE = 9_000_000;
const USDT_RATE = 90;
beforeAll(async () => {
  yookassa.webhookUrl = `${e2e.url}/api/payments/webhooks/yookassa`;
  btcpay.webhookUrl = `${e2e.url}/api/payments/webhooks/btcpay`;
  await holdRates(e2e.server.database.db, e2e.server.app, { USDT: USDT_RATE, BTC: BTC_RATE });
});
afterAll(async () => {
  await Promise.all([yookassa.close(), btcpay.close()]);
});

const SHOTS = shotsDir('pay');
const pageShot = pageCheck(SHOTS, { settle: true });
/** The page checked and photographed from its top (a full-page shot of a scrolled page draws the fixed header mid-page). */
async function checkPage(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await pageShot(page, name);
}

/** The fakes' pages are bare HTML without an icon: Chromium's request for /favicon.ico there gets their 404. */
const allowFakeIcons = () =>
  e2e.allowConsoleErrors(...[yookassa.url, btcpay.url].map((origin) => new RegExp(`status of 404 .*\\[${origin}/favicon\\.ico\\]$`)));
const POLL = { timeout: 30_000, interval: 250 };

/** Rubles as the site writes them, its no-break spaces made plain like the texts `norm` reads. */
const rubles = (kopecks: number) => norm(formatRubles(kopecks));
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());
const mainText = (page: Page) => textOf(page, 'main');
const alerts = (page: Page) => page.locator('main [role="alert"]').allTextContents().then((t) => t.map(norm).join(' | '));
/** What the payment panel says in a notice (money kept on the balance). */
const notices = (page: Page) => page.locator('.pay > [role="status"]').allTextContents().then((t) => t.map(norm).join(' | '));
const pathOfUrl = (url: string) => new URL(url).pathname;

let orderCount = 0;

/** A seller's service and the customer's order of it at `price` kopecks, made through the API. */
async function newOrder(price: number, width: Width) {
  const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Продавцов' });
  const { user: customer, token: customerToken } = await e2e.user({ name: 'Анна', surname: 'Заказова' });
  const title = `Логотип для пекарни №${++orderCount} (${width})`;
  const service = await createService(e2e.server.database.db, seller.id, { title, price, days: 3 });
  const order = await apiCall(e2e.url, customerToken, 'POST', '/api/orders', { service_id: service.id });
  return { seller, sellerToken, customer, customerToken, title, orderId: order.result._id as string };
}

/** The customer's browser on the order's payment page. */
async function payPage(token: string, orderId: string, width: Width) {
  const session = await e2e.open({ token, ...device(width) });
  expect(await visit(session.page, `/payments/${orderId}`)).toBe(200);
  return session.page;
}

/** Back at the app's return URL: /payments/<order>?payment=<our payment's id>, hydrated. */
async function backAtReturnUrl(page: Page, orderId: string) {
  await page.waitForURL((u) => u.origin === e2e.url && u.pathname === `/payments/${orderId}` && u.searchParams.has('payment'));
  await hydrated(page);
  return new URL(page.url()).searchParams.get('payment')!;
}

/** Card: «Оплатить» on the payment page takes the browser to the fake ЮKassa's confirmation page. */
async function toYookassa(page: Page, amount: string) {
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: `Оплатить ${amount}` }).click();
  await page.waitForURL((u) => u.origin === yookassa.url && u.pathname.startsWith('/checkout/'));
  const paymentId = pathOfUrl(page.url()).split('/').pop()!;
  expect(norm(await page.locator('h1').textContent())).toBe(`Оплата ${yookassa.payments.get(paymentId)!.amount.value} ₽`);
  return paymentId;
}

/** Crypto: a quote, then «Оплатить <amount>» takes the browser to the fake BTCPay's checkout page of the invoice. */
async function toBtcpay(page: Page, method: 'btc' | 'usdt', price: number, width: Width) {
  const currency = method === 'btc' ? 'BTC' : 'USDT';
  const expected = shown(method, price);
  await page.getByRole('radio', { name: method === 'btc' ? /Bitcoin/ : /USDT/ }).check();
  await page.getByRole('button', { name: `Рассчитать сумму в ${currency}` }).click();
  await expect.poll(() => textOf(page, '.pay-quote__amount'), POLL).toBe(`К оплате: ${expected}`);
  await checkPage(page, `${method}-quote`);
  await page.getByRole('button', { name: `Оплатить ${expected}` }).click();
  await page.waitForURL((u) => u.origin === btcpay.url && u.pathname.startsWith('/i/'));
  const invoiceId = pathOfUrl(page.url()).split('/').pop()!;
  const invoice = btcpay.store.invoices.get(invoiceId)!;
  expect(invoice.currency).toBe(currency);
  expect(invoice.amount).toBe(dueOf(method, price));
  await photograph(page, path.join(SHOTS, `${method}-btcpay-checkout-${width}.png`));
  return { invoice, returnUrl: String(invoice.checkout.redirectURL) };
}

/** The amount due: BTC at 9 000 000 ₽ with its 1,5 % fee in satoshi, rounded up to the 10 satoshi the pages show;
 * USDT at 90 ₽ with 1 %, in cents rounded up. */
const dueOf = (method: 'btc' | 'usdt', price: number) =>
  method === 'btc' ? Math.ceil((price * 1.015 * 100_000) / BTC_RATE) * 10 : Math.ceil((price * 1.01) / USDT_RATE);
const shown = (method: 'btc' | 'usdt', price: number) => norm(formatCurrency(dueOf(method, price), method === 'btc' ? 'BTC' : 'USDT'));

describe('the payment rails', { timeout: 120_000 }, () => {
  it.each(widthsFor(375))('a card through ЮKassa: paid on its page, back to the order paid; declined, then paid (%i px)', async (width) => {
    const price = 200_000;
    allowFakeIcons();
    const { orderId, title, customerToken, sellerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    await checkPage(page, 'card-pay');

    // «Отказаться» on ЮKassa's page: back on the return URL, the payment is declined and the form is there again.
    const declinedRef = await toYookassa(page, rubles(price));
    await photograph(page, path.join(SHOTS, `card-yookassa-${width}.png`));
    await page.getByRole('button', { name: 'Отказаться' }).click();
    const declined = await backAtReturnUrl(page, orderId);
    expect(yookassa.payments.get(declinedRef)!.status).toBe('canceled');
    await expect.poll(() => alerts(page), POLL).toBe(`${PAYMENT_MESSAGES.declined}. Попробуйте ещё раз или выберите другой способ.`);
    await checkPage(page, 'card-declined');

    // The customer tries again: a new payment at ЮKassa, paid this time.
    const paidRef = await toYookassa(page, rubles(price));
    expect(paidRef).not.toBe(declinedRef);
    expect(yookassa.payments.get(paidRef)!.amount).toEqual({ value: (price / 100).toFixed(2), currency: 'RUB' });
    await page.getByRole('button', { name: 'Оплатить' }).click();
    const paid = await backAtReturnUrl(page, orderId);
    expect(paid).not.toBe(declined);
    expect(yookassa.payments.get(paidRef)!.status).toBe('succeeded');
    await expect.poll(() => mainText(page), POLL).toContain('Заказ оплачен');
    expect(await alerts(page)).toBe('');
    await checkPage(page, 'card-paid');

    // The seller finds it in progress among their sales.
    const seller = await e2e.open({ token: sellerToken, ...device(width) });
    await visit(seller.page, '/profile/orders?role=selling');
    const row = seller.page.locator('.order-row', { hasText: title });
    await expect.poll(() => row.count(), POLL).toBe(1);
    expect(norm(await row.textContent())).toMatch(/В работе/);
  });

  it.each(widthsFor(375))('BTC through BTCPay: quoted, paid in full and confirmed, back to the order paid (%i px)', async (width) => {
    allowFakeIcons();
    const price = 500_000;
    const { orderId, customerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    const { invoice, returnUrl } = await toBtcpay(page, 'btc', price, width);
    expect(returnUrl).toMatch(new RegExp(`^${e2e.url}/payments/${orderId}\\?payment=[0-9a-f-]{36}$`));

    await btcpay.pay(invoice.id, invoice.amount, { confirmed: true });
    expect(btcpay.store.invoices.get(invoice.id)!.status).toBe('Settled');
    await page.goto(returnUrl);
    await backAtReturnUrl(page, orderId);
    await expect.poll(() => mainText(page), POLL).toContain('Заказ оплачен');
    await checkPage(page, 'btc-paid');
  });

  it('USDT through BTCPay likewise (1280 px)', async () => {
    allowFakeIcons();
    const width = 1280;
    const price = 500_000;
    const { orderId, customerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    const { invoice, returnUrl } = await toBtcpay(page, 'usdt', price, width);
    await btcpay.pay(invoice.id, invoice.amount, { confirmed: true });
    await page.goto(returnUrl);
    await backAtReturnUrl(page, orderId);
    await expect.poll(() => mainText(page), POLL).toContain('Заказ оплачен');
    await checkPage(page, 'usdt-paid');
  });

  it.each(widthsFor(375))('an underpaid BTC invoice that expires: what arrived is on the balance, and the page says so (%i px)', async (width) => {
    allowFakeIcons();
    const price = 500_000;
    const { orderId, customerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    const { invoice, returnUrl } = await toBtcpay(page, 'btc', price, width);

    // Half arrives and confirms; the customer comes back while the invoice still waits for the rest.
    const half = Math.floor(invoice.amount / 2);
    await btcpay.pay(invoice.id, half, { confirmed: true });
    await page.goto(returnUrl);
    await backAtReturnUrl(page, orderId);
    await expect.poll(() => mainText(page), POLL).toContain('Платёж ждёт подтверждения');
    await checkPage(page, 'underpaid-waiting');

    // The invoice expires: the page (without a reload) says what became of the money, as a notice (no error), with
    // what the balance holds now, and offers the ways to pay again.
    await btcpay.expire(invoice.id);
    const credited = Math.floor((half * price) / invoice.amount);
    await expect
      .poll(() => notices(page), POLL)
      .toBe(`${PAYMENT_MESSAGES.underpaid}. На балансе сейчас ${rubles(credited)} Оплатите заказ ещё раз или выберите другой способ.`);
    expect(await alerts(page)).toBe('');
    expect(await mainText(page)).not.toContain('Заказ оплачен');
    expect(norm(await page.locator('.pay-method', { hasText: 'Баланс' }).textContent())).toContain(`на балансе ${rubles(credited)}`);
    await checkPage(page, 'underpaid-credited');

    // The finance page: the credited amount is available, and its entry is listed.
    await visit(page, '/profile/finance');
    expect(await textOf(page, '[data-testid="balance-available"]')).toBe(rubles(credited));
    const entry = norm(await page.locator('.fin-entries tbody tr').first().textContent());
    expect(entry).toContain(`+${rubles(credited)}`);
    // Under ЮKassa's safe deal the card takes no top-ups (ADR 062): only the crypto methods are offered.
    const topUp = page.getByRole('form', { name: 'Пополнить баланс' });
    expect(await topUp.getByLabel('Способ пополнения').locator('option').allTextContents()).toEqual(['USDT (TRC-20)', 'Bitcoin']);
    await checkPage(page, 'underpaid-finance');
  });

  it.each(widthsFor(375))('ЮKassa down: the page says the payment service does not answer, and the next try works (%i px)', async (width) => {
    allowFakeIcons();
    e2e.allowConsoleErrors(new RegExp(`status of 503 .*\\[${e2e.url}/api/payments/pay\\]$`));
    const price = 150_000;
    const { orderId, customerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    await page.getByRole('radio', { name: /Банковская карта/ }).check();
    const before = yookassa.requests.length;
    yookassa.failNext(3, 'status500');
    await page.getByRole('button', { name: `Оплатить ${rubles(price)}` }).click();
    await expect.poll(() => alerts(page), POLL).toBe(PAYMENT_MESSAGES.providerUnavailable);
    expect(pathOfUrl(page.url())).toBe(`/payments/${orderId}`);
    await checkPage(page, 'card-provider-down');

    // The second click resumes the same attempt: one deal and one payment at ЮKassa, each under a single key.
    const ref = await toYookassa(page, rubles(price));
    const posted = yookassa.requests.slice(before).filter((r) => r.method === 'POST');
    expect(new Set(posted.filter((r) => r.path === '/v3/deals').map((r) => r.key)).size).toBe(1);
    expect(new Set(posted.filter((r) => r.path === '/v3/payments').map((r) => r.key)).size).toBe(1);
    expect(posted.length).toBeGreaterThanOrEqual(4); // 3 failed calls, then the deal and the payment
    await page.getByRole('button', { name: 'Оплатить' }).click();
    await backAtReturnUrl(page, orderId);
    expect(yookassa.payments.get(ref)!.status).toBe('succeeded');
    await expect.poll(() => mainText(page), POLL).toContain('Заказ оплачен');
  });

  it.each(widthsFor(375))('with the sandbox off the page offers the card, USDT and BTC, and the sandbox page is gone (%i px)', async (width) => {
    const price = 500_000;
    const { orderId, customerToken } = await newOrder(price, width);
    const page = await payPage(customerToken, orderId, width);
    const methods = page.locator('.pay-method');
    const offered = await methods.evaluateAll((labels) =>
      labels.map((l) => {
        const input = l.querySelector('input')!;
        return `${input.value}:${input.disabled ? 'off' : 'on'}`;
      }),
    );
    expect(offered).toEqual(['balance:off', 'card:on', 'usdt:on', 'btc:on']);
    // 5 000 руб.: 5 050 руб. at 90 руб. per USDT, 5 075 руб. at 9 000 000 руб. per BTC (56 390 satoshi).
    expect([shown('usdt', price), shown('btc', price), dueOf('btc', price)]).toEqual(['56,12 USDT', '0,0005639 BTC', 56_390]);
    expect(norm(await methods.nth(1).textContent())).toContain(rubles(price));
    expect(norm(await methods.nth(2).textContent())).toContain(`≈ ${shown('usdt', price)}`);
    expect(norm(await methods.nth(3).textContent())).toContain(`≈ ${shown('btc', price)}`);
    await checkPage(page, 'methods');

    // A real card payment exists; the sandbox's page does not show it (nor anything else).
    const paid = await fetch(`${e2e.url}/api/payments/pay`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customerToken}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ order_id: orderId, method: 'card' }),
    });
    expect(paid.status).toBe(200);
    const { result } = (await paid.json()) as { result: { payment_id: string; redirect_url: string } };
    expect(result.redirect_url.startsWith(`${yookassa.url}/checkout/`)).toBe(true);
    expect(await visit(page, `/sandbox-pay/${result.payment_id}`)).toBe(404);
    expect((await fetch(`${e2e.url}/api/payments/sandbox/${result.payment_id}`)).status).toBe(404);
  });
});
