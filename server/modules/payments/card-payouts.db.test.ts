import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { createUser } from '../../db/factories.ts';
import { systemActor } from '../../platform/actor.ts';
import { balanceOf, checkLedger, postTransfer } from '../ledger/index.ts';
import type { UserRow } from '../users/schema.ts';
import { withdrawals } from './schema.ts';
import { startFakeYookassa, type FakeYookassa } from './providers/yookassa/fake.ts';
import { fakeProvidersEnv } from '../../test/payment-fakes.ts';
import type { YookassaProvider } from './providers/yookassa/provider.ts';
import { looksLikeCardNumber, PAYMENT_MESSAGES, tokenLooksLikeCardNumber } from '#contract/payments';

// Withdrawals to cards and ЮMoney wallets through ЮKassa's payouts (issue 27, ADR 050), against the fake ЮKassa:
// the card tokenised by the payout widget (its number never reaches us), the payout made under the key
// `payout-<withdrawal>` with the payouts gateway's credentials, its end read from the API after its notification,
// a cancelled or refused payout back on the balance with a letter, and no card number stored anywhere.

let t: Awaited<ReturnType<typeof createTestApp>>;
let fake: FakeYookassa;
let admin: UserRow;
const letters: { to: string; subject: string }[] = [];
const CARD_NUMBER = '2202201234567895'; // Luhn-valid: what a seller types into the widget

beforeAll(async () => {
  fake = await startFakeYookassa();
  t = await createTestApp({ ...fakeProvidersEnv({ yookassa: fake }), PUBLIC_URL: 'https://podryad.example' });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `${base}/api/payments/webhooks/yookassa`;
  Object.assign(yookassa().payouts.client.options, { timeoutMs: 400, backoffMs: 20 });
  admin = await createUser(t.database.db, { role: 'admin' });
  const mailer = t.app.services.mailer;
  const send = mailer.send.bind(mailer);
  mailer.send = async (to, letter) => {
    letters.push({ to, subject: letter.subject });
    return send(to, letter);
  };
});
afterEach(() => {
  fake.payoutDesk.rejection = null;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const db = () => t.database.db;
const yookassa = () => t.app.services.payments.providers.byName('yookassa') as YookassaProvider;
const available = (user: UserRow) => balanceOf(db(), { kind: 'available', userId: user.id });
const held = (user: UserRow) => balanceOf(db(), { kind: 'withdrawal_hold', userId: user.id });
const withdrawalOf = async (id: string) => (await db().select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;

async function call(user: UserRow, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await t.app.services.tokens.sign(user)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

/** A seller with 5 000 ₽ on the balance. */
async function seller(): Promise<UserRow> {
  const user = await createUser(db(), { role: 'seller' });
  await t.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `test-fund:${user.id}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -500_000 },
        { account: { kind: 'available', userId: user.id }, amount: 500_000 },
      ],
    }),
  );
  return user;
}

/** What the payout widget does in the browser: the card number to ЮKassa (the fake), a token and a mask back. */
async function tokenise(number = CARD_NUMBER) {
  const res = await fetch(`${fake.url}/payouts-data/tokens`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ account_id: fake.agentId, card_number: number }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { payout_token: string; first6: string; last4: string; card_type: string };
}

async function askCard(user: UserRow) {
  const { payout_token, first6, last4, card_type } = await tokenise();
  const asked = await call(user, 'POST', '/api/withdrawals', { amount: 500_000, method: 'card', payout_token, card: { first6, last4, card_type } });
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  return { id: asked.body.result._id as string, token: payout_token, asked };
}

async function approve(id: string) {
  const decided = await call(admin, 'POST', `/api/admin/withdrawals/${id}/approve`);
  expect(decided.status, JSON.stringify(decided.body)).toBe(200);
  return decided.body.result;
}

async function sent(id: string) {
  await until(async () => (await withdrawalOf(id)).payoutRef !== null);
  return fake.payoutDesk.payouts.get((await withdrawalOf(id)).payoutRef!)!;
}

const lettersTo = (user: UserRow) => letters.filter((l) => l.to === user.email);
const clean = async () => expect((await checkLedger(db())).problems).toEqual([]);

describe('a card withdrawal through ЮKassa’s payouts', () => {
  it('offers ЮKassa’s widget with the payouts gateway’s id', async () => {
    const user = await seller();
    const balance = await call(user, 'GET', '/api/finance/balance');
    // And the shop's, for which it tokenises a card a safe deal's payout goes to (ADR 053).
    expect(balance.body.result.card_widget).toEqual({ script_url: `${fake.url}/payouts-data/3.1.0/widget.js`, account_id: fake.agentId, deal_account_id: fake.shopId });
    expect(balance.body.result.saved_method).toBeNull();
    const script = await fetch(balance.body.result.card_widget.script_url);
    expect(await script.text()).toContain('window.PayoutsData = PayoutsData');
  });

  it('keeps the token and the mask; approved, it is a payout to the token under the withdrawal’s key, paid when ЮKassa says so', async () => {
    const user = await seller();
    const { id, token, asked } = await askCard(user);
    expect(asked.body.result).toMatchObject({ destination: '220220 •• 7895', card_type: 'MIR', status: 'pending' });
    expect(await withdrawalOf(id)).toMatchObject({ destination: '220220******7895', payoutToken: token, cardType: 'MIR' });
    expect(await approve(id)).toMatchObject({ status: 'sending' });
    const payout = await sent(id);
    expect(payout).toMatchObject({
      status: 'pending',
      amount: { value: '5000.00', currency: 'RUB' },
      payout_destination: { type: 'bank_card', card: { first6: '220220', last4: '7895' } },
      metadata: { withdrawalId: id },
    });
    expect(fake.requests.filter((r) => r.path === '/v3/payouts').map((r) => r.key)).toContain(`payout-${id}`);
    expect(await held(user)).toBe(500_000); // on its way
    await fake.payoutDesk.succeedPayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'approved');
    expect(await held(user)).toBe(0);
    expect(await available(user)).toBe(0);
    // The card is offered again, and a later payout of the seller's share can go to it (the payments port).
    const port = await t.app.services.payments.savedPayoutMethod(user.id);
    expect(port).toEqual({ method: 'card', payout_token: token, first6: '220220', last4: '7895', card_type: 'MIR' });
    expect((await call(user, 'GET', '/api/finance/balance')).body.result.saved_method).toEqual(port);
    await clean();
  });

  it('cancelled by ЮKassa, the money returns to the balance and the seller gets a letter', async () => {
    const user = await seller();
    const { id } = await askCard(user);
    await approve(id);
    const payout = await sent(id);
    const before = lettersTo(user).length;
    await fake.payoutDesk.cancelPayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'returned');
    expect(await withdrawalOf(id)).toMatchObject({ rejectReason: PAYMENT_MESSAGES.payoutReturned });
    expect(await available(user)).toBe(500_000);
    expect(await held(user)).toBe(0);
    await until(async () => lettersTo(user).length > before);
    await clean();
  });

  it('refused by ЮKassa (a 4xx), the money returns at once, with a letter, and nothing is retried', async () => {
    fake.payoutDesk.rejection = 'error';
    const user = await seller();
    const { id } = await askCard(user);
    const before = lettersTo(user).length;
    await approve(id);
    await until(async () => (await withdrawalOf(id)).status === 'returned');
    expect((await withdrawalOf(id)).payoutRef).toBeNull();
    expect(fake.payoutDesk.forWithdrawal(id)).toBeUndefined();
    expect(await available(user)).toBe(500_000);
    await until(async () => lettersTo(user).length > before);
    await clean();
  });

  it('a 500 is retried with the same key: one payout', async () => {
    fake.failNext(2, 'status500');
    const user = await seller();
    const { id } = await askCard(user);
    await approve(id);
    const payout = await sent(id);
    const keys = fake.requests.filter((r) => r.method === 'POST' && r.key === `payout-${id}`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect([...fake.payoutDesk.payouts.values()].filter((p) => p.metadata?.withdrawalId === id)).toEqual([payout]);
    await fake.payoutDesk.succeedPayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'approved');
  });

  it('a notification from an allowed address that the API contradicts changes nothing', async () => {
    const user = await seller();
    const { id } = await askCard(user);
    await approve(id);
    const payout = await sent(id);
    for (const event of ['payout.succeeded', 'payout.canceled']) {
      const status = await fake.sendRaw({ type: 'notification', event, object: { ...payout, status: event.slice(7) } });
      expect(status).toBe(200);
    }
    expect((await withdrawalOf(id)).status).toBe('sending'); // ЮKassa's GET still says pending
    expect(await held(user)).toBe(500_000);
    await fake.payoutDesk.succeedPayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'approved');
    await clean();
  });
});

describe('a ЮMoney wallet withdrawal', () => {
  it('is a payout to the wallet’s number, offered again next time', async () => {
    const user = await seller();
    const asked = await call(user, 'POST', '/api/withdrawals', { amount: 500_000, method: 'yoomoney', destination: '4100 1175 8831 136' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const id = asked.body.result._id as string;
    expect(asked.body.result).toMatchObject({ method: 'yoomoney', destination: '410011758831136' });
    await approve(id);
    const payout = await sent(id);
    expect(payout.payout_destination).toEqual({ type: 'yoo_money', account_number: '410011758831136' });
    await fake.payoutDesk.succeedPayout(payout.id);
    await until(async () => (await withdrawalOf(id)).status === 'approved');
    expect(await t.app.services.payments.savedPayoutMethod(user.id)).toEqual({ method: 'yoomoney', destination: '410011758831136' });
  });

  it('refuses a number that is no wallet', async () => {
    const user = await seller();
    const short = await call(user, 'POST', '/api/withdrawals', { amount: 500_000, method: 'yoomoney', destination: '4100123' });
    expect(short.status).toBe(400);
    expect(short.body.errors.destination).toEqual([PAYMENT_MESSAGES.walletNumber]);
  });
});

describe('a self-employed seller’s receipts', () => {
  it('refuses an INN whose check digits are wrong, and both or neither of INN and phone', async () => {
    const user = await seller();
    for (const [body, field, message] of [
      [{ itn: '500100732258' }, 'itn', PAYMENT_MESSAGES.innInvalid],
      [{ itn: '500100732259', phone: '+79001234567' }, 'itn', PAYMENT_MESSAGES.innOrPhone],
      [{}, 'itn', PAYMENT_MESSAGES.innOrPhone],
      [{ phone: '12345' }, 'phone', PAYMENT_MESSAGES.phoneInvalid],
    ] as const) {
      const res = await call(user, 'PUT', '/api/finance/self-employed', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors[field]).toEqual([message]);
    }
  });

  it('registered by INN at ЮKassa, pending until confirmed in «Мой налог»; confirmed, the payout carries the receipt', async () => {
    const user = await seller();
    expect((await call(user, 'GET', '/api/finance/self-employed')).body.result).toBeNull();
    const declared = await call(user, 'PUT', '/api/finance/self-employed', { itn: '500100732259' });
    expect(declared.status, JSON.stringify(declared.body)).toBe(200);
    expect(declared.body.result).toMatchObject({ status: 'pending', itn: '500100732259', phone: null });
    expect(declared.body.result.confirmation_url).toMatch(/^https:\/\//);
    const person = [...fake.payoutDesk.selfEmployed.values()].find((p) => p.itn === '500100732259')!;
    expect(fake.requests.find((r) => r.path === '/v3/self_employed' && r.method === 'POST')?.key).toMatch(/^self-employed-/);

    // Still pending: a payout without a receipt.
    const first = await askCard(user);
    await approve(first.id);
    const plain = await sent(first.id);
    expect(plain.self_employed).toBeUndefined();
    await fake.payoutDesk.succeedPayout(plain.id);
    await until(async () => (await withdrawalOf(first.id)).status === 'approved');

    fake.payoutDesk.setSelfEmployed(person.id, 'confirmed');
    expect((await call(user, 'GET', '/api/finance/self-employed')).body.result).toMatchObject({ status: 'confirmed', confirmation_url: null });
    await t.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
      postTransfer(tx, {
        kind: 'adjustment',
        key: `test-fund-again:${user.id}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -500_000 },
          { account: { kind: 'available', userId: user.id }, amount: 500_000 },
        ],
      }),
    );
    const second = await askCard(user);
    await approve(second.id);
    const receipted = await sent(second.id);
    expect(receipted).toMatchObject({ self_employed: { id: person.id }, receipt: { service_name: 'Услуги на бирже Подряд' } });
    await fake.payoutDesk.succeedPayout(receipted.id);
    await until(async () => (await withdrawalOf(second.id)).status === 'approved');
    await clean();
  });
});

describe('no card number anywhere (ADR 050)', () => {
  it('refuses a card number in any field of a withdrawal', async () => {
    const user = await seller();
    const card = { first6: '220220', last4: '7895' };
    for (const body of [
      { method: 'card', destination: CARD_NUMBER },
      { method: 'card', payout_token: `token ${CARD_NUMBER.replace(/(\d{4})/g, '$1 ')}`, card },
      { method: 'card', payout_token: 'pt-1', card: { ...card, card_type: CARD_NUMBER } },
      { method: 'card', payout_token: 'pt-1', card, card_number: CARD_NUMBER },
      { method: 'yoomoney', destination: CARD_NUMBER },
      { method: 'usdt', destination: CARD_NUMBER },
      { method: 'btc', destination: `bc1q ${CARD_NUMBER}` },
    ]) {
      const res = await call(user, 'POST', '/api/withdrawals', { amount: 60_000, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await available(user)).toBe(500_000);
  });

  it('migration 0024 leaves a card withdrawal made before only its mask', async () => {
    const user = await seller();
    const [old] = await db().insert(withdrawals).values({ userId: user.id, amount: 60_000, method: 'card', destination: CARD_NUMBER }).returning();
    const masking = readFileSync(new URL('../../db/migrations/0024_card_payouts.sql', import.meta.url), 'utf8')
      .split('--> statement-breakpoint')
      .find((part) => part.includes('UPDATE "withdrawals"'))!;
    await db().execute(sql.raw(masking));
    expect((await withdrawalOf(old!.id)).destination).toBe('220220******7895');
  });

  it('no withdrawal row holds a Luhn-valid 13–19 digit run', async () => {
    const rows = await db().select().from(withdrawals);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      for (const field of [row.destination, row.cardType ?? '']) {
        // A ЮMoney wallet starting 4100 may pass Luhn's check by chance: it is a wallet's number, not a card's.
        if (row.method === 'yoomoney' && field === row.destination) continue;
        expect(looksLikeCardNumber(field), `${row.id}: ${field}`).toBe(false);
      }
      // A token's dash-separated groups may join into a Luhn-valid run by chance (`pt-<uuid>`): read as a token.
      expect(tokenLooksLikeCardNumber(row.payoutToken ?? ''), `${row.id}: ${row.payoutToken}`).toBe(false);
    }
  });
});

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
