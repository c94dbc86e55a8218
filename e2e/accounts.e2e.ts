import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSmtpSink } from '../server/test/smtp-sink.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { checkA11y, hydrated, pathOf, useE2E, visit } from './fixtures.ts';

// Issue 3 end to end: accounts through the browser, with real letters through a real SMTP sink.

const sink = await startSmtpSink();
const e2e = useE2E({ SMTP_URL: sink.url });
afterAll(() => sink.close());

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

async function register(page: Page, fields: { login: string; email: string; password?: string; role?: 'customer' | 'seller' }) {
  await visit(page, '/reg');
  if (fields.role === 'seller') await page.getByLabel('Продавать услуги').check();
  await page.getByLabel('Имя', { exact: true }).fill('Ирина');
  await page.getByLabel('Фамилия').fill('Проверкина');
  await page.getByLabel('Логин').fill(fields.login);
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Пароль', { exact: true }).fill(fields.password ?? 'parol12345');
  await page.getByLabel('Повторите пароль').fill(fields.password ?? 'parol12345');
  await page.getByTestId('bot-check-stand-in').getByRole('checkbox').check();
  // 152-ФЗ: the separate consent (ADR 052).
  await page.locator('input[name="personal_data_consent"]').check();
  await page.locator('main').getByRole('button', { name: 'Зарегистрироваться' }).click();
}

async function login(page: Page, email: string, password: string, remember = true) {
  if (!pathOf(page).startsWith('/login')) await visit(page, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill(password);
  await page.getByLabel('Запомнить меня').setChecked(remember);
  await page.locator('main').getByRole('button', { name: 'Войти', exact: true }).click();
}

const toastText = (page: Page) => page.locator('.toast').first().textContent();

describe('accounts', () => {
  it('register → letter → confirm → sign in with remember-me → second tab follows → seller → avatar → logout everywhere', async () => {
    const { page, context } = await e2e.open();
    const login_ = `irina_${unique()}`;
    const email = `${login_}@example.com`;
    await register(page, { login: login_, email });
    await page.waitForURL('**/verify');
    await hydrated(page);
    await expect.poll(() => page.locator('main').textContent()).toContain(email);
    await checkA11y(page);

    const letter = await sink.waitFor((m) => m.to.includes(email));
    expect(letter.subject).toBe('Подтвердите email — Подряд');
    const link = letter.links.find((l) => l.includes('/confirm_account?token='));
    expect(link).toBeTruthy();
    await page.goto(link!);
    await expect.poll(() => page.locator('.form-success').textContent()).toBe('Email подтверждён');
    await checkA11y(page);

    // Sign out through the modal, then in again with remember-me while a second tab waits on /login.
    await visit(page, '/faq');
    await page.getByLabel('Меню пользователя').click();
    await page.locator('.user-menu__logout').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL('**/login');
    await hydrated(page);

    const second = await context.newPage();
    await visit(second, '/login?from=%2Fhelp');
    await login(page, email, 'parol12345', true);
    await page.waitForURL((u) => u.pathname === '/');
    const cookie = (await context.cookies()).find((c) => c.name === AUTH_TOKEN_KEY)!;
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(604_800_000 - 120_000);
    // The other tab saw isAuth change and went where it was asked to go, signed in.
    await second.waitForURL('**/help');
    await hydrated(second);
    await second.getByLabel('Меню пользователя').waitFor();
    await second.close();

    // Buying → selling: without the seller role the toggle leads to /become-seller.
    await hydrated(page);
    await page.getByRole('group', { name: 'Режим' }).getByRole('button', { name: 'Продавец' }).click();
    await page.waitForURL('**/become-seller');
    await hydrated(page);
    await page.locator('main').getByRole('button', { name: 'Стать продавцом' }).click();
    await page.waitForURL('**/projects');
    await hydrated(page);
    await expect.poll(() => page.getByRole('button', { name: 'Продавец' }).getAttribute('aria-pressed')).toBe('true');

    // An avatar, uploaded from the settings page, shows in the header at once.
    await visit(page, '/profile/settings');
    await checkA11y(page);
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await expect.poll(() => toastText(page)).toContain('Аватар обновлён');
    await expect.poll(() => page.locator('.user-menu__toggle img').getAttribute('src')).toMatch(/^\/uploads\/[0-9a-f-]{36}\/[0-9a-f]{32}\.png$/);

    // Logout everywhere: this tab goes to /login and the old token is dead.
    const token = decodeURIComponent((await context.cookies()).find((c) => c.name === AUTH_TOKEN_KEY)!.value);
    // The browser logs the dropped socket's last poll (400) and the session check (401) that sign it out.
    e2e.allowConsoleErrors(/socket\.io.*status of 400|status of 400.*socket\.io/, /status of 401/);
    await page.getByRole('button', { name: 'Выйти на всех устройствах' }).click();
    await page.waitForURL('**/login');
    const me = await fetch(`${e2e.url}/api/users/me/`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
  });

  it('recovers a forgotten password from the letter', async () => {
    const { user } = await e2e.user({ password: 'old-pass-1' });
    const { page } = await e2e.open();
    await visit(page, '/recover');
    await page.getByLabel('Email').fill(user.email);
    await page.locator('main').getByRole('button', { name: 'Отправить ссылку' }).click();
    await expect.poll(() => page.locator('main [role=status]').textContent()).toContain('Если аккаунт с таким email существует');
    const letter = await sink.waitFor((m) => m.to.includes(user.email));
    const link = letter.links.find((l) => l.includes('/recover?token='))!;
    await visit(page, new URL(link).pathname + new URL(link).search);
    await page.getByLabel('Новый пароль').fill('new-pass-2');
    await page.getByLabel('Повторите пароль').fill('new-pass-2');
    await page.locator('main').getByRole('button', { name: 'Сохранить пароль' }).click();
    await expect.poll(() => page.locator('main [role=status]').textContent()).toBe('Пароль изменён');
    await checkA11y(page);
    await page.getByRole('link', { name: 'Войти с новым паролем' }).click();
    await page.waitForURL('**/login');
    await hydrated(page);
    await login(page, user.email, 'new-pass-2');
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('an admin blocks a user and that user’s open tab is signed out', async () => {
    const { user, token } = await e2e.user();
    const { page } = await e2e.open({ token });
    e2e.allowConsoleErrors(/status of 400/, /status of 401/);
    await visit(page, '/faq');
    await page.getByLabel('Меню пользователя').waitFor();
    await expect.poll(() => page.evaluate(() => document.cookie)).toContain(AUTH_TOKEN_KEY);

    const { token: adminToken } = await e2e.user({ role: 'admin' });
    const { page: admin } = await e2e.open({ token: adminToken });
    await visit(admin, `/admin/users?q=${encodeURIComponent(user.email)}`);
    await checkA11y(admin);
    await admin.getByRole('link', { name: new RegExp(user.name) }).click();
    await admin.waitForURL(`**/admin/users/${user.id}`);
    await hydrated(admin);
    await checkA11y(admin);
    await admin.getByLabel('Причина блокировки').fill('Мошенничество');
    await admin.getByRole('button', { name: 'Заблокировать' }).click();
    await admin.getByRole('button', { name: 'Разблокировать' }).waitFor();
    await expect.poll(() => admin.locator('.audit').textContent()).toContain('Мошенничество');

    await page.waitForURL('**/login', { timeout: 15_000 });
    await hydrated(page);
    await page.locator('header').getByRole('link', { name: 'Войти' }).waitFor();
  });

  it('shows SPEC §8 texts for sign-in and registration failures', async () => {
    const { user } = await e2e.user({ password: 'right-pass-1' });
    const { page } = await e2e.open();
    await login(page, user.email, 'wrong-pass-1');
    await expect.poll(() => toastText(page)).toBe('Неверный логин или пароль');
    // The toast stands top-right, below the header, whose controls stay uncovered.
    const box = (await page.locator('.toast').first().boundingBox())!;
    const header = (await page.locator('header').first().boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(box.y).toBeLessThan(120);
    expect(box.x + box.width).toBeGreaterThan(1280 - 60);
    e2e.allowConsoleErrors(/status of 400/);

    const { user: blocked } = await e2e.user({ password: 'right-pass-1', blockedAt: new Date() });
    await visit(page, '/login');
    await login(page, blocked.email, 'right-pass-1');
    await expect.poll(() => toastText(page)).toBe('Непредвиденная ошибка');
    e2e.allowConsoleErrors(/status of 403/);

    await register(page, { login: `other_${unique()}`, email: user.email });
    await expect.poll(() => page.locator('.toast', { hasText: 'email' }).first().textContent()).toBe('Пользователь с таким email уже существует');
    // Said once (issue 15): the toast says what happened, the email field what to do; the form does not repeat it.
    await expect.poll(() => page.getByText('Пользователь с таким email уже существует').count()).toBe(1);
    await expect.poll(() => page.getByText('Этот email уже зарегистрирован: войдите или восстановите пароль').isVisible()).toBe(true);
    await register(page, { login: user.userName.toUpperCase(), email: `x_${unique()}@example.com` });
    await expect.poll(() => page.locator('.toast', { hasText: 'логином' }).first().textContent()).toBe('Пользователь с таким логином уже существует');
  });

  it('after sign-in goes to ?from= only when it is a path of our own', async () => {
    const { user } = await e2e.user({ password: 'right-pass-1' });
    const { page, context } = await e2e.open();
    // A second tab on a hostile ?from= follows the sign-in through isAuth, and must stay on our origin too.
    const second = await context.newPage();
    await visit(second, '/login?from=%2F%5C%2Fevil.example');
    await visit(page, '/login?from=/%5Cevil.example');
    await login(page, user.email, 'right-pass-1');
    await page.waitForURL((u) => u.pathname === '/');
    expect(new URL(page.url()).origin).toBe(e2e.url);
    await second.waitForURL((u) => u.pathname === '/');
    expect(new URL(second.url()).origin).toBe(e2e.url);
    await second.close();
  });
});

describe('«Стать продавцом» on a phone', () => {
  it('fits a 375 px screen: no sideways scrolling, the sign-up button whole and inside the screen', async () => {
    for (const width of [375, 1280]) {
      const { page } = await e2e.open({ viewport: { width, height: 800 } });
      await visit(page, '/become-seller');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow, `/become-seller scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
      const button = page.getByRole('link', { name: 'Зарегистрироваться как продавец' });
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // The whole label is shown, not clipped by the card.
      expect(await button.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
  });
});

describe('short profile pages on a phone', () => {
  it('put the heading right under the menu, with no blank band between them', async () => {
    const { token } = await e2e.user();
    const { page } = await e2e.open({ token, viewport: { width: 375, height: 800 } });
    await visit(page, '/profile/reviews');
    const menu = (await page.locator('nav.side-menu').boundingBox())!;
    const heading = (await page.locator('main h1').first().boundingBox())!;
    expect(heading.y - (menu.y + menu.height)).toBeLessThan(60);
  });
});
