import { eq, sql } from 'drizzle-orm';
import { enrolTotp, TEST_TOTP_SECRET } from '../auth/index.ts';
import { describe, expect, it } from 'vitest';
import { type Person } from '../../test/app.ts';
import { useTestApp } from '../../test/use-app.ts';
import { call, login } from '../../test/api.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { DEFAULT_PASSWORD } from '../../db/factories.ts';
import { payOrderForTest } from '../orders/testing.ts';
import { chats, messages } from '../chat/schema.ts';
import { checkLedger } from '../ledger/index.ts';
import { auditLog, outbox, sessions } from '../../platform/schema.ts';
import { createSession } from '../../platform/sessions.ts';
import type { OrderDetail } from '#contract/orders';
import { PRIVACY_MESSAGES, type DeletionRequest } from '#contract/privacy';
import { privacyConsents } from './schema.ts';
import { selfEmployed } from '../payments/schema.ts';
import { bids } from '../bids/schema.ts';
import { offers } from '../offers/schema.ts';
import { projects } from '../projects/schema.ts';

const server = useTestApp({}, { dispatch: false });
const post = <T>(who: Person, url: string, body: unknown = {}) => call<T>(server.app, 'POST', url, { token: who.token, body });
const DAY = 86_400_000;
const PHONE = '+7 916 555-44-33';

/** Every text-like column of every table that holds `needle` anywhere, as "table.column". */
async function columnsHolding(needle: string): Promise<string[]> {
  const columns = (await server.db.execute(sql`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      and (c.data_type in ('text', 'character varying', 'jsonb', 'json') or c.udt_name in ('_text', '_varchar'))`)) as unknown as { rows: { table_name: string; column_name: string }[] };
  const found: string[] = [];
  for (const { table_name, column_name } of columns.rows) {
    const hit = (await server.db.execute(
      sql`select 1 from ${sql.identifier(table_name)} where strpos(lower(${sql.identifier(column_name)}::text), lower(${needle})) > 0 limit 1`,
    )) as unknown as { rows: unknown[] };
    if (hit.rows.length) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

/**
 * A customer who completed an order, wrote to the seller (with a phone number), asked to change the seller's offer
 * (with it again) and reviewed; they have a project too.
 */
async function customerWithHistory() {
  const seller = await server.person({ role: 'seller' });
  const customer = await server.person({ name: 'Феофания', surname: 'Удаляева' });
  const service = await createService(server.db, seller.user.id, { price: 100_000, days: 3, revisions: 1 });
  const own = await createService(server.db, customer.user.id, { status: 'active' });
  const project = await createProject(server.db, customer.user.id, {});
  const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
  const orderId = ordered.body.result._id;
  await payOrderForTest(server.app, orderId);
  expect((await post(seller, `/api/orders/${orderId}/deliver`, { message: 'Готово' })).status).toBe(200);
  expect((await post(customer, `/api/orders/${orderId}/accept`)).status).toBe(200);
  expect((await post(customer, `/api/orders/${orderId}/reviews`, { rating: 5, text: 'Спасибо, Феофания довольна' })).status).toBe(200);
  const offer = await post<{ _id: string }>(seller, `/api/orders/${orderId}/offers`, { title: 'Визитки', description: 'Визитки к логотипу', price: 50_000, days: 2 });
  expect(offer.status, JSON.stringify(offer.body)).toBe(200);
  expect((await post(customer, `/api/offers/${offer.body.result._id}/change`, { comment: `Феофания: обсудим по ${PHONE}` })).status).toBe(200);
  const [chat] = await server.db.select().from(chats).where(eq(chats.orderId, orderId));
  await server.db.insert(messages).values({ chatId: chat!.id, senderId: customer.user.id, message: `Феофания Удаляева, звоните ${PHONE}` });
  return { seller, customer, service, own, project, orderId };
}

describe('account deletion', () => {
  it('is refused without the password, while an order is under way, and for an admin; in Russian', async () => {
    const seller = await server.person({ role: 'seller' });
    const customer = await server.person();
    expect((await post(customer, '/api/privacy/deletion', { password: 'wrong-one-1' })).status).toBe(400);
    const service = await createService(server.db, seller.user.id, { price: 100_000 });
    const ordered = await post<OrderDetail>(customer, '/api/orders', { service_id: service.id });
    await payOrderForTest(server.app, ordered.body.result._id);
    const open = await post(customer, '/api/privacy/deletion', { password: DEFAULT_PASSWORD });
    expect(open.status).toBe(409);
    expect(open.body).toMatchObject({ message: PRIVACY_MESSAGES.deletionOpenOrders });
    const admin = await server.person({ role: 'admin' });
    expect((await post(admin, '/api/privacy/deletion', { password: DEFAULT_PASSWORD })).body).toMatchObject({ message: PRIVACY_MESSAGES.deletionAdmin });
  });

  it('waits out the cooling-off period, can be cancelled, then anonymises the person everywhere; the ledger stays whole', async () => {
    const { customer, own, project } = await customerWithHistory();
    const requested = await post<DeletionRequest>(customer, '/api/privacy/deletion', { password: DEFAULT_PASSWORD });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const due = Date.parse(requested.body.result.due_at);
    expect(due - Date.parse(requested.body.result.requested_at)).toBe(14 * DAY);
    // The person is told by letter, with the date and how to cancel: it may not have been them who asked.
    const letters = (await server.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.kind, 'letter'))).map((r) => r.payload as { to: string; letter: { subject: string } });
    expect(letters.filter((l) => l.to === customer.user.email && l.letter.subject.startsWith('Запрос на удаление аккаунта'))).toHaveLength(1);
    // Cancelled, and asked again.
    expect((await call(server.app, 'DELETE', '/api/privacy/deletion', { token: customer.token })).status).toBe(200);
    expect((await post(customer, '/api/privacy/deletion', { password: DEFAULT_PASSWORD })).status).toBe(200);
    const { privacy } = server.app.services;
    // A sign-in's session: its network and device are forgotten with the account (ADR 055).
    await createSession(server.db, customer.user.id, { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0' });
    // A second factor: shown in the export, gone with the account (ADR 054).
    await enrolTotp(server.db, customer.user.id, TEST_TOTP_SECRET);
    const exported = await server.app.inject({ method: 'GET', url: '/api/privacy/export', headers: { authorization: `Bearer ${customer.token}` } });
    expect((JSON.parse(exported.body) as { second_factors: { totpSince: string | null } }).second_factors.totpSince).toBeTruthy();
    // Not before the deadline.
    expect(await privacy.anonymiseDue(new Date(due - DAY))).toBe(0);
    expect(await columnsHolding(customer.user.email)).not.toEqual([]);
    expect(await privacy.anonymiseDue(new Date(due + 15 * DAY))).toBe(1);

    for (const needle of [customer.user.email, customer.user.userName, 'Феофания', 'Удаляева', PHONE]) {
      expect(await columnsHolding(needle), needle).toEqual([]);
    }
    expect((await checkLedger(server.db)).problems).toEqual([]);
    // The offer she had asked to change waits for nobody now (ADR 066).
    expect((await server.db.select({ status: offers.status }).from(offers).where(eq(offers.customerId, customer.user.id))).map((o) => o.status)).toEqual(['withdrawn']);
    const factorsLeft = await server.db.execute(sql`select (select count(*) from two_factor_totp where user_id = ${customer.user.id}) + (select count(*) from passkeys where user_id = ${customer.user.id}) as n`);
    expect(Number((factorsLeft as unknown as { rows: { n: number | string }[] }).rows[0]!.n)).toBe(0);
    // Consents stay, without address and browser.
    const consents = await server.db.select().from(privacyConsents).where(eq(privacyConsents.userId, customer.user.id));
    expect(consents.length).toBeGreaterThan(0);
    expect(consents.every((c) => c.ip === null && c.userAgent === null)).toBe(true);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, customer.user.id))).toEqual([]);
    // Public pages are gone, the old token and password no longer work.
    expect((await call(server.app, 'GET', `/api/users/${customer.user.id}`)).status).toBe(404);
    expect((await call(server.app, 'GET', `/api/services/${own.id}`)).status).toBe(404);
    expect((await call(server.app, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    expect((await call(server.app, 'GET', '/api/privacy/me', { token: customer.token })).status).toBe(401);
    expect((await login(server.app, customer.user.email, DEFAULT_PASSWORD)).status).toBe(400);
    const steps = await server.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, customer.user.id));
    expect(steps.map((s) => s.action).sort()).toEqual(['privacy.anonymise', 'privacy.deletion_cancel', 'privacy.deletion_request', 'privacy.deletion_request']);
  });

  it("erases a seller's bids: their words gone, a live one withdrawn and no longer counted on the project", async () => {
    const customer = await server.person();
    const seller = await server.person({ role: 'seller', name: 'Пафнутий', surname: 'Откликов' });
    const project = await createProject(server.db, customer.user.id, {});
    const phone = '+7 916 111-22-33';
    const bid = await post(seller, `/api/projects/${project.id}/bids`, { price: 150_000, days: 4, comment: `Пафнутий Откликов, звоните ${phone}` });
    expect(bid.status, JSON.stringify(bid.body)).toBe(200);
    const count = async () => (await server.db.select({ n: projects.bidsCount }).from(projects).where(eq(projects.id, project.id)))[0]!.n;
    expect(await count()).toBe(1);
    const requested = await post<DeletionRequest>(seller, '/api/privacy/deletion', { password: DEFAULT_PASSWORD });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    expect(await server.app.services.privacy.anonymiseDue(new Date(Date.parse(requested.body.result.due_at) + DAY))).toBe(1);
    for (const needle of [phone, 'Пафнутий', 'Откликов']) expect(await columnsHolding(needle), needle).toEqual([]);
    const [row] = await server.db.select().from(bids).where(eq(bids.sellerId, seller.user.id));
    expect([row!.status, row!.comment, row!.price]).toEqual(['withdrawn', '', 150_000]);
    expect(await count()).toBe(0);
  });

  it('limits wrong password guesses like sign-ins (429 after ten), forgets self-employed details, and never drops a job or another person\'s letter', async () => {
    const guesser = await server.person();
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await post(guesser, '/api/privacy/deletion', { password: `wrong-guess-${i}` })).status);
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers[10]).toBe(429);
    // The right password is refused too until the window passes: the limit counts before the check.
    expect((await post(guesser, '/api/privacy/deletion', { password: DEFAULT_PASSWORD })).status).toBe(429);

    const leaving = await server.person({ name: 'Гордей', surname: 'Уходящий' });
    const login = leaving.user.userName;
    const now = new Date();
    const kept = await server.db
      .insert(outbox)
      .values([
        // A job naming the login by chance, and a letter to someone else whose address begins with it.
        { kind: 'job', name: 'payments.payout', payload: { withdrawalId: `x-${login}-y` }, dueAt: now },
        { kind: 'letter', name: 'letter', payload: { to: `${login}son@example.org`, subject: 'Заказ' }, dueAt: now },
      ])
      .returning({ id: outbox.id });
    const gone = await server.db
      .insert(outbox)
      .values({ kind: 'letter', name: 'letter', payload: { to: leaving.user.email, subject: 'Гордей Уходящий, ваш заказ' }, dueAt: now })
      .returning({ id: outbox.id });
    // Declared self-employed: the INN and phone go with the account.
    await server.db.insert(selfEmployed).values({ userId: leaving.user.id, itn: '500100732259', phone: '+79165554433', status: 'confirmed' });
    expect((await post(leaving, '/api/privacy/deletion', { password: DEFAULT_PASSWORD })).status).toBe(200);
    expect(await server.app.services.privacy.anonymiseDue(new Date(Date.now() + 30 * DAY))).toBe(1);
    const [declared] = await server.db.select().from(selfEmployed).where(eq(selfEmployed.userId, leaving.user.id));
    expect(declared).toMatchObject({ itn: null, phone: null, status: 'confirmed' });
    const left = new Set((await server.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id));
    expect(kept.every((r) => left.has(r.id))).toBe(true);
    expect(left.has(gone[0]!.id)).toBe(false);
  });
});
