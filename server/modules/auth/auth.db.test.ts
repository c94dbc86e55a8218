import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SignJWT, UnsecuredJWT } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET, createTestApp } from '../../test/app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { createUser, DEFAULT_PASSWORD } from '../../db/factories.ts';
import { users } from '../users/schema.ts';
import { emailTokens } from '../../platform/schema.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { API_ERROR_CODES, MESSAGES } from '#contract/messages';
import { memoryRateLimiter } from '../../lib/rate-limiter.ts';
import { Turnstile } from '../../lib/turnstile.ts';
import {
  AuthService,
  LOGIN_DELAY_BASE_MS,
  LOGIN_DELAY_MAX_MS,
  LOGIN_FAILURES_PER_ADDRESS,
  LOGIN_FAILURES_PER_PAIR,
  LOGIN_FREE_FAILURES,
  REGISTRATIONS_PER_ADDRESS,
  TAKEN_ANSWERS_PER_ADDRESS,
  loginDelayMs,
} from './service.ts';
import { PASSWORD, SUBJECTS, call, letterTo, linkToken, login, me, register, registration, sleep, unique } from '../../test/api.ts';

let sink: SmtpSink;
let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestApp>>['database']['db'];

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url, PUBLIC_URL: 'http://podryad.test' });
  app = t.app;
  db = t.database.db;
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];

/** Registers and returns the body, the token and the confirmation token from the letter. */
async function registered(overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const res = await register(app, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const letter = await letterTo(sink, body.email, SUBJECTS.confirm);
  return { body, token: res.body.result, confirmToken: linkToken(letter, '/confirm_account'), letter };
}

describe('register', () => {
  it('creates an unconfirmed account, answers a working token and mails a confirmation link', async () => {
    const body = registration({ email: `Mixed_${unique()}@Example.COM`, role: 'seller' });
    const res = await register(app, body);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(typeof res.body.result).toBe('string');

    const profile = await me(app, res.body.result);
    expect(profile.status).toBe(200);
    expect(profile.body.result).toMatchObject({
      user_name: body.user_name,
      name: 'Пётр',
      surname: 'Петров',
      email: body.email.toLowerCase(),
      roles: ['seller'],
      active_role: 'seller',
      email_confirmed: false,
      avatar: null,
    });
    expect(profile.body.result).not.toHaveProperty('passwordHash');
    expect(profile.body.result).not.toHaveProperty('password_hash');
    expect(JSON.stringify(profile.body)).not.toContain('argon2');

    const letter = await letterTo(sink, body.email.toLowerCase(), SUBJECTS.confirm);
    expect(letter.subject).toBe('Подтвердите email — Подряд');
    expect(letter.text).toContain('Здравствуйте, Пётр!');
    const link = new URL(letter.links.find((l) => l.includes('/confirm_account'))!);
    expect(link.origin).toBe('http://podryad.test');
    expect(link.pathname).toBe('/confirm_account');
    expect(letter.html).toContain('/confirm_account?token=');

    const confirmed = await call(app, 'POST', '/api/auth/confirm', { body: { token: link.searchParams.get('token') } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result).toEqual({ message: AUTH_MESSAGES.confirmed });
    expect((await me<{ email_confirmed: boolean }>(app, res.body.result)).body.result.email_confirmed).toBe(true);

    // Opened again (issue 15): the address is confirmed, and the page says so rather than that the link is invalid.
    const again = await call(app, 'POST', '/api/auth/confirm', { body: { token: link.searchParams.get('token') } });
    expect(again.status).toBe(200);
    expect(again.body.result).toEqual({ message: 'Email уже подтверждён: ссылка больше не нужна' });
  });

  it('escapes the name in the letter', async () => {
    const { letter } = await registered({ name: '<img src=x onerror=alert(1)>' });
    expect(letter.html).not.toContain('<img src=x');
    expect(letter.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('refuses an expired confirmation link', async () => {
    const { body, token, confirmToken } = await registered();
    const user = (await userByEmail(body.email))!;
    await db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.userId, user.id));
    const res = await call(app, 'POST', '/api/auth/confirm', { body: { token: confirmToken } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.linkInvalid);
    expect((await me<{ email_confirmed: boolean }>(app, token)).body.result.email_confirmed).toBe(false);
  });

  it('refuses made-up, malformed and missing confirmation tokens', async () => {
    const madeUp = await call(app, 'POST', '/api/auth/confirm', { body: { token: 'A'.repeat(43) } });
    expect(madeUp.status).toBe(400);
    expect(madeUp.body.message).toBe(AUTH_MESSAGES.linkInvalid);
    for (const body of [{}, { token: 'short' }, { token: 'x'.repeat(500) }, { token: 42 }]) {
      const res = await call(app, 'POST', '/api/auth/confirm', { body });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty('token');
    }
  });

  it('a newer confirmation letter voids the link of the older one', async () => {
    const { token, confirmToken, body } = await registered();
    await sleep(0);
    const resent = await call(app, 'POST', '/api/auth/confirm/resend', { token });
    expect(resent.status).toBe(200);
    const second = await sink.waitFor((m) => m.to.includes(body.email) && m.subject.includes(SUBJECTS.confirm) && linkToken(m, '/confirm_account') !== confirmToken);
    const old = await call(app, 'POST', '/api/auth/confirm', { body: { token: confirmToken } });
    expect(old.status).toBe(400);
    const fresh = await call(app, 'POST', '/api/auth/confirm', { body: { token: linkToken(second, '/confirm_account') } });
    expect(fresh.status).toBe(200);
  });

  it('answers "Email already exists" for a taken email, in any case', async () => {
    const { body } = await registered();
    const res = await register(app, registration({ email: body.email.toUpperCase() }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(API_ERROR_CODES.emailExists);
    expect(res.body.message).toBe('Email already exists');
  });

  it('answers "User name already exists" for a taken login, in any case', async () => {
    const { body } = await registered();
    const res = await register(app, registration({ user_name: body.user_name.toUpperCase() }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('User name already exists');
  });

  it('reports the email first when the email and the login are taken by two different accounts', async () => {
    const byLogin = await createUser(db, { userName: `aaa_${unique()}` });
    const byEmail = await createUser(db, { userName: `zzz_${unique()}` });
    const res = await register(app, registration({ email: byEmail.email, user_name: byLogin.userName }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Email already exists');
  });

  it('two simultaneous registrations of one email make one account', async () => {
    const email = `race_${unique()}@example.com`;
    const answers = await Promise.all([register(app, registration({ email })), register(app, registration({ email }))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.message).toBe('Email already exists');
    const login1 = `race_${unique()}`;
    const byLogin = await Promise.all([register(app, registration({ user_name: login1 })), register(app, registration({ user_name: login1.toUpperCase() }))]);
    expect(byLogin.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(byLogin.find((a) => a.status === 400)!.body.message).toBe('User name already exists');
  });

  it.each([['admin'], ['moderator'], [''], [['seller', 'admin']], [null]])('refuses role %j', async (role) => {
    const body = registration({ role });
    const res = await register(app, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.validation);
    expect(res.body.errors?.role).toEqual(['Выберите роль: покупатель или продавец']);
    expect(await userByEmail(body.email)).toBeUndefined();
  });

  it('never creates an admin, whatever the body says', async () => {
    const body = registration({ roles: ['admin'], active_role: 'admin', admin: true, isAdmin: true });
    const res = await register(app, body);
    expect(res.status).toBe(200);
    const user = (await userByEmail(body.email))!;
    expect(user.roles).toEqual(['customer']);
    expect(user.activeRole).toBe('customer');
    expect(await db.select({ id: users.id }).from(users).where(sql`'admin' = any(${users.roles})`)).toEqual([]);
    const admin = await call(app, 'GET', '/api/admin/users', { token: res.body.result });
    expect(admin.status).toBe(403);
  });

  it('ignores fields a registration cannot set (mass assignment)', async () => {
    const body = registration({
      _id: '00000000-0000-4000-8000-000000000001',
      id: '00000000-0000-4000-8000-000000000001',
      roles: ['seller', 'admin'],
      active_role: 'admin',
      activeRole: 'admin',
      emailConfirmedAt: '2020-01-01T00:00:00Z',
      email_confirmed: true,
      balance: 1_000_000,
      tokenVersion: 99,
      token_version: 99,
      blockedAt: null,
      referralCode: undefined,
      referredBy: '00000000-0000-4000-8000-000000000001',
      passwordHash: 'x',
      avatar: '/uploads/evil.png',
    });
    const res = await register(app, body);
    expect(res.status).toBe(200);
    const user = (await userByEmail(body.email))!;
    expect(user.id).not.toBe('00000000-0000-4000-8000-000000000001');
    expect(user.roles).toEqual(['customer']);
    expect(user.activeRole).toBe('customer');
    expect(user.emailConfirmedAt).toBeNull();
    expect(user.tokenVersion).toBe(0);
    expect(user.referredBy).toBeNull();
    expect(user.avatar).toBeNull();
    expect(user.passwordHash).toMatch(/^\$argon2/);
    expect(user).not.toHaveProperty('balance');
    expect((await login(app, body.email, PASSWORD)).status).toBe(200);
  });

  it('attaches the referrer of a referral code and ignores an unknown one', async () => {
    const referrer = await createUser(db);
    const body = registration({ referralCode: referrer.referralCode });
    expect((await register(app, body)).status).toBe(200);
    expect((await userByEmail(body.email))!.referredBy).toBe(referrer.id);

    const typed = registration({ referralCode: ` ${referrer.referralCode.toLowerCase()} ` });
    expect((await register(app, typed)).status).toBe(200);
    expect((await userByEmail(typed.email))!.referredBy).toBe(referrer.id);

    const stranger = registration({ referralCode: 'NOSUCH00' });
    expect((await register(app, stranger)).status).toBe(200);
    expect((await userByEmail(stranger.email))!.referredBy).toBeNull();

    const long = await register(app, registration({ referralCode: 'X'.repeat(33) }));
    expect(long.status).toBe(400);
    expect(long.body.errors).toHaveProperty('referralCode');
  });

  it('gives every new account a referral code of its own', async () => {
    const a = await registered();
    const b = await registered();
    const codeA = (await me<{ referralCode: string }>(app, a.token)).body.result.referralCode;
    const codeB = (await me<{ referralCode: string }>(app, b.token)).body.result.referralCode;
    expect(codeA).toMatch(/^[A-Z0-9]{8}$/i);
    expect(codeA).not.toBe(codeB);
  });

  describe('validation: 400 with Russian field errors', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['email without @', { email: 'not-an-email' }, 'email', 'Введите корректный email'],
      ['email with a space', { email: 'a b@example.com' }, 'email', 'Введите корректный email'],
      ['email missing', { email: undefined }, 'email', 'Введите email'],
      ['email too long', { email: `${'a'.repeat(250)}@example.com` }, 'email', 'Слишком длинный email'],
      ['login too short', { user_name: 'ab' }, 'user_name', 'Логин: от 3 до 32 латинских букв, цифр или «_»'],
      ['login too long', { user_name: 'a'.repeat(33) }, 'user_name', 'Логин: от 3 до 32 латинских букв, цифр или «_»'],
      ['login in Cyrillic', { user_name: 'иван' }, 'user_name', 'Логин: от 3 до 32 латинских букв, цифр или «_»'],
      ['login with a dot', { user_name: 'ivan.petrov' }, 'user_name', 'Логин: от 3 до 32 латинских букв, цифр или «_»'],
      ['login with a hyphen', { user_name: 'ivan-petrov' }, 'user_name', 'Логин: от 3 до 32 латинских букв, цифр или «_»'],
      ['login missing', { user_name: undefined }, 'user_name', 'Введите логин'],
      ['password too short', { password: 'abc1234', repeat_password: 'abc1234' }, 'password', 'Пароль должен быть не короче 8 символов'],
      ['password without a digit', { password: 'abcdefgh', repeat_password: 'abcdefgh' }, 'password', 'Пароль должен содержать букву и цифру'],
      ['password without a letter', { password: '12345678', repeat_password: '12345678' }, 'password', 'Пароль должен содержать букву и цифру'],
      ['password too long', { password: `a1${'x'.repeat(127)}`, repeat_password: `a1${'x'.repeat(127)}` }, 'password', 'Пароль должен быть не длиннее 128 символов'],
      ['password missing', { password: undefined }, 'password', 'Введите пароль'],
      ['repeat mismatch', { repeat_password: 'secret124' }, 'repeat_password', 'Пароли не совпадают'],
      ['repeat missing', { repeat_password: undefined }, 'repeat_password', 'Повторите пароль'],
      ['bot check missing', { 'cf-turnstile-response': undefined }, 'cf-turnstile-response', 'Подтвердите, что вы не робот'],
      ['bot check empty', { 'cf-turnstile-response': '' }, 'cf-turnstile-response', 'Подтвердите, что вы не робот'],
      ['name missing', { name: undefined }, 'name', 'Введите имя'],
      ['name blank', { name: '   ' }, 'name', 'Введите имя'],
      ['surname missing', { surname: undefined }, 'surname', 'Введите фамилию'],
      ['name too long', { name: 'Я'.repeat(51) }, 'name', 'Слишком длинное значение'],
    ];
    it.each(cases)('%s', async (_title, change, field, message) => {
      const body = registration(change);
      const res = await register(app, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MESSAGES.validation);
      expect(res.body.errors?.[field]).toContain(message);
      if (typeof body.email === 'string') expect(await userByEmail(body.email.toLowerCase())).toBeUndefined();
    });

    it('accepts a Cyrillic letter in the password and trims the login, names and email', async () => {
      const id = unique();
      const body = registration({ password: 'пароль123', repeat_password: 'пароль123', user_name: `  sp_${id} `, name: ' Анна ', email: ` sp_${id}@example.com ` });
      const res = await register(app, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const user = (await userByEmail(`sp_${id}@example.com`))!;
      expect(user.userName).toBe(`sp_${id}`);
      expect(user.name).toBe('Анна');
      expect((await login(app, `sp_${id}@example.com`, 'пароль123')).status).toBe(200);
    });

    it('reports every broken field at once, the repeat mismatch included', async () => {
      const res = await register(app, registration({ email: 'bad', user_name: 'x', repeat_password: 'other123' }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors ?? {})).toEqual(expect.arrayContaining(['email', 'user_name', 'repeat_password']));
    });

    it('refuses a body that is not JSON or not an object', async () => {
      for (const payload of ['[]', '"x"', 'null', '{']) {
        const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload, headers: { 'content-type': 'application/json' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(MESSAGES.validation);
      }
    });
  });

  it(`lets one address create ${REGISTRATIONS_PER_ADDRESS} accounts an hour, parallel ones included; other addresses unaffected`, async () => {
    const remoteAddress = '203.0.113.50';
    const bodies = Array.from({ length: REGISTRATIONS_PER_ADDRESS + 4 }, () => registration());
    const answers = await Promise.all(bodies.map((body) => register(app, body, { remoteAddress })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(REGISTRATIONS_PER_ADDRESS);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.body.message).toBe(MESSAGES.tooManyRequests);
    const created = await db.select({ id: users.id }).from(users).where(inArray(users.email, bodies.map((b) => b.email)));
    expect(created).toHaveLength(REGISTRATIONS_PER_ADDRESS);
    expect((await register(app, registration(), { remoteAddress })).status).toBe(429);
    expect((await register(app, registration(), { remoteAddress: '203.0.113.51' })).status).toBe(200);
  });

  it(`answers "already exists" ${TAKEN_ANSWERS_PER_ADDRESS} times an hour to one address, then 429 (no email lookup service)`, async () => {
    const taken = await createUser(db);
    const remoteAddress = '203.0.113.52';
    for (let i = 0; i < TAKEN_ANSWERS_PER_ADDRESS; i++) {
      const res = await register(app, registration(i % 2 ? { email: taken.email } : { user_name: taken.userName }), { remoteAddress });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(i % 2 ? 'Email already exists' : 'User name already exists');
    }
    const probe = await register(app, registration({ email: taken.email }), { remoteAddress });
    expect(probe.status).toBe(429);
    expect(probe.body.message).toBe(MESSAGES.tooManyRequests);
    // An unknown email gets no different answer from that address either way, and a real registration still goes
    // through: the taken answers did not use up the address's registrations.
    expect((await register(app, registration(), { remoteAddress })).status).toBe(200);
    expect((await register(app, registration({ email: taken.email }), { remoteAddress: '203.0.113.53' })).status).toBe(400);
  });

  it('refuses a bot-check token other than the dummy one when no secret is configured', async () => {
    const body = registration({ 'cf-turnstile-response': 'some-real-looking-token' });
    const res = await register(app, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.botCheckFailed);
    expect(await userByEmail(body.email)).toBeUndefined();
  });
});

describe('register with a real Turnstile siteverify', () => {
  let fake: http.Server;
  let mode: 'success' | 'failure' | 'error' | 'garbage' | 'hang' = 'success';
  const posted: Record<string, string>[] = [];
  let tt: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    fake = http.createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        posted.push(Object.fromEntries(new URLSearchParams(raw)));
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (mode === 'success') json(200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'podryad.test', 'error-codes': [] });
        else if (mode === 'failure') json(200, { success: false, 'error-codes': ['invalid-input-response'] });
        else if (mode === 'error') json(500, { success: true });
        else if (mode === 'garbage') {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html>success</html>');
        }
        // 'hang': never answers.
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    tt = await createTestApp({
      SMTP_URL: sink.url,
      TURNSTILE_SECRET: 'the-turnstile-secret',
      TURNSTILE_VERIFY_URL: `http://127.0.0.1:${port}/turnstile/v0/siteverify`,
    });
  });

  afterAll(async () => {
    await tt?.close();
    fake.closeAllConnections();
    await new Promise((resolve) => fake.close(resolve));
  });

  it('registers when siteverify approves, posting secret, response and the client address', async () => {
    mode = 'success';
    posted.length = 0;
    const body = registration({ 'cf-turnstile-response': 'widget-token-123' });
    const res = await register(tt.app, body, { remoteAddress: '203.0.113.9' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(posted).toEqual([{ secret: 'the-turnstile-secret', response: 'widget-token-123', remoteip: '203.0.113.9' }]);
    expect((await me(tt.app, res.body.result)).status).toBe(200);
  });

  it.each(['failure', 'error', 'garbage'] as const)('refuses when siteverify answers %s', async (m) => {
    mode = m;
    const body = registration({ 'cf-turnstile-response': 'widget-token-456' });
    const res = await register(tt.app, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.botCheckFailed);
    expect((await tt.database.db.select().from(users).where(eq(users.email, body.email))).length).toBe(0);
  });

  it('refuses the dummy token when a secret is configured and siteverify refuses it', async () => {
    mode = 'failure';
    const res = await register(tt.app, registration());
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.botCheckFailed);
  });

  it('refuses when siteverify does not answer in time', async () => {
    mode = 'hang';
    const started = Date.now();
    const body = registration({ 'cf-turnstile-response': 'widget-token-789' });
    const res = await register(tt.app, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.botCheckFailed);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect((await tt.database.db.select().from(users).where(eq(users.email, body.email))).length).toBe(0);
  });
});

describe('login', () => {
  it('answers a token for the right pair, whatever the case of the email', async () => {
    const user = await createUser(db);
    const res = await login(app, `  ${user.email.toUpperCase()} `, DEFAULT_PASSWORD);
    expect(res.status).toBe(200);
    expect((await me<{ _id: string }>(app, res.body.result)).body.result._id).toBe(user.id);
  });

  it('answers 400 "Неверный логин или пароль" for a wrong password or an unknown email', async () => {
    const user = await createUser(db);
    for (const [email, password] of [
      [user.email, 'wrong-password1'],
      [`nobody_${unique()}@example.com`, DEFAULT_PASSWORD],
      [user.userName, DEFAULT_PASSWORD],
    ] as const) {
      const res = await login(app, email, password);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Неверный логин или пароль');
      expect(res.body.result).toBeUndefined();
    }
  });

  it('refuses empty fields with Russian field errors', async () => {
    const res = await call(app, 'POST', '/api/auth/login', { body: { email: '', password: '' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: ['Введите email'], password: ['Введите пароль'] });
  });

  it('answers 403 for a blocked account with the right password (400 with a wrong one)', async () => {
    const user = await createUser(db, { blockedAt: new Date(), blockReason: 'спам' });
    const res = await login(app, user.email, DEFAULT_PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(AUTH_MESSAGES.blocked);
    expect((await login(app, user.email, 'wrong-password1')).status).toBe(400);
  });

  it('a stranger guessing from one address never locks the owner out: that address gets 429, the owner signs in from another', async () => {
    const victim = await createUser(db);
    const bystander = await createUser(db);
    const stranger = '203.0.113.66';
    for (let i = 0; i < LOGIN_FAILURES_PER_PAIR; i++) expect((await login(app, victim.email, `wrong${i}pass`, { remoteAddress: stranger })).status).toBe(400);
    const refused = await login(app, victim.email, `wrong-again`, { remoteAddress: stranger });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Слишком много попыток входа, попробуйте через 15 минут');
    // The pair is refused whatever the password and however the email is spelled.
    expect((await login(app, victim.email.toUpperCase(), DEFAULT_PASSWORD, { remoteAddress: stranger })).status).toBe(429);
    // The owner, from their own address, gets in at once or after a short pause at most.
    const started = Date.now();
    const owner = await login(app, victim.email, DEFAULT_PASSWORD, { remoteAddress: '198.51.100.7' });
    expect(owner.status).toBe(200);
    expect((await me<{ _id: string }>(app, owner.body.result)).body.result._id).toBe(victim.id);
    expect(Date.now() - started).toBeLessThan(LOGIN_DELAY_MAX_MS + 2000);
    // The stranger's address is not refused for other accounts until the address limit.
    expect((await login(app, bystander.email, DEFAULT_PASSWORD, { remoteAddress: stranger })).status).toBe(200);
  });

  it('a right password clears the failures of its own address for the account', async () => {
    const user = await createUser(db);
    const remoteAddress = '198.51.100.31';
    // Twice six wrong ones would pass the limit of ten if the right one in between did not clear them.
    for (let i = 0; i < 6; i++) expect((await login(app, user.email, `wrong${i}pass`, { remoteAddress })).status).toBe(400);
    expect((await login(app, user.email, DEFAULT_PASSWORD, { remoteAddress })).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await login(app, user.email, `wrong${i}pass`, { remoteAddress })).status).toBe(400);
    expect((await login(app, user.email, DEFAULT_PASSWORD, { remoteAddress })).status).toBe(200);
  });

  it('refuses an address after 50 failures in the window, other addresses unaffected', async () => {
    const user = await createUser(db);
    const remoteAddress = '198.51.100.23';
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      expect((await login(app, `nobody_${i}_${unique()}@example.com`, 'whatever1', { remoteAddress })).status).toBe(400);
    }
    const res = await login(app, user.email, DEFAULT_PASSWORD, { remoteAddress });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/[а-я]/);
    expect((await login(app, user.email, DEFAULT_PASSWORD, { remoteAddress: '198.51.100.24' })).status).toBe(200);
  });

  it('counts only failures against an address: many people signing in behind one address are not refused', async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser(db)));
    const remoteAddress = '198.51.100.25';
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS + 10; i++) {
      const res = await login(app, people[i % people.length]!.email, DEFAULT_PASSWORD, { remoteAddress });
      expect(res.status, `login ${i + 1}`).toBe(200);
    }
    expect((await login(app, people[0]!.email, 'wrong-pass-1', { remoteAddress })).status).toBe(400);
  });
});

describe('login throttling (the service, with the waits recorded)', () => {
  const waits: number[] = [];
  let auth: AuthService;
  beforeAll(() => {
    const s = app.services;
    auth = new AuthService({
      db,
      tokens: s.tokens,
      withTx: s.platform.withTx,
      letters: s.letters,
      limiter: memoryRateLimiter(),
      turnstile: new Turnstile({ verifyUrl: 'http://127.0.0.1:1/' }, pino({ level: 'silent' })),
      log: pino({ level: 'silent' }),
      onRevoke: () => {},
      twoFactor: s.twoFactor,
      sleep: async (ms) => void waits.push(ms),
    });
  });
  const attempt = (email: string, password: string, ip: string) =>
    auth.login(email, password, ip).then(
      (token) => ({ status: 200, token: token as string }),
      (err: { statusCode?: number }) => ({ status: err.statusCode ?? 500, token: null }),
    );

  it('20 wrong passwords from address A, then many from other addresses: A is refused, the owner signs in from B after a bounded wait', async () => {
    const owner = await createUser(db);
    waits.length = 0;
    const fromA = [];
    for (let i = 0; i < 20; i++) fromA.push((await attempt(owner.email, `wrong${i}pass`, '203.0.113.1')).status);
    expect(fromA).toEqual([...Array(LOGIN_FAILURES_PER_PAIR).fill(400), ...Array(20 - LOGIN_FAILURES_PER_PAIR).fill(429)]);
    // A botnet: one guess from each of 30 addresses.
    for (let i = 0; i < 30; i++) expect((await attempt(owner.email, `botnet${i}pass`, `203.0.113.${100 + i}`)).status).toBe(400);
    // A stays refused, even with the right password; the owner from B gets in.
    expect((await attempt(owner.email, DEFAULT_PASSWORD, '203.0.113.1')).status).toBe(429);
    const mine = await attempt(owner.email, DEFAULT_PASSWORD, '198.51.100.2');
    expect(mine.status).toBe(200);
    expect((await app.services.tokens.verify(mine.token!))?.sub).toBe(owner.id);

    // Every wait is bounded; they grow with the failures and reach the cap.
    expect(Math.max(...waits)).toBe(LOGIN_DELAY_MAX_MS);
    expect(waits.every((ms, i) => ms > 0 && ms <= LOGIN_DELAY_MAX_MS && (i === 0 || ms >= waits[i - 1]!))).toBe(true);
    expect(waits.at(-1)).toBe(LOGIN_DELAY_MAX_MS);
    // Refused attempts wait for nothing (and check no password): 10 free failures, then one wait per checked attempt.
    expect(waits).toHaveLength(30 + 1);
  });

  it('parallel guesses from one address cannot slip past the limit', async () => {
    const owner = await createUser(db);
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => attempt(owner.email, `wrong${i}pass`, '203.0.113.2')));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(LOGIN_FAILURES_PER_PAIR);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(25 - LOGIN_FAILURES_PER_PAIR);
  });

  it('the wait grows with the failures and never passes the cap, whatever their number', () => {
    expect(loginDelayMs(0)).toBe(0);
    expect(loginDelayMs(LOGIN_FREE_FAILURES - 1)).toBe(0);
    expect(loginDelayMs(LOGIN_FREE_FAILURES)).toBeGreaterThan(0);
    let previous = 0;
    for (const failures of [LOGIN_FREE_FAILURES, LOGIN_FREE_FAILURES + 1, LOGIN_FREE_FAILURES + 3, 100, 10_000, 1e12, Number.MAX_SAFE_INTEGER]) {
      const ms = loginDelayMs(failures);
      expect(ms).toBeGreaterThanOrEqual(previous);
      expect(ms).toBeLessThanOrEqual(LOGIN_DELAY_MAX_MS);
      previous = ms;
    }
    expect(previous).toBe(LOGIN_DELAY_MAX_MS);
  });
});

describe('tokens', () => {
  const key = new TextEncoder().encode(TEST_SECRET);
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts its own token by header and by the authToken cookie', async () => {
    const user = await createUser(db);
    const token = await app.services.tokens.sign(user);
    expect((await me(app, token)).status).toBe(200);
    const byCookie = await app.inject({ method: 'GET', url: '/api/users/me/', cookies: { authToken: token } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('answers 401 without a token, with garbage, with a wrong scheme', async () => {
    const user = await createUser(db);
    const token = await app.services.tokens.sign(user);
    expect((await me(app, null)).status).toBe(401);
    expect((await me(app, null)).body.message).toBe(MESSAGES.unauthorized);
    expect((await me(app, 'garbage')).status).toBe(401);
    expect((await call(app, 'GET', '/api/users/me/', { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
    expect((await call(app, 'GET', '/api/users/me/', { headers: { authorization: 'Bearer ' } })).status).toBe(401);
  });

  it.each([
    ['alg none', async (sub: string) => new UnsecuredJWT({ ver: 0 }).setSubject(sub).setIssuedAt().setExpirationTime('1h').encode()],
    [
      'a foreign signature',
      async (sub: string) =>
        new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-another-secret-another-secret!')),
    ],
    ['expired', async (sub: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt(now() - 7200).setExpirationTime(now() - 60).sign(key)],
    [
      'not yet valid (nbf in the future)',
      async (sub: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setNotBefore(now() + 600).setExpirationTime(now() + 3600).sign(key),
    ],
    ['HS512 with our key', async (sub: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS512' }).setSubject(sub).setExpirationTime('1h').sign(key)],
    ['without exp (it would never expire)', async (sub: string) => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt().setNotBefore(now() - 5).sign(key)],
    ['without a version', async (sub: string) => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(key)],
    ['with a stale version', async (sub: string) => new SignJWT({ ver: -1 }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(key)],
    ['for a user that does not exist', async () => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('00000000-0000-4000-8000-00000000beef').setExpirationTime('1h').sign(key)],
    ['with a sub that is no uuid', async () => new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject("' or 1=1 --").setExpirationTime('1h').sign(key)],
  ])('answers 401 for a token %s', async (_title, make) => {
    const user = await createUser(db);
    const token = await make(user.id);
    expect((await me(app, token)).status).toBe(401);
    const byCookie = await app.inject({ method: 'GET', url: '/api/users/me/', cookies: { authToken: token } });
    expect(byCookie.statusCode).toBe(401);
  });

  it('a well-formed token of our own, made by hand, works (the checks above are not over-strict)', async () => {
    const user = await createUser(db);
    const token = await new SignJWT({ ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setNotBefore(now() - 5).setExpirationTime(now() + 60).sign(key);
    expect((await me(app, token)).status).toBe(200);
  });

  it('logout-all revokes every token issued before, and needs a token', async () => {
    const user = await createUser(db);
    const a = await app.services.tokens.sign(user);
    const b = (await login(app, user.email, DEFAULT_PASSWORD)).body.result;
    const other = await createUser(db);
    const otherToken = await app.services.tokens.sign(other);
    expect((await call(app, 'POST', '/api/auth/logout-all', { token: a })).status).toBe(200);
    expect((await me(app, a)).status).toBe(401);
    expect((await me(app, b)).status).toBe(401);
    expect((await me(app, otherToken)).status).toBe(200);
    const fresh = await login(app, user.email, DEFAULT_PASSWORD);
    expect((await me(app, fresh.body.result)).status).toBe(200);
    expect((await call(app, 'POST', '/api/auth/logout-all')).status).toBe(401);
    expect((await call(app, 'POST', '/api/auth/logout-all', { token: a })).status).toBe(401);
  });
});

describe('password recovery', () => {
  it('answers the same for an unknown email and mails nothing', async () => {
    const known = await createUser(db);
    const unknown = `ghost_${unique()}@example.com`;
    const a = await call(app, 'POST', '/api/auth/recover', { body: { email: unknown }, remoteAddress: '192.0.2.1' });
    const b = await call(app, 'POST', '/api/auth/recover', { body: { email: known.email }, remoteAddress: '192.0.2.1' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body.result).toEqual({ message: AUTH_MESSAGES.recoverSent });
    await letterTo(sink, known.email, SUBJECTS.reset);
    await sleep(300);
    expect(sink.messages.filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  it('mails a blocked account nothing', async () => {
    const blocked = await createUser(db, { blockedAt: new Date() });
    const res = await call(app, 'POST', '/api/auth/recover', { body: { email: blocked.email }, remoteAddress: '192.0.2.2' });
    expect(res.status).toBe(200);
    await sleep(300);
    expect(sink.messages.filter((m) => m.to.includes(blocked.email))).toEqual([]);
  });

  it('refuses a malformed email with a field error', async () => {
    const res = await call(app, 'POST', '/api/auth/recover', { body: { email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.email).toEqual(['Введите корректный email']);
  });

  it('resets the password by the /recover link: new password works, old fails, old tokens end, link is one-time', async () => {
    const user = await createUser(db, { emailConfirmedAt: null });
    const oldToken = await app.services.tokens.sign(user);
    expect((await call(app, 'POST', '/api/auth/recover', { body: { email: user.email.toUpperCase() }, remoteAddress: '192.0.2.3' })).status).toBe(200);
    const letter = await letterTo(sink, user.email, SUBJECTS.reset);
    expect(letter.subject).toBe('Восстановление пароля — Подряд');
    const resetToken = linkToken(letter, '/recover');

    // Not a confirmation link.
    expect((await call(app, 'POST', '/api/auth/confirm', { body: { token: resetToken } })).status).toBe(400);

    const mismatch = await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: 'newpass123', repeat_password: 'newpass124' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors?.repeat_password).toEqual(['Пароли не совпадают']);
    const weak = await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: 'short', repeat_password: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.errors?.password).toBeDefined();

    const res = await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: 'newpass123', repeat_password: 'newpass123' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ message: AUTH_MESSAGES.passwordChanged });

    expect((await me(app, oldToken)).status).toBe(401);
    expect((await login(app, user.email, DEFAULT_PASSWORD)).status).toBe(400);
    const fresh = await login(app, user.email, 'newpass123');
    expect(fresh.status).toBe(200);
    // Following the link proved the mailbox.
    expect((await me<{ email_confirmed: boolean }>(app, fresh.body.result)).body.result.email_confirmed).toBe(true);

    const again = await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: 'other1234', repeat_password: 'other1234' } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(AUTH_MESSAGES.linkInvalid);
    expect((await login(app, user.email, 'other1234')).status).toBe(400);
  });

  it('a reset lets the address it came from in again after too many wrong passwords', async () => {
    const user = await createUser(db);
    const remoteAddress = '192.0.2.4';
    for (let i = 0; i < 10; i++) await login(app, user.email, `wrong${i}pass`, { remoteAddress });
    expect((await login(app, user.email, DEFAULT_PASSWORD, { remoteAddress })).status).toBe(429);
    await call(app, 'POST', '/api/auth/recover', { body: { email: user.email }, remoteAddress });
    const token = linkToken(await letterTo(sink, user.email, SUBJECTS.reset), '/recover');
    expect((await call(app, 'POST', '/api/auth/reset', { body: { token, password: 'newpass123', repeat_password: 'newpass123' }, remoteAddress })).status).toBe(200);
    const started = Date.now();
    expect((await login(app, user.email, 'newpass123', { remoteAddress })).status).toBe(200);
    // The account's failures went with the old password: no wait either.
    expect(Date.now() - started).toBeLessThan(LOGIN_DELAY_BASE_MS);
  });

  it('refuses an expired reset link', async () => {
    const user = await createUser(db);
    await call(app, 'POST', '/api/auth/recover', { body: { email: user.email }, remoteAddress: '192.0.2.5' });
    const token = linkToken(await letterTo(sink, user.email, SUBJECTS.reset), '/recover');
    await db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.userId, user.id));
    const res = await call(app, 'POST', '/api/auth/reset', { body: { token, password: 'newpass123', repeat_password: 'newpass123' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(AUTH_MESSAGES.linkInvalid);
    expect((await login(app, user.email, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it('a confirmation link cannot reset a password', async () => {
    const { body, confirmToken } = await registered();
    const res = await call(app, 'POST', '/api/auth/reset', { body: { token: confirmToken, password: 'newpass123', repeat_password: 'newpass123' } });
    expect(res.status).toBe(400);
    expect((await login(app, body.email, PASSWORD)).status).toBe(200);
  });

  it('limits recovery requests per address (same answer otherwise)', async () => {
    const remoteAddress = '192.0.2.99';
    for (let i = 0; i < 10; i++) {
      expect((await call(app, 'POST', '/api/auth/recover', { body: { email: `x${i}_${unique()}@example.com` }, remoteAddress })).status).toBe(200);
    }
    const res = await call(app, 'POST', '/api/auth/recover', { body: { email: `y_${unique()}@example.com` }, remoteAddress });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/[а-я]/);
  });
});

describe('confirmation resend', () => {
  it('sends a new letter once a minute (second within a minute → 429)', async () => {
    const { token, body } = await registered();
    const before = sink.messages.filter((m) => m.to.includes(body.email)).length;
    const first = await call(app, 'POST', '/api/auth/confirm/resend', { token });
    expect(first.status).toBe(200);
    await sink.waitFor(() => sink.messages.filter((m) => m.to.includes(body.email)).length > before);
    const second = await call(app, 'POST', '/api/auth/confirm/resend', { token });
    expect(second.status).toBe(429);
    expect(second.body.message).toBe(AUTH_MESSAGES.resendTooOften);
  });

  it('sends nothing to a confirmed account and needs a token', async () => {
    const user = await createUser(db);
    const token = await app.services.tokens.sign(user);
    expect((await call(app, 'POST', '/api/auth/confirm/resend', { token })).status).toBe(200);
    await sleep(300);
    expect(sink.messages.filter((m) => m.to.includes(user.email))).toEqual([]);
    expect((await call(app, 'POST', '/api/auth/confirm/resend')).status).toBe(401);
  });
});
