import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderUnavailable, type ProviderPayment, type WebhookReading } from '../provider.ts';
import { GreenfieldClient, GreenfieldError, toDecimalString, toMinorUnits } from './client.ts';
import { startFakeBtcpay, type Delivery, type FakeBtcpay } from './fake.ts';
import { BtcpayProvider } from './provider.ts';

const clock = { now: () => new Date() };
const FAST = { timeoutMs: 250, attempts: 3, backoffMs: 5 };

let fake: FakeBtcpay;
let provider: BtcpayProvider;

beforeEach(async () => {
  fake = await startFakeBtcpay({ storeId: 'Store1111111111111111111111111111111111111111', webhookSecret: 'whsec-test' });
  provider = new BtcpayProvider({ url: fake.url, apiKey: fake.apiKey, storeId: fake.store.id, webhookSecret: 'whsec-test' }, clock, FAST);
});
afterEach(() => fake.close());

function payment(overrides: Partial<ProviderPayment> = {}): ProviderPayment {
  const id = randomUUID();
  return {
    id,
    orderId: randomUUID(),
    description: 'Заказ №12: Логотип',
    currency: 'BTC',
    currencyAmount: 150_000,
    sellerShare: 900_000,
    returnUrl: `https://podryad.test/payments/o1?payment=${id}`,
    ...overrides,
  };
}

const read = (d: Delivery) => provider.readWebhook({ rawBody: d.body, headers: d.headers, ip: '127.0.0.1' });
/** The last webhook of this type about this invoice. */
function delivery(type: string, invoiceId?: string): Delivery {
  const found = fake.deliveries.filter((d) => {
    const body = JSON.parse(d.body) as { type: string; invoiceId?: string };
    return body.type === type && (!invoiceId || body.invoiceId === invoiceId);
  });
  if (!found.length) throw new Error(`no ${type} webhook`);
  return found.at(-1)!;
}
const eventOf = (reading: WebhookReading) => {
  if (!('event' in reading)) throw new Error(`no event: ${JSON.stringify(reading)}`);
  return reading.event;
};
const posts = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/invoices')).length;

describe('money', () => {
  it('converts minor units to decimal strings and back without floating point', () => {
    expect(toDecimalString(150_000, 8)).toBe('0.00150000');
    expect(toDecimalString(1, 8)).toBe('0.00000001');
    expect(toDecimalString(2_100_000_000_000_000, 8)).toBe('21000000.00000000');
    expect(toDecimalString(12_345, 2)).toBe('123.45');
    expect(toMinorUnits('0.00150000', 8)).toBe(150_000);
    expect(toMinorUnits('0.1', 8)).toBe(10_000_000);
    expect(toMinorUnits('123.456789', 2)).toBe(12_345); // digits below a cent are dropped, never rounded up
    expect(toMinorUnits('0.00000001999', 8)).toBe(1); // millisatoshi of a lightning payment
    expect(toMinorUnits('7', 2)).toBe(700);
    expect(() => toMinorUnits('-1.00', 2)).toThrow(RangeError);
    expect(() => toMinorUnits('1e-7', 8)).toThrow(RangeError);
    expect(() => toDecimalString(0.5, 8)).toThrow(RangeError);
  });
});

describe('createPayment', () => {
  it('makes a 15-minute invoice of the amount, currency and order id, and answers its checkout link', async () => {
    const p = payment();
    const created = await provider.createPayment(p);
    const invoice = fake.store.invoices.get(created.providerRef)!;
    expect(invoice).toBeDefined();
    const json = fake.invoiceJson(invoice);
    expect(json).toMatchObject({ amount: '0.00150000', currency: 'BTC', status: 'New', metadata: { orderId: p.id, orderUrl: p.returnUrl } });
    expect(json.expirationTime - json.createdTime).toBe(15 * 60);
    expect(invoice.checkout).toMatchObject({ expirationMinutes: 15, redirectURL: p.returnUrl });
    expect(created.redirectUrl).toBe(`${fake.url}/i/${created.providerRef}`);
    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('0.00150000 BTC');
  });

  it('sends USDT cents as a 2-decimal amount and refuses RUB', async () => {
    const created = await provider.createPayment(payment({ currency: 'USDT', currencyAmount: 12_345 }));
    expect(fake.invoiceJson(fake.store.invoices.get(created.providerRef)!)).toMatchObject({ amount: '123.45', currency: 'USDT' });
    await expect(provider.createPayment(payment({ currency: 'RUB', currencyAmount: 100_000 }))).rejects.toThrow(/BTC or USDT/);
    expect(fake.store.invoices.size).toBe(1);
  });

  it('gives the same invoice when asked again for the same payment', async () => {
    const p = payment();
    const first = await provider.createPayment(p);
    const again = await provider.createPayment(p);
    expect(again.providerRef).toBe(first.providerRef);
    expect(fake.store.invoices.size).toBe(1);
  });

  it('authenticates with the API key: a wrong key is a 401 at once, another store a 403 (no retries)', async () => {
    const wrongKey = new BtcpayProvider({ url: fake.url, apiKey: 'nope', storeId: fake.store.id, webhookSecret: 'x' }, clock, FAST);
    const error = await wrongKey.createPayment(payment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GreenfieldError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(fake.requests).toHaveLength(1);
    const otherStore = new GreenfieldClient({ url: fake.url, apiKey: fake.apiKey, storeId: 'another' }, FAST);
    await expect(otherStore.getInvoice('x')).rejects.toMatchObject({ status: 403, code: 'missing-permission' });
    expect(fake.store.invoices.size).toBe(0);
  });

  it('retries a 500 of the create and makes one invoice', async () => {
    fake.failNext(1, 'status500', { method: 'POST' });
    const created = await provider.createPayment(payment());
    expect(fake.store.invoices.size).toBe(1);
    expect(fake.store.invoices.has(created.providerRef)).toBe(true);
    expect(posts()).toBe(2);
  });

  it('retries a 500 of the search', async () => {
    fake.failNext(1, 'status500', { method: 'GET' });
    await provider.createPayment(payment());
    expect(fake.store.invoices.size).toBe(1);
    expect(posts()).toBe(1);
  });

  it('retries a timeout and makes one invoice', async () => {
    fake.failNext(1, 'timeout', { method: 'POST' });
    const started = Date.now();
    const created = await provider.createPayment(payment());
    expect(Date.now() - started).toBeGreaterThanOrEqual(FAST.timeoutMs - 20);
    expect(fake.store.invoices.size).toBe(1);
    expect(fake.store.invoices.has(created.providerRef)).toBe(true);
  });

  it('finds the invoice whose answer was lost instead of making a second', async () => {
    const p = payment();
    fake.loseNextAnswer();
    const created = await provider.createPayment(p);
    expect(fake.store.invoices.size).toBe(1);
    expect(created.providerRef).toBe([...fake.store.invoices.keys()][0]);
    expect(posts()).toBe(1);
  });

  it('does not reuse an expired invoice of the payment', async () => {
    const p = payment();
    const first = await provider.createPayment(p);
    await fake.expire(first.providerRef);
    const second = await provider.createPayment(p);
    expect(second.providerRef).not.toBe(first.providerRef);
    expect(fake.store.invoices.size).toBe(2);
  });

  it('throws ProviderUnavailable after three failures', async () => {
    fake.failNext(3, 'status500');
    const error = await provider.createPayment(payment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect((error as ProviderUnavailable).provider).toBe('btcpay');
    expect(fake.requests).toHaveLength(3);
    expect(fake.store.invoices.size).toBe(0);
  });

  it('throws ProviderUnavailable when the server is gone', async () => {
    await fake.close();
    await expect(provider.createPayment(payment())).rejects.toBeInstanceOf(ProviderUnavailable);
  });
});

describe('readWebhook', () => {
  async function invoice(p = payment()) {
    return (await provider.createPayment(p)).providerRef;
  }

  it('reads a signed InvoiceSettled into payment.succeeded with the amount paid', async () => {
    const id = await invoice();
    await fake.pay(id, 150_000, { confirmed: true });
    const event = eventOf(await read(delivery('InvoiceSettled', id)));
    expect(event).toMatchObject({ id: `${id}:settled:150000`, type: 'payment.succeeded', payment_ref: id, currency: 'BTC', amount: 150_000 });
    expect(event.late).toBeUndefined();
    expect(Math.abs(event.created - Date.now() / 1000)).toBeLessThan(5);
  });

  it('refuses a wrong, missing or malformed signature', async () => {
    const id = await invoice();
    await fake.pay(id, 150_000, { confirmed: true });
    const good = delivery('InvoiceSettled', id);
    const forged = await fake.sendForged(JSON.parse(good.body) as Record<string, unknown>);
    expect(await read(forged)).toEqual({ refused: 'signature' });
    expect(await read({ ...good, headers: { 'content-type': 'application/json' } })).toEqual({ refused: 'signature' });
    expect(await read({ ...good, headers: { 'btcpay-sig': 'sha256=abc' } })).toEqual({ refused: 'signature' });
    expect(await read({ ...good, body: good.body.replace('150000', '150001') + ' ' })).toEqual({ refused: 'signature' });
    // The header's name is case-insensitive.
    expect('event' in (await read({ ...good, headers: { 'BTCPay-Sig': good.headers['btcpay-sig']! } }))).toBe(true);
  });

  it('gives a redelivery the same event id', async () => {
    const id = await invoice();
    await fake.pay(id, 150_000, { confirmed: true });
    const first = delivery('InvoiceSettled', id);
    const again = await fake.redeliver(first.deliveryId);
    const body = JSON.parse(again.body) as { isRedelivery: boolean; originalDeliveryId: string; deliveryId: string };
    expect(body).toMatchObject({ isRedelivery: true, originalDeliveryId: first.deliveryId });
    expect(body.deliveryId).not.toBe(first.deliveryId);
    expect(eventOf(await read(again)).id).toBe(eventOf(await read(first)).id);
  });

  it('underpaid then expired: succeeded with the partial amount once the payment is confirmed', async () => {
    const id = await invoice();
    await fake.pay(id, 100_000);
    expect(await read(delivery('InvoiceReceivedPayment', id))).toEqual({ ignored: 'InvoiceReceivedPayment: nothing to do' });
    await fake.expire(id);
    expect(JSON.parse(delivery('InvoiceExpired', id).body)).toMatchObject({ partiallyPaid: true });
    expect(await read(delivery('InvoiceExpired', id))).toEqual({ ignored: 'expired invoice: payments not confirmed yet' });
    await fake.settle(id);
    const event = eventOf(await read(delivery('InvoicePaymentSettled', id)));
    expect(event).toMatchObject({ id: `${id}:partial:100000`, type: 'payment.succeeded', amount: 100_000 });
    expect(event.late).toBeUndefined();
    // The same outcome through the other webhooks of it.
    expect(eventOf(await read(delivery('InvoiceExpiredPaidPartial', id))).id).toBe(`${id}:partial:100000`);
  });

  it('overpaid: succeeded with what was paid', async () => {
    const id = await invoice();
    await fake.pay(id, 160_000, { confirmed: true });
    expect(JSON.parse(delivery('InvoiceSettled', id).body)).toMatchObject({ overPaid: true });
    expect(eventOf(await read(delivery('InvoiceSettled', id)))).toMatchObject({ id: `${id}:settled:160000`, type: 'payment.succeeded', amount: 160_000 });
  });

  it('paid after expiry: succeeded late, once confirmed', async () => {
    const id = await invoice();
    await fake.pay(id, 150_000, { late: true });
    expect(fake.invoiceJson(fake.store.invoices.get(id)!)).toMatchObject({ status: 'Expired', additionalStatus: 'PaidLate' });
    expect(JSON.parse(delivery('InvoiceReceivedPayment', id).body)).toMatchObject({ afterExpiration: true });
    expect('ignored' in (await read(delivery('InvoicePaidAfterExpiration', id)))).toBe(true);
    await fake.settle(id);
    const event = eventOf(await read(delivery('InvoicePaymentSettled', id)));
    expect(event).toMatchObject({ id: `${id}:late:150000`, type: 'payment.succeeded', amount: 150_000, late: true });
    expect(eventOf(await read(delivery('InvoicePaidAfterExpiration', id))).id).toBe(`${id}:late:150000`);
  });

  it('partial before expiry and the rest after it: late with the whole amount', async () => {
    const id = await invoice();
    await fake.pay(id, 50_000, { confirmed: true });
    await fake.expire(id);
    await fake.pay(id, 100_000, { confirmed: true });
    expect(eventOf(await read(delivery('InvoicePaidAfterExpiration', id)))).toMatchObject({ id: `${id}:late:150000`, amount: 150_000, late: true });
  });

  it('invalid: failed', async () => {
    const id = await invoice();
    await fake.invalidate(id);
    expect(eventOf(await read(delivery('InvoiceInvalid', id)))).toMatchObject({ id: `${id}:invalid`, type: 'payment.failed', amount: 150_000 });
  });

  it('expired unpaid: failed with the amount asked', async () => {
    const id = await invoice();
    await fake.expire(id);
    expect(eventOf(await read(delivery('InvoiceExpired', id)))).toMatchObject({ id: `${id}:expired`, type: 'payment.failed', currency: 'BTC', amount: 150_000 });
  });

  it('reads USDT amounts (6-decimal payment values) in cents', async () => {
    const id = await invoice(payment({ currency: 'USDT', currencyAmount: 12_345 }));
    await fake.pay(id, 12_350, { confirmed: true });
    expect(eventOf(await read(delivery('InvoiceSettled', id)))).toMatchObject({ currency: 'USDT', amount: 12_350 });
  });

  it('ignores a signed body that claims Settled while BTCPay has the invoice New (the re-read wins)', async () => {
    const id = await invoice();
    const lie = await fake.sendSigned({ deliveryId: 'd1', webhookId: fake.webhookId, originalDeliveryId: 'd1', isRedelivery: false, type: 'InvoiceSettled', timestamp: 1, storeId: fake.store.id, invoiceId: id, overPaid: false });
    expect(await read(lie)).toEqual({ ignored: 'invoice New' });
    const unknown = await fake.sendSigned({ type: 'InvoiceSettled', storeId: fake.store.id, invoiceId: 'NoSuchInvoice' });
    expect(await read(unknown)).toEqual({ ignored: 'unknown invoice NoSuchInvoice' });
  });

  it("ignores another store's webhook and the types that end nothing", async () => {
    const id = await invoice();
    await fake.pay(id, 150_000, { confirmed: true });
    const other = await fake.sendSigned({ ...(JSON.parse(delivery('InvoiceSettled', id).body) as object), storeId: 'AnotherStore' });
    expect(await read(other)).toEqual({ ignored: "another store's webhook (AnotherStore)" });
    for (const type of ['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoiceProcessing']) expect('ignored' in (await read(delivery(type, id)))).toBe(true);
  });

  it('refuses a signed body that is not JSON', async () => {
    const good = await fake.sendSigned({ type: 'InvoiceSettled' });
    const raw = 'not json';
    const { createHmac } = await import('node:crypto');
    const headers = { 'btcpay-sig': `sha256=${createHmac('sha256', 'whsec-test').update(raw).digest('hex')}` };
    expect(await read({ ...good, body: raw, headers })).toEqual({ refused: 'body' });
  });

  it('works end to end: a webhook registered through Greenfield is POSTed, signed, to our endpoint', async () => {
    const readings: WebhookReading[] = [];
    const receiver: Server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        void provider.readWebhook({ rawBody: raw, headers: req.headers, ip: req.socket.remoteAddress ?? '' }).then((r) => {
          readings.push(r);
          res.writeHead('refused' in r ? 400 : 200).end();
        });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/webhook/btcpay`;
      const res = await fetch(`${fake.url}/api/v1/stores/${fake.store.id}/webhooks`, {
        method: 'POST',
        headers: { authorization: `token ${fake.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, secret: 'whsec-test', authorizedEvents: { everything: true } }),
      });
      expect(res.status).toBe(200);
      const id = await invoice();
      await fake.pay(id, 150_000, { confirmed: true });
      // InvoicePaymentSettled comes while the invoice is still Processing (ignored); InvoiceSettled ends it.
      const events = readings.filter((r) => 'event' in r).map(eventOf);
      expect(events).toEqual([expect.objectContaining({ id: `${id}:settled:150000`, amount: 150_000 })]);
      expect(readings.filter((r) => 'ignored' in r).length).toBeGreaterThanOrEqual(3); // ReceivedPayment, Processing, PaymentSettled (InvoiceCreated is not awaited)
      expect(fake.deliveries.every((d) => d.status === 200)).toBe(true);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('checkPayment', () => {
  it('answers null while open and the webhook outcome once ended', async () => {
    const settled = (await provider.createPayment(payment())).providerRef;
    expect(await provider.checkPayment(settled)).toBeNull(); // New
    await fake.pay(settled, 150_000);
    expect(await provider.checkPayment(settled)).toBeNull(); // Processing
    await fake.settle(settled);
    expect(await provider.checkPayment(settled)).toMatchObject({ id: `${settled}:settled:150000`, type: 'payment.succeeded', amount: 150_000 });

    const expired = (await provider.createPayment(payment())).providerRef;
    await fake.expire(expired);
    expect(await provider.checkPayment(expired)).toMatchObject({ id: `${expired}:expired`, type: 'payment.failed' });

    const partial = (await provider.createPayment(payment())).providerRef;
    await fake.pay(partial, 1_000);
    await fake.expire(partial);
    expect(await provider.checkPayment(partial)).toBeNull(); // unconfirmed
    await fake.settle(partial);
    expect(await provider.checkPayment(partial)).toMatchObject({ id: `${partial}:partial:1000`, amount: 1_000 });

    const late = (await provider.createPayment(payment())).providerRef;
    await fake.pay(late, 150_000, { late: true, confirmed: true });
    expect(await provider.checkPayment(late)).toMatchObject({ id: `${late}:late:150000`, amount: 150_000, late: true });

    const invalid = (await provider.createPayment(payment())).providerRef;
    await fake.invalidate(invalid);
    expect(await provider.checkPayment(invalid)).toMatchObject({ id: `${invalid}:invalid`, type: 'payment.failed' });

    expect(await provider.checkPayment('NoSuchInvoice')).toBeNull();
  });
});

describe('payouts', () => {
  const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

  it('creates an approved payout once per withdrawal and follows it to Completed', async () => {
    const withdrawal = randomUUID();
    const created = await provider.createPayout({ id: withdrawal, destination: address, currency: 'BTC', amount: 50_000 });
    expect(created).toMatchObject({ state: 'AwaitingPayment', proof: null });
    const stored = fake.store.payouts.get(created.payoutId)!;
    expect(stored).toMatchObject({ amount: '0.00050000', payoutMethodId: 'BTC-CHAIN', destination: address, metadata: { withdrawalId: withdrawal } });
    const again = await provider.createPayout({ id: withdrawal, destination: address, currency: 'BTC', amount: 50_000 });
    expect(again.payoutId).toBe(created.payoutId);
    expect(fake.store.payouts.size).toBe(1);
    await fake.completePayout(created.payoutId);
    expect(await provider.payoutState(created.payoutId)).toMatchObject({ state: 'Completed', proof: { transactionId: `tx-${created.payoutId}` } });
  });

  it('follows a cancelled payout, and a lost payout is null', async () => {
    const created = await provider.createPayout({ id: randomUUID(), destination: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', currency: 'USDT', amount: 2_500 });
    expect(fake.store.payouts.get(created.payoutId)).toMatchObject({ amount: '25.00', payoutMethodId: 'USDT-TRON' });
    await fake.cancelPayout(created.payoutId);
    expect(await provider.payoutState(created.payoutId)).toMatchObject({ state: 'Cancelled' });
    expect(await provider.payoutState('NoSuchPayout')).toBeNull();
  });

  it('passes BTCPay’s refusals through as GreenfieldError', async () => {
    await expect(provider.createPayout({ id: randomUUID(), destination: 'x', currency: 'BTC', amount: 1 })).rejects.toMatchObject({ status: 422, code: 'validation' });
    await provider.createPayout({ id: randomUUID(), destination: address, currency: 'BTC', amount: 1_000 });
    await expect(provider.createPayout({ id: randomUUID(), destination: address, currency: 'BTC', amount: 2_000 })).rejects.toMatchObject({ status: 400, code: 'duplicate-destination' });
  });
});
