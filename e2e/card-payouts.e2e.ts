import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fakeProvidersEnv } from '../server/test/payment-fakes.ts';
import { startFakeYookassa } from '../server/modules/payments/providers/yookassa/fake.ts';
import { withdrawals } from '../server/modules/payments/schema.ts';
import { postTransfer } from '../server/modules/ledger/index.ts';
import { systemActor } from '../server/platform/actor.ts';
import { looksLikeCardNumber } from '../contract/payment-constants.ts';
import { device, norm, pageCheck, shotsDir, useE2E, visit, widthsFor, type Width } from './fixtures.ts';

// Issue 27 in Chromium: a card withdrawal through ЮKassa's payout widget (ADR 050), against the fake ЮKassa with
// the sandbox off. The seller types the card into the widget (the fake's script, from the fake's origin: the CSP
// lets it in because ЮKassa is configured), the page gets a token and a mask, the withdrawal is made with them, the
// admin approves it, the payout is made at the fake, the fake pays it and notifies, and the seller sees «Выполнен».
// Photographed into /tmp/card-payout-shots/.

const yookassa = await startFakeYookassa();
const e2e = useE2E({ PAYMENTS_SANDBOX: 'false', ...fakeProvidersEnv({ yookassa }) });

beforeAll(() => {
  yookassa.webhookUrl = `${e2e.url}/api/payments/webhooks/yookassa`;
});
afterAll(async () => {
  await yookassa.close();
});

const SHOTS = shotsDir('card-payout');
const pageShot = pageCheck(SHOTS, { settle: true });
async function checkPage(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await pageShot(page, name);
}
const POLL = { timeout: 30_000, interval: 250 };
const textOf = async (page: Page, selector: string) => norm(await page.locator(selector).first().textContent());
const CARD = '2202 2012 3456 7895';

async function fund(userId: string, amount: number) {
  await e2e.server.app.services.platform.withTx(systemActor('e2e'), ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `e2e-fund:${userId}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -amount },
        { account: { kind: 'available', userId }, amount },
      ],
    }),
  );
}

describe('a card payout through ЮKassa', { timeout: 120_000 }, () => {
  it.each(widthsFor(375))('widget → token → withdrawal → approved → paid by ЮKassa → «Выполнен» (%i px)', async (width: Width) => {
    const { user: seller, token: sellerToken } = await e2e.user({ role: 'seller', name: 'Борис', surname: 'Карточкин' });
    const { token: adminToken } = await e2e.user({ role: 'admin' });
    await fund(seller.id, 500_000);

    const s = await e2e.open({ token: sellerToken, ...device(width) });
    expect(await visit(s.page, '/profile/finance')).toBe(200);
    // The fake's widget draws its card form in the page; the number goes to the fake ЮKassa, never to our server.
    const number = s.page.getByLabel('Номер карты');
    await expect.poll(() => number.count(), POLL).toBe(1);
    await checkPage(s.page, 'widget');
    const ours: string[] = [];
    s.page.on('request', (request) => {
      if (request.url().startsWith(e2e.url)) ours.push(`${request.url()} ${request.postData() ?? ''}`);
    });
    await number.fill(CARD);
    await s.page.getByRole('button', { name: 'Сохранить карту' }).click();
    await expect.poll(() => textOf(s.page, '[data-testid="payout-card"]'), POLL).toContain('Карта 220220 •• 7895');
    await s.page.getByLabel('Сумма, руб.').fill('5000');
    await checkPage(s.page, 'card-chosen');
    await s.page.getByRole('button', { name: 'Вывести' }).click();
    await expect.poll(() => textOf(s.page, '[data-testid="balance-available"]'), POLL).toBe('0 руб.');
    expect(ours.filter((r) => r.includes('2202201234567895') || r.includes(CARD))).toEqual([]);

    const [row] = await e2e.server.database.db.select().from(withdrawals).where(eq(withdrawals.userId, seller.id));
    expect(row).toMatchObject({ method: 'card', destination: '220220******7895', cardType: 'MIR' });
    expect(looksLikeCardNumber(`${row!.destination} ${row!.payoutToken} ${row!.cardType}`)).toBe(false);

    // The admin approves: the payout goes to ЮKassa under the withdrawal's key.
    const a = await e2e.open({ token: adminToken, ...device(width) });
    await visit(a.page, '/admin/payments');
    const request = a.page.locator('tr', { hasText: seller.email });
    await expect.poll(() => request.count(), POLL).toBe(1);
    expect(norm(await request.textContent())).toContain('Банковская карта: 220220 •• 7895 (MIR)');
    await checkPage(a.page, 'admin');
    await request.getByRole('button', { name: 'Одобрить' }).click();
    await expect.poll(() => Boolean(yookassa.payoutDesk.forWithdrawal(row!.id)), POLL).toBe(true);
    const payout = yookassa.payoutDesk.forWithdrawal(row!.id)!;
    expect(payout).toMatchObject({ status: 'pending', amount: { value: '5000.00' }, payout_destination: { type: 'bank_card', card: { first6: '220220', last4: '7895' } } });

    // ЮKassa pays it and notifies: the seller's request is done.
    await yookassa.payoutDesk.succeedPayout(payout.id);
    await visit(s.page, '/profile/payments');
    const done = s.page.locator('tr', { hasText: '220220 •• 7895' });
    await expect
      .poll(async () => {
        await visit(s.page, '/profile/payments');
        return norm(await done.first().textContent());
      }, POLL)
      .toContain('Выполнен');
    await checkPage(s.page, 'done');

    // Next time the card is offered again, with «Другая карта».
    await visit(s.page, '/profile/finance');
    expect(await textOf(s.page, '[data-testid="payout-card"]')).toContain('Карта 220220 •• 7895');
    expect(await s.page.getByRole('button', { name: 'Другая карта' }).count()).toBe(1);
    await checkPage(s.page, 'card-again');
  });
});
