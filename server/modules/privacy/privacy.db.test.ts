import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/use-app.ts';
import { call, register, registration } from '../../test/api.ts';
import { users } from '../users/schema.ts';
import { privacyConsents, privacyDocuments } from './schema.ts';
import { PRIVACY_MESSAGES } from '#contract/privacy';

const t = useTestApp();

const userByEmail = async (email: string) => (await t.db.select().from(users).where(eq(users.email, email)))[0];
const consentsOf = (userId: string) =>
  t.db
    .select({ version: privacyDocuments.version, kind: privacyDocuments.kind, ip: privacyConsents.ip, userAgent: privacyConsents.userAgent, givenAt: privacyConsents.givenAt })
    .from(privacyConsents)
    .innerJoin(privacyDocuments, eq(privacyDocuments.id, privacyConsents.documentId))
    .where(eq(privacyConsents.userId, userId));

describe('consent at registration', () => {
  it('records who consented, to which version, when, from which address and browser', async () => {
    const body = registration();
    const res = await register(t.app, body, { remoteAddress: '10.1.2.3', headers: { 'user-agent': 'Mozilla/5.0 Test' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const user = (await userByEmail(body.email))!;
    const rows = await consentsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'consent', version: 1, ip: '10.1.2.3', userAgent: 'Mozilla/5.0 Test' });
    expect(Math.abs(rows[0]!.givenAt.getTime() - user.createdAt.getTime())).toBeLessThan(60_000);
  });

  it('refuses a registration without the consent, in Russian, and makes no account', async () => {
    for (const consent of [undefined, false, 'on']) {
      const body = registration({ personal_data_consent: consent });
      const res = await register(t.app, body);
      expect(res.status).toBe(400);
      expect(res.body.errors?.personal_data_consent).toEqual([PRIVACY_MESSAGES.consentRequired]);
      expect(await userByEmail(body.email)).toBeUndefined();
    }
  });

  it('writes the account and its consent in one transaction: a consent that fails leaves no account', async () => {
    await t.db.execute(sql`alter table privacy_consents add constraint test_refuse check (user_agent is distinct from 'refuse-me')`);
    try {
      const body = registration();
      const res = await register(t.app, body, { headers: { 'user-agent': 'refuse-me' } });
      expect(res.status).toBe(500);
      expect(await userByEmail(body.email)).toBeUndefined();
    } finally {
      await t.db.execute(sql`alter table privacy_consents drop constraint test_refuse`);
    }
  });
});

describe('versioned texts and consent again', () => {
  it('publishes a new version as a new row, serves it, and asks for consent to it again', async () => {
    const admin = await t.person({ role: 'admin' });
    const member = await t.person();
    const before = await call<{ version: number; body: string }>(t.app, 'GET', '/api/privacy/documents/consent');
    expect(before.status).toBe(200);
    expect(before.body.result.body).toContain('ЮKassa');
    const status0 = await call<{ consent: { version: number; accepted: boolean } }>(t.app, 'GET', '/api/privacy/me', { token: member.token });
    expect(status0.body.result.consent).toEqual({ version: before.body.result.version, accepted: true, title: expect.any(String) });

    const text = { title: 'Согласие на обработку персональных данных', body: 'Новая редакция согласия: добавлен ещё один получатель данных — служба доставки писем.' };
    const published = await call<{ version: number }>(t.app, 'POST', '/api/admin/privacy/documents/consent', { token: admin.token, body: text });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.result.version).toBe(before.body.result.version + 1);
    const versions = await t.db.select().from(privacyDocuments).where(eq(privacyDocuments.kind, 'consent'));
    expect(versions.map((v) => v.version).sort()).toEqual([before.body.result.version, before.body.result.version + 1]);
    expect((await call<{ body: string }>(t.app, 'GET', '/api/privacy/documents/consent')).body.result.body).toBe(text.body);

    const status1 = await call<{ consent: { version: number; accepted: boolean } }>(t.app, 'GET', '/api/privacy/me', { token: member.token });
    expect(status1.body.result.consent).toMatchObject({ version: published.body.result.version, accepted: false });
    // The old version read is refused; the current one recorded.
    const stale = await call(t.app, 'POST', '/api/privacy/consents', { token: member.token, body: { version: before.body.result.version } });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({ message: PRIVACY_MESSAGES.consentOutdated });
    const accepted = await call<{ consent: { accepted: boolean } }>(t.app, 'POST', '/api/privacy/consents', {
      token: member.token,
      body: { version: published.body.result.version },
      headers: { 'user-agent': 'Gate/1.0' },
    });
    expect(accepted.body.result.consent.accepted).toBe(true);
    expect((await consentsOf(member.user.id)).map((c) => [c.version, c.userAgent])).toEqual(
      expect.arrayContaining([[published.body.result.version, 'Gate/1.0']]),
    );
  });

  it('shows the operator the consent records', async () => {
    const admin = await t.person({ role: 'admin' });
    const res = await call<{ user: { _id: string } }[]>(t.app, 'GET', '/api/admin/privacy/consents', { token: admin.token, query: { page: '1' } });
    expect(res.status).toBe(200);
    expect(res.body.result.some((c) => c.user._id === admin.user.id)).toBe(true);
  });
});
