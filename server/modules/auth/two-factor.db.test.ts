import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestApp } from '../../test/app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { call, login, randomAddress } from '../../test/api.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { auditLog } from '../../platform/schema.ts';
import { systemActor } from '../../platform/actor.ts';
import { postTransfer } from '../ledger/index.ts';
import type { UserRow } from '../users/index.ts';
import { twoFactorRecoveryCodes, twoFactorTotp } from './schema.ts';
import { codeAt } from './totp.ts';
import { TEST_TOTP_SECRET, challengeFor, freshCode, stepUpTokenFor } from './testing.ts';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_PAIR } from './two-factor.ts';
import { TWO_FACTOR_CODES, TWO_FACTOR_MESSAGES as M } from '#contract/two-factor';

// ADR 054: TOTP turned on in the settings, the sign-in's second step, its limits, replay, recovery codes, step-up
// before money and account changes, the admins' gate and an admin's reset.

let sink: SmtpSink;
let t: Awaited<ReturnType<typeof createTestApp>>;
const db = () => t.database.db;
const sign = (user: UserRow) => t.app.services.tokens.sign(user);
const nextStepCode = (secret: string) => codeAt(secret, Date.now() + 30_000);

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** A person who turned TOTP on through the API: their row, session token, secret and recovery codes. */
async function withTotp() {
  const user = await createUser(db());
  const token = await sign(user);
  const setup = await call<{ secret: string; uri: string; qr_svg: string }>(t.app, 'POST', '/api/auth/two-factor/setup', { token, body: { password: DEFAULT_PASSWORD } });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const { secret } = setup.body.result;
  const enabled = await call<{ recovery_codes: string[] }>(t.app, 'POST', '/api/auth/two-factor/enable', { token, body: { code: codeAt(secret) } });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { user, token, secret, recovery: enabled.body.result.recovery_codes };
}

const challengeOf = async (email: string, remoteAddress = randomAddress()) => {
  const res = await login(t.app, email, DEFAULT_PASSWORD, { remoteAddress });
  expect(res.status).toBe(200);
  return (res.body.result as unknown as { two_factor: { challenge: string; methods: string[] } }).two_factor;
};
const second = (challenge: string, code: string, remoteAddress = randomAddress()) =>
  call<string>(t.app, 'POST', '/api/auth/login/two-factor', { body: { challenge, code }, remoteAddress });

describe('turning TOTP on', () => {
  it('counts only after a first code; shows a QR code and the secret; ten recovery codes, stored hashed', async () => {
    const user = await createUser(db());
    const token = await sign(user);
    expect((await call(t.app, 'POST', '/api/auth/two-factor/setup', { token, body: { password: 'wrong-pass-1' } })).status).toBe(400);
    const setup = await call<{ secret: string; uri: string; qr_svg: string }>(t.app, 'POST', '/api/auth/two-factor/setup', { token, body: { password: DEFAULT_PASSWORD } });
    const { secret, uri, qr_svg } = setup.body.result;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain(`secret=${secret}`);
    expect(qr_svg).toMatch(/^<svg/);
    // Pending: the password alone still signs in, and the status says off.
    expect(typeof (await login(t.app, user.email, DEFAULT_PASSWORD)).body.result).toBe('string');
    expect((await call<{ enabled: boolean }>(t.app, 'GET', '/api/auth/two-factor', { token })).body.result.enabled).toBe(false);
    const wrong = await call(t.app, 'POST', '/api/auth/two-factor/enable', { token, body: { code: '000000' === codeAt(secret) ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(M.wrongCode);
    const enabled = await call<{ recovery_codes: string[] }>(t.app, 'POST', '/api/auth/two-factor/enable', { token, body: { code: codeAt(secret) } });
    expect(enabled.status).toBe(200);
    const codes = enabled.body.result.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const stored = await db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replaceAll('-', ''));
    const status = await call<{ enabled: boolean; recovery_codes_left: number }>(t.app, 'GET', '/api/auth/two-factor', { token });
    expect(status.body.result).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await call<{ two_factor: boolean }>(t.app, 'GET', '/api/users/me/', { token })).body.result.two_factor).toBe(true);
    const [audited] = await db().select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'user.two_factor_on')));
    expect(audited).toBeDefined();
  });

  it('turning off needs the password and a current code', async () => {
    const { user, token, secret } = await withTotp();
    expect((await call(t.app, 'POST', '/api/auth/two-factor/disable', { token, body: { password: 'wrong-pass-1', code: nextStepCode(secret) } })).status).toBe(400);
    expect((await call(t.app, 'POST', '/api/auth/two-factor/disable', { token, body: { password: DEFAULT_PASSWORD, code: '12345' } })).status).toBe(400);
    const off = await call(t.app, 'POST', '/api/auth/two-factor/disable', { token, body: { password: DEFAULT_PASSWORD, code: nextStepCode(secret) } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(typeof (await login(t.app, user.email, DEFAULT_PASSWORD)).body.result).toBe('string');
    expect(await db().select().from(twoFactorTotp).where(eq(twoFactorTotp.userId, user.id))).toEqual([]);
  });
});

describe('signing in with a second factor', () => {
  it('the password earns a challenge, not a token; the right code gives the token; a used code is refused', async () => {
    const { user, secret } = await withTotp();
    const { challenge, methods } = await challengeOf(user.email);
    expect(methods).toEqual(['totp', 'recovery']);
    // The challenge is not a session, and a session token is not a challenge.
    expect((await call(t.app, 'GET', '/api/users/me/', { token: challenge })).status).toBe(401);
    expect((await second(await sign(user), nextStepCode(secret))).body.message).toBe(M.challengeExpired);
    // One code for both tries: drawn again, it is the next step's once a step boundary has passed meanwhile.
    const code = nextStepCode(secret);
    const ok = await second(challenge, code);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await t.app.services.tokens.verify(ok.body.result))?.sub).toBe(user.id);
    // The same code (its time step) again, even with a new challenge: refused.
    const replay = await second((await challengeOf(user.email)).challenge, code);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe(M.codeUsed);
  });

  it('a recovery code works once, in any case and with or without dashes', async () => {
    const { user, recovery } = await withTotp();
    const typed = recovery[0]!.toUpperCase().replaceAll('-', ' ');
    expect((await second((await challengeOf(user.email)).challenge, typed)).status).toBe(200);
    const again = await second((await challengeOf(user.email)).challenge, recovery[0]!);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(M.wrongCode);
    expect((await second((await challengeOf(user.email)).challenge, recovery[1]!)).status).toBe(200);
  });

  it('wrong codes: the address is refused for the account, the owner elsewhere gets in; the account is limited until a password reset', async () => {
    const { user, secret } = await withTotp();
    const { challenge } = await challengeOf(user.email);
    const a = '203.0.113.70';
    const fromA = [];
    for (let i = 0; i < CODE_FAILURES_PER_PAIR + 2; i++) fromA.push((await second(challenge, '999999' === nextStepCode(secret) ? '888888' : '999999', a)).status);
    expect(fromA).toEqual([...Array(CODE_FAILURES_PER_PAIR).fill(400), 429, 429]);
    // Even the right code from A waits; from B it gets in.
    expect((await second(challenge, nextStepCode(secret), a)).status).toBe(429);
    expect((await second(challenge, nextStepCode(secret), '198.51.100.70')).status).toBe(200);
    // Guesses from many addresses use up the account's allowance…
    for (let i = 0; i < CODE_FAILURES_PER_ACCOUNT; i++) await second(challenge, '000001', `198.51.100.${100 + i}`);
    const limited = await second(challenge, await freshCode(db(), user.id, secret), '198.51.100.250');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(M.tooManyCodes);
    // …until the owner resets the password by email: the old challenges die with the old token version, and the
    // owner's new attempts count afresh.
    await t.app.services.auth.revokeSessions(user.id);
    expect((await second(challenge, await freshCode(db(), user.id, secret), '198.51.100.251')).body.message).toBe(M.challengeExpired);
    const fresh = await challengeOf(user.email, '198.51.100.252');
    expect((await second(fresh.challenge, await freshCode(db(), user.id, secret), '198.51.100.252')).status).toBe(200);
  });

  it('an account without a second factor still gets its token from the password (SPEC shape)', async () => {
    const user = await createUser(db());
    const res = await login(t.app, user.email, DEFAULT_PASSWORD);
    expect(res.status).toBe(200);
    expect(typeof res.body.result).toBe('string');
    // A forged challenge for it leads nowhere.
    expect((await second(await challengeFor(TEST_SECRET, user), '123456')).body.message).toBe(M.challengeExpired);
  });
});

describe('step-up', () => {
  const withdrawal = { amount: 60_000, method: 'card', payout_token: 'pt-sandbox-1', card: { first6: '411111', last4: '1111' } };
  async function fund(user: UserRow, amount: number) {
    await t.app.services.platform.withTx(systemActor('test'), ({ tx }) =>
      postTransfer(tx, {
        kind: 'adjustment',
        key: `test-fund:${user.id}`,
        legs: [
          { account: { kind: 'external', method: 'card' }, amount: -amount },
          { account: { kind: 'available', userId: user.id }, amount },
        ],
      }),
    );
  }

  it('a withdrawal needs a fresh second factor: 403 step_up_required, then accepted with the step-up cookie or header', async () => {
    const { user, token, secret } = await withTotp();
    await fund(user, 500_000);
    const refused = await call(t.app, 'POST', '/api/withdrawals', { token, body: withdrawal });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: M.stepUpRequired, code: TWO_FACTOR_CODES.stepUpRequired });
    expect((await call(t.app, 'POST', '/api/auth/step-up', { token, body: { code: '000002' } })).status).toBe(400);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/step-up', headers: { authorization: `Bearer ${token}` }, payload: { code: nextStepCode(secret) } });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'step_up')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api', maxAge: 300 });
    const viaCookie = await call(t.app, 'POST', '/api/withdrawals', { token, body: withdrawal, headers: { cookie: `step_up=${cookie.value}` } });
    expect(viaCookie.status, JSON.stringify(viaCookie.body)).toBe(200);
    const viaHeader = await call(t.app, 'POST', '/api/withdrawals', { token, body: withdrawal, headers: { 'x-step-up': res.json().result.token } });
    expect(viaHeader.status).toBe(200);
    // Someone else's step-up, or one from before the sessions ended, counts for nothing.
    const stranger = await createUser(db(), { twoFactor: true });
    expect((await call(t.app, 'POST', '/api/withdrawals', { token: await sign(stranger), body: withdrawal, headers: { 'x-step-up': cookie.value } })).status).toBe(403);
    await t.app.services.auth.revokeSessions(user.id);
    const [row] = await db().select().from(twoFactorTotp).where(eq(twoFactorTotp.userId, user.id));
    expect(row).toBeDefined();
    const renewed = { ...user, tokenVersion: user.tokenVersion + 1 };
    expect((await call(t.app, 'POST', '/api/withdrawals', { token: await sign(renewed), body: withdrawal, headers: { cookie: `step_up=${cookie.value}` } })).body.code).toBe(TWO_FACTOR_CODES.stepUpRequired);
  });

  it('payout details, email and password changes need it too; a person without a factor is not asked', async () => {
    const { user, token } = await withTotp();
    const asks = [
      ['PUT', '/api/finance/self-employed', { phone: '+7 900 123-45-67' }],
      ['PUT', '/api/users/me/email', { email: `new_${user.id.slice(0, 8)}@example.com`, password: DEFAULT_PASSWORD }],
      ['PUT', '/api/users/me/password', { current_password: DEFAULT_PASSWORD, password: 'new-secret-123', repeat_password: 'new-secret-123' }],
    ] as const;
    for (const [method, url, body] of asks) {
      const res = await call(t.app, method, url, { token, body });
      expect(res.status, url).toBe(403);
      expect(res.body.code, url).toBe(TWO_FACTOR_CODES.stepUpRequired);
    }
    const stepUp = await stepUpTokenFor(TEST_SECRET, user);
    const email = await call(t.app, 'PUT', '/api/users/me/email', { token, body: asks[1][2], headers: { 'x-step-up': stepUp } });
    expect(email.status, JSON.stringify(email.body)).toBe(200);
    const plain = await createUser(db());
    expect((await call(t.app, 'PUT', '/api/users/me/email', { token: await sign(plain), body: { email: `p_${plain.id.slice(0, 8)}@example.com`, password: DEFAULT_PASSWORD } })).status).toBe(200);
  });

  it('"for everyone" asks a person without a factor to set one up first', async () => {
    const plain = await createUser(db());
    const admin = await createUser(db(), { role: 'admin' });
    const adminToken = await sign(admin);
    expect((await call(t.app, 'PUT', '/api/admin/settings', { token: adminToken, body: { 'twoFactor.everyone': true } })).status).toBe(200);
    try {
      const res = await call(t.app, 'PUT', '/api/users/me/email', { token: await sign(plain), body: { email: `e_${plain.id.slice(0, 8)}@example.com`, password: DEFAULT_PASSWORD } });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(TWO_FACTOR_CODES.setupRequired);
    } finally {
      await call(t.app, 'PUT', '/api/admin/settings', { token: adminToken, body: { 'twoFactor.everyone': false } });
    }
  });
});

describe('administrators', () => {
  it('an admin without a second factor gets 403 two_factor_setup_required from the admin API until they set one up', async () => {
    const admin = await createUser(db(), { role: 'admin', twoFactor: false });
    const token = await sign(admin);
    const refused = await call(t.app, 'GET', '/api/admin/users', { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: TWO_FACTOR_CODES.setupRequired, message: M.setupRequired });
    // Unknown admin paths say the same, and what the admin needs to set up stays open.
    expect((await call(t.app, 'GET', '/api/admin/nothing-here', { token })).status).toBe(403);
    expect((await call<{ required: boolean }>(t.app, 'GET', '/api/auth/two-factor', { token })).body.result.required).toBe(true);
    const setup = await call<{ secret: string }>(t.app, 'POST', '/api/auth/two-factor/setup', { token, body: { password: DEFAULT_PASSWORD } });
    await call(t.app, 'POST', '/api/auth/two-factor/enable', { token, body: { code: codeAt(setup.body.result.secret) } });
    expect((await call(t.app, 'GET', '/api/admin/users', { token })).status).toBe(200);
  });

  it('the operator may turn the admins\u2019 requirement off', async () => {
    const admin = await createUser(db(), { role: 'admin' });
    const plainAdmin = await createUser(db(), { role: 'admin', twoFactor: false });
    const token = await sign(admin);
    await call(t.app, 'PUT', '/api/admin/settings', { token, body: { 'twoFactor.admins': false } });
    try {
      expect((await call(t.app, 'GET', '/api/admin/users', { token: await sign(plainAdmin) })).status).toBe(200);
    } finally {
      await call(t.app, 'PUT', '/api/admin/settings', { token, body: { 'twoFactor.admins': true } });
    }
    expect((await call(t.app, 'GET', '/api/admin/users', { token: await sign(plainAdmin) })).status).toBe(403);
  });

  it('an admin resets a person\u2019s factor: audited, a letter, their sessions end; not their own', async () => {
    const admin = await createUser(db(), { role: 'admin' });
    const adminToken = await sign(admin);
    const { user, token } = await withTotp();
    const res = await call<{ two_factor: boolean }>(t.app, 'DELETE', `/api/admin/users/${user.id}/two-factor`, { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.two_factor).toBe(false);
    expect((await call(t.app, 'GET', '/api/users/me/', { token })).status).toBe(401);
    expect(typeof (await login(t.app, user.email, DEFAULT_PASSWORD)).body.result).toBe('string');
    const [audited] = await db().select().from(auditLog).where(and(eq(auditLog.targetId, user.id), eq(auditLog.action, 'user.two_factor_reset')));
    expect(audited?.actorId).toBe(admin.id);
    const letter = await sink.waitFor((m) => m.to.includes(user.email) && m.subject.includes('Двухфакторная защита сброшена'));
    expect(letter.text).toContain('/profile/settings');
    expect((await call(t.app, 'DELETE', `/api/admin/users/${user.id}/two-factor`, { token: adminToken })).status).toBe(400);
    expect((await call(t.app, 'DELETE', `/api/admin/users/${admin.id}/two-factor`, { token: adminToken })).status).toBe(400);
    expect((await call(t.app, 'DELETE', `/api/admin/users/${user.id}/two-factor`, { token })).status).toBe(401);
    expect(TEST_TOTP_SECRET).toMatch(/^[A-Z2-7]+$/);
  });
});
