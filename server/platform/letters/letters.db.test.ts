import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { outbox } from '../schema.ts';
import { emailTokens } from '../schema.ts';
import { users, type UserRow } from '../../modules/users/schema.ts';
import { call, register, registration, unique } from '../../test/api.ts';
import { userActor } from '../actor.ts';

// Every letter of the site goes through the outbox: nothing reaches the SMTP server before the dispatcher runs
// (it is stopped here, so each test drives it with runDue), everything does after, and a rollback sends nothing.

let sink: SmtpSink;
let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestApp>>['database']['db'];
let adminToken: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url, PUBLIC_URL: 'http://podryad.test' }, { dispatch: false });
  app = t.app;
  db = t.database.db;
  adminToken = await app.services.tokens.sign(await createUser(db, { role: 'admin' }));
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const runDue = () => app.services.platform.dispatcher.runDue();
const sentTo = (email: string) => sink.messages.filter((m) => m.to.includes(email.toLowerCase()));
const queuedTo = async (email: string) =>
  (await db.select().from(outbox).where(eq(outbox.kind, 'letter'))).filter((r) => (r.payload as { to: string }).to === email.toLowerCase());

/** Queued by the change, nothing sent until the dispatcher runs, then exactly that letter. */
async function deliveredAfterCommit(email: string, subject: string) {
  expect(await queuedTo(email)).toHaveLength(1);
  expect(sentTo(email)).toEqual([]);
  await runDue();
  const letter = await sink.waitFor((m) => m.to.includes(email.toLowerCase()) && m.subject.includes(subject));
  expect(await queuedTo(email)).toEqual([]);
  return letter;
}

async function account(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

describe('each kind of letter is written with its change and delivered after the commit', () => {
  it('registration: the confirmation letter', async () => {
    const body = registration();
    expect((await register(app, body)).status).toBe(200);
    const letter = await deliveredAfterCommit(body.email, 'Подтвердите email');
    expect(letter.links[0]).toMatch(/^http:\/\/podryad\.test\/confirm_account\?token=/);
  });

  it('password recovery: the reset letter', async () => {
    const { user } = await account();
    expect((await call(app, 'POST', '/api/auth/recover', { body: { email: user.email } })).status).toBe(200);
    const letter = await deliveredAfterCommit(user.email, 'Восстановление пароля');
    expect(letter.links[0]).toMatch(/^http:\/\/podryad\.test\/recover\?token=/);
  });

  it('email change: the letter to the new address', async () => {
    const { token } = await account();
    const email = `new_${unique()}@example.com`;
    expect((await call(app, 'PUT', '/api/users/me/email', { token, body: { email, password: DEFAULT_PASSWORD } })).status).toBe(200);
    await deliveredAfterCommit(email, 'Подтвердите новый email');
  });

  it('service and project moderation: the owner’s letters', async () => {
    const { user } = await account({ role: 'seller' });
    const service = await createService(db, user.id, { status: 'moderation', title: 'Логотип <b>за день</b>' });
    expect((await call(app, 'PATCH', `/api/admin/services/${service.id}`, { token: adminToken, body: { status: 'active' } })).status).toBe(200);
    const letter = await deliveredAfterCommit(user.email, 'Услуга прошла модерацию');
    expect(letter.html).toContain('«Логотип &lt;b&gt;за день&lt;/b&gt;»');

    const project = await createProject(db, user.id);
    const hide = { status: 'hidden', reason: 'Контакты <a href="x">в описании</a>' };
    expect((await call(app, 'PATCH', `/api/admin/projects/${project.id}`, { token: adminToken, body: hide })).status).toBe(200);
    expect(await queuedTo(user.email)).toHaveLength(1);
    expect(sentTo(user.email)).toHaveLength(1); // the service's letter only, so far
    await runDue();
    const projectLetter = await sink.waitFor((m) => m.to.includes(user.email) && m.subject.includes('скрыт модератором'));
    expect(projectLetter.html).toContain('Причина: Контакты &lt;a href=&quot;x&quot;&gt;в описании&lt;/a&gt;');
    expect(projectLetter.text).toContain(`http://podryad.test/projects/`);
  });
});

describe('a change that rolls back sends nothing', () => {
  it('a confirmation queued in a transaction that fails leaves no token and no letter', async () => {
    const { user } = await account({ emailConfirmedAt: null });
    const { withTx } = app.services.platform;
    await expect(
      withTx(userActor(user), async () => {
        await app.services.auth.sendConfirmation(user); // joins this transaction
        throw new Error('the change failed after the letter was queued');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.select().from(emailTokens).where(eq(emailTokens.userId, user.id))).toEqual([]);
    expect(await queuedTo(user.email)).toEqual([]);
    await runDue();
    expect(sentTo(user.email)).toEqual([]);
  });
});

describe('email preferences', () => {
  async function switchedOff(token: string) {
    const res = await call<{ preferences: UserRow['preferences'] }>(app, 'PATCH', '/api/users/me', {
      token,
      body: { preferences: { emailNotifications: { moderation: false } } },
    });
    expect(res.status).toBe(200);
  }

  it('a person who switched moderation letters off gets none, the decisions still happen', async () => {
    const { user, token } = await account({ role: 'seller' });
    await switchedOff(token);
    const service = await createService(db, user.id, { status: 'moderation' });
    expect((await call(app, 'PATCH', `/api/admin/services/${service.id}`, { token: adminToken, body: { status: 'rejected', reason: 'Копия' } })).status).toBe(200);
    const project = await createProject(db, user.id);
    expect((await call(app, 'PATCH', `/api/admin/projects/${project.id}`, { token: adminToken, body: { status: 'hidden', reason: 'Спам' } })).status).toBe(200);
    expect(await queuedTo(user.email)).toEqual([]);
    await runDue();
    expect(sentTo(user.email)).toEqual([]);
  });

  it('transactional letters ignore the preferences', async () => {
    const { user, token } = await account();
    await db
      .update(users)
      .set({ preferences: { emailNotifications: { messages: false, orders: false, bids: false, reviews: false, disputes: false, moderation: false, news: false } } })
      .where(eq(users.id, user.id));
    await switchedOff(token);
    expect((await call(app, 'POST', '/api/auth/recover', { body: { email: user.email } })).status).toBe(200);
    await deliveredAfterCommit(user.email, 'Восстановление пароля');
  });
});
