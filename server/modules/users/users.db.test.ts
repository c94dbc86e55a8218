import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { createUser, DEFAULT_PASSWORD, type UserOverrides } from '../../db/factories.ts';
import { users, type UserRow } from './schema.ts';
import { files } from '../files/schema.ts';
import { emailTokens } from '../../platform/schema.ts';
import { AUTH_MESSAGES } from '#contract/auth';
import { MESSAGES } from '#contract/messages';
import type { City, Country, Me } from '#contract/api';
import { SUBJECTS, call, letterTo, linkToken, login, me, randomAddress, sleep, unique } from '../../test/api.ts';

let sink: SmtpSink;
let t: Awaited<ReturnType<typeof createTestApp>>;
let app: FastifyInstance;
let db: Awaited<ReturnType<typeof createTestApp>>['database']['db'];
let cityList: City[];
let countryList: Country[];

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url, PUBLIC_URL: 'http://podryad.test' });
  app = t.app;
  db = t.database.db;
  cityList = (await call<City[]>(app, 'GET', '/api/cities/')).body.result;
  countryList = (await call<Country[]>(app, 'GET', '/api/countries/')).body.result;
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** A user and a token of theirs. */
async function account(overrides: UserOverrides = {}): Promise<{ user: UserRow; token: string }> {
  const user = await createUser(db, overrides);
  return { user, token: await app.services.tokens.sign(user) };
}

const row = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
const patchMe = (token: string | null, body: unknown) => call<Me>(app, 'PATCH', '/api/users/me', { token, body });

async function insertFile(ownerId: string, mime = 'image/png', ext = 'png') {
  const path = `${ownerId}/${randomBytes(16).toString('hex')}.${ext}`;
  await db.insert(files).values({ ownerId, path, originalName: `file.${ext}`, mime, size: 100 });
  return path;
}

describe('GET /api/users/me/', () => {
  it('answers the caller\'s own account (SPEC: _id, referralCode, active_role)', async () => {
    const { user, token } = await account({ role: 'seller' });
    const res = await me<Me>(app, token);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      _id: user.id,
      user_name: user.userName,
      email: user.email,
      referralCode: user.referralCode,
      active_role: 'seller',
      roles: ['seller'],
      email_confirmed: true,
      about: '',
      city: null,
      country: null,
      preferences: { emailNotifications: {} },
    });
    expect(Object.keys(res.body.result)).not.toEqual(expect.arrayContaining(['passwordHash']));
    expect(JSON.stringify(res.body)).not.toMatch(/password|token_?version|blocked/i);
  });

  it('answers 401 for guests on every /me route', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/users/me/', undefined],
      ['GET', '/api/users/me', undefined],
      ['PATCH', '/api/users/me', { name: 'Иван' }],
      ['PUT', '/api/users/me/avatar', { filePath: null }],
      ['PUT', '/api/users/me/password', { current_password: 'x', password: 'newpass123', repeat_password: 'newpass123' }],
      ['PUT', '/api/users/me/email', { email: 'a@example.com', password: 'x' }],
      ['PUT', '/api/users/me/role', { role: 'customer' }],
      ['POST', '/api/users/me/become-seller', undefined],
    ] as const) {
      const res = await call(app, method, url, { body });
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body.message).toBe(MESSAGES.unauthorized);
    }
  });
});

describe('PATCH /api/users/me', () => {
  it('updates name, surname, about, city and country from the lookups', async () => {
    const { user, token } = await account();
    const city = cityList[0]!;
    const country = countryList.find((c) => c.code === city.country) ?? countryList[0]!;
    const res = await patchMe(token, { name: ' Мария ', surname: 'Иванова', about: 'Дизайнер логотипов', city: city._id, country: country._id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ name: 'Мария', surname: 'Иванова', about: 'Дизайнер логотипов', city: city._id, country: country._id });
    expect(await row(user.id)).toMatchObject({ name: 'Мария', cityId: city._id, countryId: country._id });
    expect((await me<Me>(app, token)).body.result.city).toBe(city._id);
  });

  it('leaves fields out of the body unchanged and clears city and country with null', async () => {
    const { user, token } = await account({ about: 'Старое', cityId: null });
    await patchMe(token, { city: cityList[1]!._id, country: countryList[0]!._id });
    const res = await patchMe(token, { surname: 'Новая' });
    expect(res.body.result).toMatchObject({ name: user.name, about: 'Старое', city: cityList[1]!._id, surname: 'Новая' });
    const cleared = await patchMe(token, { city: null, country: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).toMatchObject({ city: null, country: null, surname: 'Новая' });
  });

  it('refuses an unknown city or country uuid with a field error', async () => {
    const { user, token } = await account();
    const unknownCity = await patchMe(token, { city: '00000000-0000-4000-8000-000000000000', name: 'Нельзя' });
    expect(unknownCity.status).toBe(400);
    expect(unknownCity.body.errors).toEqual({ city: ['Выберите город из списка'] });
    const unknownCountry = await patchMe(token, { country: '00000000-0000-4000-8000-000000000000' });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body.errors).toEqual({ country: ['Выберите страну из списка'] });
    // A city id is no country id.
    const swapped = await patchMe(token, { country: cityList[0]!._id });
    expect(swapped.status).toBe(400);
    expect(swapped.body.errors).toHaveProperty('country');
    const notUuid = await patchMe(token, { city: 'Москва' });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.errors?.city).toEqual(['Выберите город из списка']);
    expect((await row(user.id)).name).toBe(user.name);
  });

  it('refuses blank or too long values with Russian field errors', async () => {
    const { token } = await account();
    expect((await patchMe(token, { name: '  ' })).body.errors?.name).toEqual(['Введите имя']);
    expect((await patchMe(token, { surname: 'Ж'.repeat(51) })).body.errors?.surname).toEqual(['Слишком длинное значение']);
    expect((await patchMe(token, { about: 'а'.repeat(2001) })).body.errors?.about).toEqual(['Не более 2000 символов']);
    expect((await patchMe(token, { preferences: { currency: 'EUR' } })).status).toBe(400);
    expect((await patchMe(token, { preferences: { emailNotifications: { spam: true } } })).status).toBe(400);
    expect((await patchMe(token, { preferences: { emailNotifications: { news: 'yes' } } })).status).toBe(400);
  });

  it('merges preferences: each call changes only what it names', async () => {
    const { user, token } = await account();
    let res = await patchMe(token, { preferences: { currency: 'USDT' } });
    expect(res.body.result.preferences).toEqual({ currency: 'USDT', emailNotifications: {} });
    res = await patchMe(token, { preferences: { emailNotifications: { news: false, orders: true } } });
    expect(res.body.result.preferences).toEqual({ currency: 'USDT', emailNotifications: { news: false, orders: true } });
    res = await patchMe(token, { preferences: { emailNotifications: { news: true } } });
    expect(res.body.result.preferences).toEqual({ currency: 'USDT', emailNotifications: { news: true, orders: true } });
    res = await patchMe(token, { preferences: { currency: 'BTC' }, name: 'Олег' });
    expect(res.body.result.preferences).toEqual({ currency: 'BTC', emailNotifications: { news: true, orders: true } });
    res = await patchMe(token, { about: 'без настроек' });
    expect(res.body.result.preferences).toEqual({ currency: 'BTC', emailNotifications: { news: true, orders: true } });
    expect((await row(user.id)).preferences).toEqual({ currency: 'BTC', emailNotifications: { news: true, orders: true } });
  });

  it('two preference updates at once keep both changes', async () => {
    const { user, token } = await account();
    await Promise.all([
      patchMe(token, { preferences: { emailNotifications: { news: false } } }),
      patchMe(token, { preferences: { emailNotifications: { orders: false } } }),
      patchMe(token, { preferences: { currency: 'USDT' } }),
    ]);
    expect((await row(user.id)).preferences).toEqual({ currency: 'USDT', emailNotifications: { news: false, orders: false } });
  });

  it('ignores fields a profile update cannot set (mass assignment) and never touches another account', async () => {
    const { user, token } = await account();
    const { user: other, token: otherToken } = await account({ role: 'seller' });
    const res = await patchMe(token, {
      _id: other.id,
      id: other.id,
      user_name: 'hacker',
      userName: 'hacker',
      email: 'hacker@example.com',
      roles: ['admin'],
      active_role: 'admin',
      activeRole: 'admin',
      emailConfirmedAt: null,
      email_confirmed: false,
      balance: 1_000_000,
      tokenVersion: 42,
      blockedAt: '2020-01-01T00:00:00Z',
      referralCode: other.referralCode,
      referredBy: other.id,
      passwordHash: 'x',
      avatar: '/uploads/evil.png',
      name: 'Себе',
    });
    expect(res.status).toBe(200);
    expect(res.body.result._id).toBe(user.id);
    expect(res.body.result.name).toBe('Себе');

    const mine = await row(user.id);
    expect(mine).toMatchObject({
      userName: user.userName,
      email: user.email,
      roles: ['customer'],
      activeRole: 'customer',
      tokenVersion: 0,
      blockedAt: null,
      referralCode: user.referralCode,
      referredBy: null,
      avatar: null,
      passwordHash: user.passwordHash,
    });
    expect(mine.emailConfirmedAt).not.toBeNull();
    expect(mine).not.toHaveProperty('balance');
    expect((await me(app, token)).status).toBe(200);

    const theirs = await row(other.id);
    expect(theirs).toEqual(other);
    expect((await me<Me>(app, otherToken)).body.result.name).toBe(other.name);
  });
});

describe('PUT /api/users/me/avatar', () => {
  it('sets an own image by stored path or by url, refuses another user\'s file and removes with null', async () => {
    const { user, token } = await account();
    const { user: other } = await account();
    const own = await insertFile(user.id);
    const theirs = await insertFile(other.id);

    const foreign = await call<Me>(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: theirs } });
    expect(foreign.status).toBe(403);
    expect((await call(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: `/uploads/${theirs}` } })).status).toBe(403);
    expect((await row(user.id)).avatar).toBeNull();

    const set = await call<Me>(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: own } });
    expect(set.status).toBe(200);
    expect(set.body.result.avatar).toBe(`/uploads/${own}`);
    expect((await me<Me>(app, token)).body.result.avatar).toBe(`/uploads/${own}`);

    const own2 = await insertFile(user.id, 'image/webp', 'webp');
    const byUrl = await call<Me>(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: `/uploads/${own2}` } });
    expect(byUrl.body.result.avatar).toBe(`/uploads/${own2}`);

    const removed = await call<Me>(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: null } });
    expect(removed.status).toBe(200);
    expect(removed.body.result.avatar).toBeNull();
    expect((await row(other.id)).avatar).toBeNull();
  });

  it('refuses a file that is not an image, an unknown or malformed path and a missing field', async () => {
    const { user, token } = await account();
    const pdf = await insertFile(user.id, 'application/pdf', 'pdf');
    const notImage = await call(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath: pdf } });
    expect(notImage.status).toBe(400);
    expect(notImage.body.message).toBe('Аватар должен быть изображением');
    for (const filePath of [`${user.id}/${'0'.repeat(32)}.png`, '../../etc/passwd', `https://evil.example/${user.id}.png`, '']) {
      const res = await call(app, 'PUT', '/api/users/me/avatar', { token, body: { filePath } });
      expect(res.status, filePath).toBe(403);
    }
    expect((await call(app, 'PUT', '/api/users/me/avatar', { token, body: {} })).status).toBe(400);
    expect((await row(user.id)).avatar).toBeNull();
  });
});

describe('PUT /api/users/me/password', () => {
  const change = (token: string, body: Record<string, unknown>) => call<string>(app, 'PUT', '/api/users/me/password', { token, body });

  it('refuses a wrong current password with a field error', async () => {
    const { user, token } = await account();
    const res = await change(token, { current_password: 'wrong-pass1', password: 'newpass123', repeat_password: 'newpass123' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ current_password: [AUTH_MESSAGES.wrongPassword] });
    expect((await row(user.id)).passwordHash).toBe(user.passwordHash);
    expect((await me(app, token)).status).toBe(200);
  });

  it('checks the new password like a registration does', async () => {
    const { token } = await account();
    const weak = await change(token, { current_password: DEFAULT_PASSWORD, password: 'abcdefgh', repeat_password: 'abcdefgh' });
    expect(weak.body.errors?.password).toEqual(['Пароль должен содержать букву и цифру']);
    const mismatch = await change(token, { current_password: DEFAULT_PASSWORD, password: 'newpass123', repeat_password: 'newpass321' });
    expect(mismatch.body.errors?.repeat_password).toEqual(['Пароли не совпадают']);
    const missing = await change(token, { password: 'newpass123', repeat_password: 'newpass123' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ current_password: ['Введите текущий пароль'] });
    const noRepeat = await change(token, { current_password: DEFAULT_PASSWORD, password: 'newpass123' });
    expect(noRepeat.body.errors).toEqual({ repeat_password: ['Повторите пароль'] });
  });

  it('changes the password: the answered token works, every older token is revoked', async () => {
    const { user, token } = await account();
    const second = (await login(app, user.email, DEFAULT_PASSWORD)).body.result;
    const res = await change(token, { current_password: DEFAULT_PASSWORD, password: 'newpass123', repeat_password: 'newpass123' });
    expect(res.status).toBe(200);
    const fresh = res.body.result;
    expect((await me<Me>(app, fresh)).body.result._id).toBe(user.id);
    expect((await me(app, token)).status).toBe(401);
    expect((await me(app, second)).status).toBe(401);
    expect((await login(app, user.email, DEFAULT_PASSWORD)).status).toBe(400);
    expect((await login(app, user.email, 'newpass123')).status).toBe(200);
  });

  it('limits wrong current passwords (a stolen session cannot guess the password)', async () => {
    const { token } = await account();
    for (let i = 0; i < 10; i++) {
      expect((await change(token, { current_password: `guess${i}xx`, password: 'newpass123', repeat_password: 'newpass123' })).status).toBe(400);
    }
    const res = await change(token, { current_password: DEFAULT_PASSWORD, password: 'newpass123', repeat_password: 'newpass123' });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(AUTH_MESSAGES.tooManyPasswordAttempts);
  });
});

describe('PUT /api/users/me/email', () => {
  const changeEmail = (token: string, body: Record<string, unknown>) => call(app, 'PUT', '/api/users/me/email', { token, body });

  it('mails a link to the new address; the email changes only when it is followed', async () => {
    const { user, token } = await account();
    const newEmail = `new_${unique()}@example.com`;
    const res = await changeEmail(token, { email: newEmail.toUpperCase(), password: DEFAULT_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ message: AUTH_MESSAGES.emailChangeSent });
    expect((await row(user.id)).email).toBe(user.email);

    const letter = await letterTo(sink, newEmail, SUBJECTS.emailChange);
    expect(letter.to).toEqual([newEmail]);
    expect(sink.messages.filter((m) => m.to.includes(user.email))).toEqual([]);
    const confirmToken = linkToken(letter, '/confirm_account');

    expect((await call(app, 'POST', '/api/auth/confirm', { body: { token: confirmToken } })).status).toBe(200);
    expect((await me<Me>(app, token)).body.result.email).toBe(newEmail);
    expect((await login(app, newEmail, DEFAULT_PASSWORD)).status).toBe(200);
    expect((await login(app, user.email, DEFAULT_PASSWORD)).status).toBe(400);
    // Opened again: the new address is confirmed, and the answer says so (issue 15).
    const again = await call<{ message: string }>(app, 'POST', '/api/auth/confirm', { body: { token: confirmToken } });
    expect(again.status).toBe(200);
    expect(again.body.result.message).toBe(AUTH_MESSAGES.alreadyConfirmed);
  });

  it('refuses a wrong password and a taken address with field errors, mailing nothing', async () => {
    const { token } = await account();
    const { user: other } = await account();
    const target = `target_${unique()}@example.com`;
    const wrong = await changeEmail(token, { email: target, password: 'wrong-pass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ password: [AUTH_MESSAGES.wrongPassword] });
    const taken = await changeEmail(token, { email: other.email.toUpperCase(), password: DEFAULT_PASSWORD });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ email: [MESSAGES.emailExists] });
    const malformed = await changeEmail(token, { email: 'nope', password: DEFAULT_PASSWORD });
    expect(malformed.body.errors?.email).toEqual(['Введите корректный email']);
    await sleep(300);
    expect(sink.messages.filter((m) => m.to.includes(target) || m.to.includes(other.email))).toEqual([]);
  });

  it('limits "already registered" answers like letters, so the form cannot look addresses up', async () => {
    const { token } = await account();
    const { user: other } = await account();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await changeEmail(token, { email: other.email, password: DEFAULT_PASSWORD })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('refuses the change when the address was taken between the letter and the click', async () => {
    const { user, token } = await account();
    const contested = `contested_${unique()}@example.com`;
    expect((await changeEmail(token, { email: contested, password: DEFAULT_PASSWORD })).status).toBe(200);
    const confirmToken = linkToken(await letterTo(sink, contested, SUBJECTS.emailChange), '/confirm_account');
    await createUser(db, { email: contested });
    const res = await call(app, 'POST', '/api/auth/confirm', { body: { token: confirmToken } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.emailExists);
    expect((await row(user.id)).email).toBe(user.email);
  });

  it('a later request voids the earlier link; an expired link does nothing', async () => {
    const { user, token } = await account();
    const first = `first_${unique()}@example.com`;
    const second = `second_${unique()}@example.com`;
    await changeEmail(token, { email: first, password: DEFAULT_PASSWORD });
    const firstToken = linkToken(await letterTo(sink, first, SUBJECTS.emailChange), '/confirm_account');
    await changeEmail(token, { email: second, password: DEFAULT_PASSWORD });
    const secondToken = linkToken(await letterTo(sink, second, SUBJECTS.emailChange), '/confirm_account');
    expect((await call(app, 'POST', '/api/auth/confirm', { body: { token: firstToken } })).status).toBe(400);
    await db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.userId, user.id));
    expect((await call(app, 'POST', '/api/auth/confirm', { body: { token: secondToken } })).status).toBe(400);
    expect((await row(user.id)).email).toBe(user.email);
  });

  it('a password-reset link mailed to the old address stops working once the address changed', async () => {
    const { user, token } = await account();
    await call(app, 'POST', '/api/auth/recover', { body: { email: user.email }, remoteAddress: randomAddress() });
    const resetToken = linkToken(await letterTo(sink, user.email, SUBJECTS.reset), '/recover');
    const newEmail = `moved_${unique()}@example.com`;
    await changeEmail(token, { email: newEmail, password: DEFAULT_PASSWORD });
    await call(app, 'POST', '/api/auth/confirm', { body: { token: linkToken(await letterTo(sink, newEmail, SUBJECTS.emailChange), '/confirm_account') } });
    const res = await call(app, 'POST', '/api/auth/reset', { body: { token: resetToken, password: 'taken0ver1', repeat_password: 'taken0ver1' } });
    expect(res.status).toBe(400);
    expect((await login(app, newEmail, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it('limits how many letters one account can send to addresses of its choice', async () => {
    const { token } = await account();
    for (let i = 0; i < 5; i++) expect((await changeEmail(token, { email: `spam${i}_${unique()}@example.com`, password: DEFAULT_PASSWORD })).status).toBe(200);
    const res = await changeEmail(token, { email: `spam_${unique()}@example.com`, password: DEFAULT_PASSWORD });
    expect(res.status).toBe(429);
  });
});

describe('roles', () => {
  const switchRole = (token: string, role: unknown) => call<Me>(app, 'PUT', '/api/users/me/role', { token, body: { role } });

  it('a customer cannot switch to selling without the seller role', async () => {
    const { user, token } = await account({ role: 'customer' });
    const res = await switchRole(token, 'seller');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Сначала станьте продавцом');
    expect(await row(user.id)).toMatchObject({ roles: ['customer'], activeRole: 'customer' });
  });

  it('become-seller adds the role and switches to it; then switching back and forth works', async () => {
    const { user, token } = await account({ role: 'customer' });
    const became = await call<Me>(app, 'POST', '/api/users/me/become-seller', { token });
    expect(became.status).toBe(200);
    expect(became.body.result).toMatchObject({ roles: ['customer', 'seller'], active_role: 'seller' });

    expect((await switchRole(token, 'customer')).body.result).toMatchObject({ roles: ['customer', 'seller'], active_role: 'customer' });
    expect((await switchRole(token, 'seller')).body.result).toMatchObject({ active_role: 'seller' });
    expect((await switchRole(token, 'customer')).body.result).toMatchObject({ active_role: 'customer' });
    expect(await row(user.id)).toMatchObject({ roles: ['customer', 'seller'], activeRole: 'customer' });

    // Becoming a seller twice adds nothing.
    const again = await call<Me>(app, 'POST', '/api/users/me/become-seller', { token });
    expect(again.body.result.roles).toEqual(['customer', 'seller']);
  });

  it('a seller may switch to buying (everyone can buy)', async () => {
    const { user, token } = await account({ role: 'seller' });
    const res = await switchRole(token, 'customer');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ active_role: 'customer' });
    expect((await row(user.id)).roles).toEqual(expect.arrayContaining(['seller', 'customer']));
  });

  it.each(['admin', 'root', '', null, ['seller']])('refuses to switch to %j (400)', async (role) => {
    const { user, token } = await account({ role: 'seller' });
    const res = await switchRole(token, role);
    expect(res.status).toBe(400);
    expect(res.body.errors?.role).toEqual(['Неизвестная роль']);
    expect(await row(user.id)).toMatchObject({ roles: ['seller'], activeRole: 'seller' });
  });

  it('role changes of one account leave another untouched', async () => {
    const { token } = await account({ role: 'customer' });
    const { user: other } = await account({ role: 'customer' });
    await call(app, 'POST', '/api/users/me/become-seller', { token, body: { id: other.id, _id: other.id } });
    await call(app, 'PUT', '/api/users/me/role', { token, body: { role: 'customer', _id: other.id } });
    expect(await row(other.id)).toEqual(other);
  });
});

describe('another user\'s account is out of reach', () => {
  it('ids of another user in the bodies of /me calls change only the caller', async () => {
    const { user, token } = await account();
    const { user: other, token: otherToken } = await account();
    const otherFile = await insertFile(other.id);
    const withIds = (body: Record<string, unknown>) => ({ ...body, id: other.id, _id: other.id, userId: other.id, user: other.id });

    expect((await call(app, 'PUT', '/api/users/me/avatar', { token, body: withIds({ filePath: otherFile }) })).status).toBe(403);
    const pw = await call<string>(app, 'PUT', '/api/users/me/password', {
      token,
      body: withIds({ current_password: DEFAULT_PASSWORD, password: 'mine12345', repeat_password: 'mine12345' }),
    });
    expect(pw.status).toBe(200);
    expect((await me<Me>(app, pw.body.result)).body.result._id).toBe(user.id);
    const newEmail = `mine_${unique()}@example.com`;
    expect((await call(app, 'PUT', '/api/users/me/email', { token: pw.body.result, body: withIds({ email: newEmail, password: 'mine12345' }) })).status).toBe(200);
    await call(app, 'POST', '/api/auth/confirm', { body: { token: linkToken(await letterTo(sink, newEmail, SUBJECTS.emailChange), '/confirm_account') } });
    expect((await row(user.id)).email).toBe(newEmail);

    expect(await row(other.id)).toEqual(other);
    expect((await me(app, otherToken)).status).toBe(200);
    expect((await login(app, other.email, DEFAULT_PASSWORD)).status).toBe(200);
  });

  it('there is no route that changes a user by id, and reading one gives public fields only', async () => {
    const { token } = await account();
    const { user: other } = await account();
    const profile = await call(app, 'GET', `/api/users/${other.id}`, { token });
    expect(JSON.stringify(profile.body)).not.toContain(other.email);
    for (const [method, url] of [
      ['PATCH', `/api/users/${other.id}`],
      ['PUT', `/api/users/${other.id}/password`],
      ['PUT', `/api/users/${other.id}/role`],
      ['GET', `/api/users/me/${other.id}`],
    ] as const) {
      const res = await call(app, method, url, { token, body: method === 'GET' ? undefined : { name: 'Чужой', role: 'seller' } });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(await row(other.id)).toEqual(other);
  });
});

describe('a blocked or revoked account', () => {
  it('can change nothing with its old token', async () => {
    const { user, token } = await account();
    await db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, user.id));
    expect((await patchMe(token, { name: 'Заблок' })).status).toBe(401);
    expect((await call(app, 'POST', '/api/users/me/become-seller', { token })).status).toBe(401);
    expect((await row(user.id)).name).toBe(user.name);
  });
});
