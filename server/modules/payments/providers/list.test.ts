import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderPayment } from './provider.ts';
import { startFakeYookassa, type FakeYookassa } from './yookassa/fake.ts';
import { YookassaProvider } from './yookassa/provider.ts';
import { startFakeBtcpay, type FakeBtcpay } from './btcpay/fake.ts';
import { BtcpayProvider } from './btcpay/provider.ts';

// The providers' lists of a day's payments, as reconciliation reads them: every page, only the day asked, and each
// payment's state in our words (pending, succeeded, failed) with our payment's id from the provider's metadata.

const clock = { now: () => new Date() };
const DAY = new Date('2026-03-10T00:00:00Z');
const NEXT = new Date('2026-03-11T00:00:00Z');
const at = (iso: string) => () => new Date(iso);

function payment(currency: ProviderPayment['currency'], currencyAmount: number): ProviderPayment {
  const id = randomUUID();
  return { id, orderId: randomUUID(), description: 'Заказ №1: Логотип', currency, currencyAmount, sellerShare: 1, returnUrl: `https://podryad.test/p/${id}` };
}

describe('ЮKassa’s list of payments', () => {
  let fake: FakeYookassa;
  let provider: YookassaProvider;
  beforeAll(async () => {
    fake = await startFakeYookassa();
    provider = new YookassaProvider({ shopId: fake.shopId, secretKey: fake.secretKey, apiUrl: `${fake.url}/v3`, webhookIps: [] }, clock, { backoffMs: 1 });
  });
  afterAll(() => fake.close());

  it('reads every page of the day through the cursors and maps each payment’s status, amount and our id', async () => {
    fake.now = at('2026-03-09T23:59:59.999Z');
    const before = await provider.createPayment(payment('RUB', 100));
    const made: { id: string; ref: string }[] = [];
    for (let i = 0; i < 205; i++) {
      fake.now = at(new Date(DAY.getTime() + i * 60_000).toISOString());
      const p = payment('RUB', 10_000 + i);
      made.push({ id: p.id, ref: (await provider.createPayment(p)).providerRef });
    }
    fake.now = at(NEXT.toISOString());
    const after = await provider.createPayment(payment('RUB', 100));
    await fake.pay(made[0]!.ref, { notify: false });
    await fake.cancel(made[1]!.ref, { notify: false });
    fake.addPayment('77.50', 'succeeded');
    // (The one added just now is at NEXT too: outside the day.)

    const listed = await provider.listPayments(DAY, NEXT);
    expect(listed).toHaveLength(205);
    const refs = new Set(listed.map((r) => r.ref));
    expect(refs.has(before.providerRef) || refs.has(after.providerRef)).toBe(false);
    expect(new Set(made.map((m) => m.ref))).toEqual(refs);
    // 205 payments at 100 a page: three pages, the second and third asked by cursor.
    const lists = fake.requests.filter((r) => r.method === 'GET' && r.path === '/v3/payments');
    expect(lists).toHaveLength(3);
    const byRef = new Map(listed.map((r) => [r.ref, r]));
    expect(byRef.get(made[0]!.ref)).toEqual({ ref: made[0]!.ref, paymentId: made[0]!.id, status: 'succeeded', currency: 'RUB', amount: 10_000, createdAt: DAY });
    expect(byRef.get(made[1]!.ref)).toMatchObject({ paymentId: made[1]!.id, status: 'failed', amount: 10_001 });
    expect(byRef.get(made[2]!.ref)).toMatchObject({ paymentId: made[2]!.id, status: 'pending', amount: 10_002, createdAt: new Date(DAY.getTime() + 120_000) });
  });

  it('names no payment of ours for one made at ЮKassa without our metadata, and describes a payment in ЮKassa’s words', async () => {
    fake.now = at('2026-04-01T10:00:00Z');
    const foreign = fake.addPayment('77.50', 'succeeded', { note: 'dashboard' });
    const listed = await provider.listPayments(new Date('2026-04-01T00:00:00Z'), new Date('2026-04-02T00:00:00Z'));
    expect(listed).toEqual([{ ref: foreign, paymentId: null, status: 'succeeded', currency: 'RUB', amount: 7_750, createdAt: new Date('2026-04-01T10:00:00Z') }]);
    const view = await provider.describePayment(foreign);
    expect(view).toMatchObject({ status: 'succeeded', amount: '77.50', currency: 'RUB', raw: { id: foreign, paid: true } });
    expect(await provider.describePayment('00000000-000f-5000-8000-000000000000')).toBeNull();
  });

  it('answers a bad cursor or limit with ЮKassa’s error', async () => {
    const res = await fetch(`${fake.url}/v3/payments?limit=101`, { headers: { authorization: `Basic ${Buffer.from(`${fake.shopId}:${fake.secretKey}`).toString('base64')}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', code: 'invalid_request', parameter: 'limit' });
  });
});

describe('BTCPay’s list of invoices', () => {
  let fake: FakeBtcpay;
  let provider: BtcpayProvider;
  beforeAll(async () => {
    fake = await startFakeBtcpay({ webhookSecret: 'whsec' });
    provider = new BtcpayProvider({ url: fake.url, apiKey: fake.apiKey, storeId: fake.store.id, webhookSecret: 'whsec' }, clock, { backoffMs: 1 });
  });
  afterAll(() => fake.close());

  it('reads every page of the day and maps each invoice’s end as the poll would: paid, partly paid, expired, open', async () => {
    fake.now = at('2026-03-09T23:59:59Z');
    const before = await provider.createPayment(payment('BTC', 1_000));
    const made: { id: string; ref: string }[] = [];
    for (let i = 0; i < 130; i++) {
      fake.now = at(new Date(DAY.getTime() + i * 60_000).toISOString());
      const p = payment(i % 2 ? 'USDT' : 'BTC', 50_000 + i);
      made.push({ id: p.id, ref: (await provider.createPayment(p)).providerRef });
    }
    fake.now = at(NEXT.toISOString());
    await provider.createPayment(payment('BTC', 1_000));
    await fake.pay(made[0]!.ref, 50_100, { confirmed: true }); // overpaid: what arrived is listed
    await fake.pay(made[2]!.ref, 20_000, { confirmed: true });
    await fake.expire(made[2]!.ref); // partly paid, then expired: what arrived
    await fake.expire(made[4]!.ref); // nothing paid
    await fake.pay(made[6]!.ref, 50_006); // not confirmed yet

    const listed = await provider.listPayments(DAY, NEXT);
    expect(listed).toHaveLength(130);
    expect(listed.some((r) => r.ref === before.providerRef)).toBe(false);
    const pages = fake.requests.filter((r) => r.method === 'GET' && /\/invoices\?startDate=/.test(r.path));
    expect(pages.map((r) => new URL(r.path, fake.url).searchParams.get('skip'))).toEqual(['0', '100']);
    expect(new URL(pages[0]!.path, fake.url).searchParams.get('startDate')).toBe(String(DAY.getTime() / 1000));
    const byRef = new Map(listed.map((r) => [r.ref, r]));
    expect(byRef.get(made[0]!.ref)).toEqual({ ref: made[0]!.ref, paymentId: made[0]!.id, status: 'succeeded', currency: 'BTC', amount: 50_100, createdAt: DAY });
    expect(byRef.get(made[1]!.ref)).toMatchObject({ paymentId: made[1]!.id, status: 'pending', currency: 'USDT', amount: 50_001 });
    expect(byRef.get(made[2]!.ref)).toMatchObject({ status: 'succeeded', amount: 20_000 });
    expect(byRef.get(made[4]!.ref)).toMatchObject({ status: 'failed', amount: 50_004 });
    expect(byRef.get(made[6]!.ref)).toMatchObject({ status: 'pending', amount: 50_006 });
  });

  it('describes an invoice in BTCPay’s words', async () => {
    fake.now = at('2026-05-01T10:00:00Z');
    const { providerRef } = await provider.createPayment(payment('BTC', 70_000));
    await fake.pay(providerRef, 80_000, { confirmed: true });
    expect(await provider.describePayment(providerRef)).toMatchObject({ status: 'Settled (PaidOver)', amount: '0.00080000', currency: 'BTC', raw: { id: providerRef } });
    expect(await provider.describePayment('nope')).toBeNull();
  });
});
