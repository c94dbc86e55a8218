import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { createService } from '../server/db/catalog-factories.ts';
import { fakeProvidersEnv, holdRates } from '../server/test/payment-fakes.ts';
import { startFakeYookassa } from '../server/modules/payments/providers/yookassa/fake.ts';
import { startFakeBtcpay } from '../server/modules/payments/providers/btcpay/fake.ts';
import { payments, paymentRefunds, withdrawals } from '../server/modules/payments/schema.ts';
import { toMinorUnits } from '../server/modules/payments/providers/btcpay/client.ts';
import { balanceOf, checkLedger } from '../server/modules/ledger/index.ts';
import { orders } from '../server/modules/orders/schema.ts';
import { commissionOn, splitPrice } from '../contract/money.ts';
import { formatRubles } from '../contract/money-format.ts';
import { apiCall, device, hydrated, norm, pageCheck, shotsDir, useE2E, visit, widthsFor, type Width } from './fixtures.ts';

// Issue 27's "done means", in Chromium against the production build, with the sandbox off and the real adapters
// talking to their local fakes: the whole order loop on each rail. A card order paid on ЮKassa's page, delivered and
// accepted in the order's chat; its seller (no card saved) gives a card in the finance page's «Куда перевести
// оплату» (ЮKassa's widget, for the shop's account) and ЮKassa pays the share out of the order's safe deal (ADR 053).
// Orders paid in BTC and in USDT through BTCPay: the seller's share reaches the balance, a BTC withdrawal is approved
// by the admin and paid by BTCPay. A card order disputed and split by the admin: the customer's part is refunded in
// the deal, then the seller's part paid out of it to a ЮMoney wallet given in the panel. Photographed into
// /tmp/money-loop-shots/. In Debian's full Chromium, the browser a person uses; most of the suite runs in its
// headless shell (docs/decisions/088).

const yookassa = await startFakeYookassa();
const btcpay = await startFakeBtcpay();
const e2e = useE2E({ PAYMENTS_SANDBOX: 'false', ...fakeProvidersEnv({ yookassa, btcpay }) }, { browser: 'chromium' });

// 1 BTC = 9 000 000 ₽, 1 USDT = 90 ₽.
beforeAll(async () => {
  yookassa.webhookUrl = `${e2e.url}/api/payments/webhooks/yookassa`;
  btcpay.webhookUrl = `${e2e.url}/api/payments/webhooks/btcpay`;
  await holdRates(e2e.server.database.db, e2e.server.app, { USDT: 90, BTC: 9_000_000 });
});
afterAll(async () => {
  await Promise.all([yookassa.close(), btcpay.close()]);
});

const SHOTS = shotsDir('money-loop');
const pageShot = pageCheck(SHOTS, { settle: true });
async function checkPage(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await pageShot(page, name);
}
const POLL = { timeout: 30_000, interval: 250 };
const CARD = '2202 2012 3456 7895';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const db = () => e2e.server.database.db;
const rubles = (kopecks: number) => norm(formatRubles(kopecks));
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());
const held = (page: Page) => page.locator('.fin-balance', { hasText: 'На выводе' }).locator('.fin-balance__value').textContent().then(norm);
const allowFakeIcons = () =>
  e2e.allowConsoleErrors(...[yookassa.url, btcpay.url].map((origin) => new RegExp(`status of 404 .*\\[${origin}/favicon\\.ico\\]$`)));
const payoutOf = async (orderId: string) => (await db().select().from(withdrawals).where(eq(withdrawals.orderId, orderId)))[0];
const commissionBpOf = async (orderId: string) => (await db().select({ bp: orders.commissionBp }).from(orders).where(eq(orders.id, orderId)))[0]!.bp;

let count = 0;
/** A fresh seller's service and a fresh customer's order of it, through the API. */
async function newOrder(price: number, label: string, seller?: Awaited<ReturnType<typeof e2e.user>>) {
  const s = seller ?? (await e2e.user({ role: 'seller', name: 'Борис', surname: 'Продавцов' }));
  const customer = await e2e.user({ name: 'Анна', surname: 'Заказова' });
  const title = `Логотип для пекарни №${++count} (${label})`;
  const service = await createService(db(), s.user.id, { title, price, days: 3 });
  const order = await apiCall(e2e.url, customer.token, 'POST', '/api/orders', { service_id: service.id });
  return { seller: s, customer, title, orderId: order.result._id as string };
}

/** The order's card in its chat, as either party sees it. */
async function orderChat(token: string, orderId: string, width: Width) {
  const { page } = await e2e.open({ token, ...device(width) });
  const { result } = await apiCall(e2e.url, token, 'GET', `/api/orders/${orderId}`);
  await visit(page, `/profile/messages?tab=orders&chat=${String(result.chat_id)}`);
  return page;
}
const card = (page: Page) => page.getByTestId('order-card');
const cardStatus = (page: Page) => card(page).locator('.status-badge').textContent().then(norm);

/** The seller delivers and the customer accepts, each in the order's chat. */
async function deliverAndAccept(orderId: string, sellerToken: string, customerToken: string, width: Width) {
  const s = await orderChat(sellerToken, orderId, width);
  await card(s).getByRole('button', { name: 'Сдать работу' }).click();
  await s.getByRole('dialog').getByLabel('Сообщение заказчику').fill('Готово: логотип в трёх вариантах, исходники во вложении.');
  await s.getByRole('dialog').getByRole('button', { name: 'Сдать работу' }).click();
  await expect.poll(() => cardStatus(s), POLL).toBe('Сдан');
  const c = await orderChat(customerToken, orderId, width);
  await expect.poll(() => cardStatus(c), POLL).toBe('Сдан');
  await card(c).getByRole('button', { name: 'Принять' }).click();
  await c.getByRole('dialog').getByRole('button', { name: 'Принять' }).click();
  await expect.poll(() => cardStatus(c), POLL).toBe('Завершён');
}

/** Card: paid on the fake ЮKassa's confirmation page, back on the order's page paid. */
async function payByCard(token: string, orderId: string, price: number, width: Width) {
  const { page } = await e2e.open({ token, ...device(width) });
  expect(await visit(page, `/payments/${orderId}`)).toBe(200);
  await page.getByRole('radio', { name: /Банковская карта/ }).check();
  await page.getByRole('button', { name: `Оплатить ${rubles(price)}` }).click();
  await page.waitForURL((u) => u.origin === yookassa.url && u.pathname.startsWith('/checkout/'));
  await page.getByRole('button', { name: 'Оплатить' }).click();
  await page.waitForURL((u) => u.origin === e2e.url && u.pathname === `/payments/${orderId}` && u.searchParams.has('payment'));
  await hydrated(page);
  await expect.poll(() => textOf(page, 'main'), POLL).toContain('Заказ оплачен');
  const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
  expect(payment).toMatchObject({ provider: 'yookassa', status: 'succeeded' });
  return payment!;
}

/** Crypto: quoted, sent to BTCPay's checkout, paid in full and confirmed there, back on the order's page paid. */
async function payByCoin(token: string, orderId: string, method: 'btc' | 'usdt', width: Width) {
  const { page } = await e2e.open({ token, ...device(width) });
  expect(await visit(page, `/payments/${orderId}`)).toBe(200);
  const currency = method === 'btc' ? 'BTC' : 'USDT';
  await page.getByRole('radio', { name: method === 'btc' ? /Bitcoin/ : /USDT/ }).check();
  await page.getByRole('button', { name: `Рассчитать сумму в ${currency}` }).click();
  const pay = page.getByRole('button', { name: /^Оплатить / });
  await expect.poll(() => pay.count(), POLL).toBe(1);
  await pay.click();
  await page.waitForURL((u) => u.origin === btcpay.url && u.pathname.startsWith('/i/'));
  const invoice = btcpay.store.invoices.get(new URL(page.url()).pathname.split('/').pop()!)!;
  expect(invoice.currency).toBe(currency);
  await btcpay.pay(invoice.id, invoice.amount, { confirmed: true });
  await page.goto(String(invoice.checkout.redirectURL));
  await hydrated(page);
  await expect.poll(() => textOf(page, 'main'), POLL).toContain('Заказ оплачен');
}

/** The seller's finance page, its deal panel showing the order's payout. */
async function dealPanel(token: string, orderNumber: number, amount: number, width: Width) {
  const { page } = await e2e.open({ token, ...device(width) });
  expect(await visit(page, '/profile/finance')).toBe(200);
  const panel = page.locator('.fin-deal-payouts');
  await expect.poll(() => panel.count(), POLL).toBe(1);
  expect(norm(await panel.getByRole('heading').textContent())).toBe('Куда перевести оплату');
  expect(norm(await panel.getByTestId('deal-payout').textContent())).toContain(`${rubles(amount)} за заказ №${orderNumber}`);
  // The share is held for the payout, never on the balance.
  expect(await textOf(page, '[data-testid="balance-available"]')).toBe('0 руб.');
  expect(await held(page)).toBe(rubles(amount));
  return { page, panel };
}

/** The finance page once ЮKassa has paid: nothing held, no panel; «Выполнен» on the payments page. */
async function seePaid(page: Page, orderNumber: number) {
  await expect
    .poll(async () => {
      await visit(page, '/profile/finance');
      return held(page);
    }, POLL)
    .toBe('0 руб.');
  expect(await page.locator('.fin-deal-payouts').count()).toBe(0);
  await visit(page, '/profile/payments');
  const row = page.locator('tr', { hasText: `оплата заказа №${orderNumber}` });
  expect(await row.count()).toBe(1);
  expect(norm(await row.textContent())).toContain('Выполнен');
  await checkPage(page, `deal-paid-${orderNumber}`);
}

describe('the whole order loop on the real adapters', { timeout: 180_000 }, () => {
  it.each(widthsFor(375))('card: paid at ЮKassa, delivered, accepted, the seller gives a card, paid out of the deal (%i px)', async (width) => {
    allowFakeIcons();
    const price = 300_000;
    const { seller, customer, orderId } = await newOrder(price, `card ${width}`);
    const payment = await payByCard(customer.token, orderId, price, width);
    await deliverAndAccept(orderId, seller.token, customer.token, width);

    const net = price - commissionOn(price, await commissionBpOf(orderId));
    const w = (await payoutOf(orderId))!;
    expect(w).toMatchObject({ status: 'awaiting_details', amount: net, dealRef: payment.providerDealRef });
    const { page, panel } = await dealPanel(seller.token, w.orderNumber!, net, width);
    const number = panel.getByLabel('Номер карты');
    await expect.poll(() => number.count(), POLL).toBe(1);
    await checkPage(page, 'deal-panel');
    await number.fill(CARD);
    await panel.getByRole('button', { name: 'Сохранить карту' }).click();
    await expect.poll(() => page.locator('.fin-deal-payouts').count(), POLL).toBe(0);

    // At ЮKassa: a payout out of the order's deal, to the card's token, of the seller's net share.
    await expect.poll(() => yookassa.payoutDesk.forWithdrawal(w.id)?.status ?? null, POLL).toBe('pending');
    const at = yookassa.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ deal: { id: payment.providerDealRef }, amount: { value: (net / 100).toFixed(2) }, payout_destination: { type: 'bank_card', card: { last4: '7895' } } });
    await yookassa.payoutDesk.succeedPayout(at.id);
    await seePaid(page, w.orderNumber!);
    expect(yookassa.deals.get(payment.providerDealRef!)!.status).toBe('closed');
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('BTC and USDT: paid through BTCPay, delivered, accepted; the share on the balance; a BTC withdrawal approved and paid by BTCPay', async () => {
    allowFakeIcons();
    const width = 1280;
    const price = 450_000;
    const btc = await newOrder(price, 'btc');
    const usdt = await newOrder(price, 'usdt', btc.seller);
    await payByCoin(btc.customer.token, btc.orderId, 'btc', width);
    await payByCoin(usdt.customer.token, usdt.orderId, 'usdt', width);
    await deliverAndAccept(btc.orderId, btc.seller.token, btc.customer.token, width);
    await apiCall(e2e.url, usdt.seller.token, 'POST', `/api/orders/${usdt.orderId}/deliver`, { message: 'Готово, файлы во вложении.' });
    await apiCall(e2e.url, usdt.customer.token, 'POST', `/api/orders/${usdt.orderId}/accept`, {});

    // No deal for crypto: each share reaches the seller's balance.
    const share = price - commissionOn(price, await commissionBpOf(btc.orderId));
    const { page } = await e2e.open({ token: btc.seller.token, ...device(width) });
    await visit(page, '/profile/finance');
    await expect.poll(() => textOf(page, '[data-testid="balance-available"]'), POLL).toBe(rubles(2 * share));
    expect(await payoutOf(btc.orderId)).toBeUndefined();

    // A BTC withdrawal of it all to an address.
    await page.getByLabel('Способ', { exact: true }).selectOption('btc');
    await page.getByLabel('Адрес Bitcoin').fill(BTC_ADDRESS);
    await page.getByLabel('Сумма, руб.').fill(String((2 * share) / 100));
    await page.getByRole('button', { name: 'Вывести' }).click();
    await expect.poll(() => textOf(page, '[data-testid="balance-available"]'), POLL).toBe('0 руб.');
    const [w] = await db().select().from(withdrawals).where(eq(withdrawals.userId, btc.seller.user.id));
    expect(w).toMatchObject({ method: 'btc', destination: BTC_ADDRESS, status: 'pending' });

    // The admin approves it on /admin/payments: BTCPay makes the payout to the address.
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const a = await e2e.open({ token: adminToken, ...device(width) });
    expect(await visit(a.page, '/admin/payments')).toBe(200);
    const request = a.page.locator('tr', { hasText: btc.seller.user.email });
    await expect.poll(() => request.count(), POLL).toBe(1);
    await request.getByRole('button', { name: 'Одобрить' }).click();
    const payoutAt = () => [...btcpay.store.payouts.values()].find((p) => p.destination === BTC_ADDRESS);
    await expect.poll(() => payoutAt()?.currency ?? null, POLL).toBe('BTC');
    // The server records the payout once BTCPay has answered: the fake holds it a moment before that.
    const withdrawal = async () => (await db().select().from(withdrawals).where(eq(withdrawals.id, w!.id)))[0]!;
    await expect.poll(async () => (await withdrawal()).payoutRef, POLL).toBe(payoutAt()!.id);
    // The withdrawal's amount in satoshi at the held rate (7 650 руб. at 9 000 000 руб. per BTC: 85 000 satoshi).
    const approved = await withdrawal();
    expect(approved).toMatchObject({ status: 'sending', payoutProvider: 'btcpay', payoutRef: payoutAt()!.id });
    expect(toMinorUnits(payoutAt()!.amount, 8)).toBe(approved.payoutAmount);
    expect(approved.payoutAmount).toBe(Math.floor((2 * share * 1e8) / 100 / 9_000_000));
    await btcpay.completePayout(payoutAt()!.id);
    await expect
      .poll(async () => {
        await visit(page, '/profile/payments');
        return norm(await page.locator('tr', { hasText: 'Bitcoin' }).first().textContent());
      }, POLL)
      .toContain('Выполнен');
    await checkPage(page, 'btc-withdrawal-done');
    expect((await checkLedger(db())).problems).toEqual([]);
  });

  it('a card order disputed and split by the admin: the customer part refunded in the deal, then the seller part paid out of it', async () => {
    allowFakeIcons();
    const width = 1280;
    const price = 200_000;
    const { seller, customer, orderId } = await newOrder(price, 'split');
    const payment = await payByCard(customer.token, orderId, price, width);
    await apiCall(e2e.url, seller.token, 'POST', `/api/orders/${orderId}/deliver`, { message: 'Готово, файлы во вложении.' });
    const dispute = await apiCall(e2e.url, customer.token, 'POST', '/api/disputes/', {
      order_id: orderId,
      reason: 'poor_quality',
      description: 'Логотип не похож на согласованный эскиз, правки не вносятся.',
      files: [],
    });
    const number = (await db().select({ n: orders.number }).from(orders).where(eq(orders.id, orderId)))[0]!.n;

    // The admin decides in the admin area: 40 % to the seller.
    const { token: adminToken } = await e2e.user({ role: 'admin', name: 'Арбитр', surname: 'Первый' });
    const a = await e2e.open({ token: adminToken, ...device(width) });
    await visit(a.page, `/admin/disputes`);
    const row = a.page.locator('[data-testid="admin-dispute"]', { hasText: `№${number}` });
    await expect.poll(() => row.count(), POLL).toBe(1);
    await row.getByRole('button').first().click();
    const detail = a.page.getByTestId('admin-dispute-detail');
    await detail.waitFor({ timeout: 30_000 });
    await detail.getByRole('radio', { name: 'Разделение суммы' }).check();
    await detail.getByRole('spinbutton', { name: 'Доля исполнителя, %' }).fill('40');
    await detail.getByRole('button', { name: 'Принять решение' }).click();
    await a.page.getByRole('button', { name: 'Подтвердить' }).click();
    await expect.poll(async () => norm(await detail.getByTestId('dispute-decision').textContent()), POLL).toContain('Разделение суммы');
    expect(dispute.result._id).toBeTruthy();

    // The customer's part is refunded inside the deal, at ЮKassa.
    const split = splitPrice(price, 40, await commissionBpOf(orderId));
    const refundAt = () => [...yookassa.refunds.refunds.values()].find((r) => r.payment_id === payment.providerRef);
    await expect.poll(() => refundAt()?.status ?? null, POLL).toBe('succeeded');
    expect(refundAt()).toMatchObject({ amount: { value: (split.customer / 100).toFixed(2) }, deal: { refund_settlements: [{ type: 'payout' }] } });
    await expect.poll(async () => (await db().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId)))[0]?.status ?? null, POLL).toBe('succeeded');

    // The seller's part waits in the deal for a wallet, given in the panel, then goes out of the deal.
    const w = (await payoutOf(orderId))!;
    expect(w).toMatchObject({ status: 'awaiting_details', amount: split.sellerNet });
    const { page, panel } = await dealPanel(seller.token, number, split.sellerNet, width);
    await panel.getByRole('radio', { name: 'Кошелёк ЮMoney' }).check();
    await panel.getByLabel('Номер кошелька ЮMoney').fill('4100 1175 8831 136');
    await checkPage(page, 'deal-panel-wallet');
    await panel.getByRole('button', { name: 'Перевести' }).click();
    await expect.poll(() => yookassa.payoutDesk.forWithdrawal(w.id)?.status ?? null, POLL).toBe('pending');
    const at = yookassa.payoutDesk.forWithdrawal(w.id)!;
    expect(at).toMatchObject({ deal: { id: payment.providerDealRef }, amount: { value: (split.sellerNet / 100).toFixed(2) }, payout_destination: { type: 'yoo_money' } });
    // The refund went first: a payout closes its deal.
    const posted = yookassa.requests.filter((r) => r.method === 'POST' && (r.path === '/v3/refunds' || r.path === '/v3/payouts')).map((r) => r.path);
    expect(posted.lastIndexOf('/v3/refunds')).toBeLessThan(posted.lastIndexOf('/v3/payouts'));
    await yookassa.payoutDesk.succeedPayout(at.id);
    await seePaid(page, number);
    expect(yookassa.deals.get(payment.providerDealRef!)!.status).toBe('closed');
    expect(await balanceOf(db(), { kind: 'escrow', orderId })).toBe(0);
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});
