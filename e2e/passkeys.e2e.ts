import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEFAULT_PASSWORD } from '../server/db/factories.ts';
import { passkeys } from '../server/modules/auth/schema.ts';
import { useE2E, visit } from './fixtures.ts';

// Issue 28's passkeys in Chromium (ADR 057), with the DevTools protocol's virtual authenticator (WebAuthn domain):
// a passkey added in /profile/settings, then a password-less sign-in with it, then — once the account has TOTP too —
// the sign-in's second step answered with the passkey, and its removal confirmed (step-up) with the passkey too. WebAuthn refuses an IP address as the relying party's id, so
// the pages are opened at http://localhost:PORT (the server listens on 127.0.0.1).

const e2e = useE2E();

async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function signInWithPassword(page: Page, email: string) {
  await visit(page, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Пароль').fill(DEFAULT_PASSWORD);
  await page.locator('main').getByRole('button', { name: 'Войти', exact: true }).click();
}

describe('passkeys', { timeout: 180_000 }, () => {
  it('adds a passkey, signs in with it without a password, and answers the second step with it', async () => {
    const localhost = e2e.url.replace('127.0.0.1', 'localhost');
    const { user } = await e2e.user();
    const { page, context } = await e2e.open({ baseURL: localhost });
    const { cdp, authenticatorId } = await withAuthenticator(page);

    await signInWithPassword(page, user.email);
    await page.waitForURL((url) => url.pathname === '/');
    await visit(page, '/profile/settings');
    const card = page.getByTestId('passkeys-card');
    await card.getByLabel('Название ключа').fill('Ноутбук');
    await card.getByRole('button', { name: 'Добавить ключ доступа' }).click();
    await card.getByTestId('passkey').first().waitFor();
    expect(await card.getByTestId('passkey').first().textContent()).toContain('Ноутбук');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    const [stored] = await e2e.server.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(stored!.credentialId).toBe(Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url'));

    // Signed out: «Войти с ключом доступа» with no email or password.
    await context.clearCookies();
    await visit(page, '/login');
    await page.getByRole('button', { name: 'Войти с ключом доступа' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await visit(page, '/profile/settings');
    expect(page.url()).toContain('/profile/settings');
    const [used] = await e2e.server.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(used!.lastUsedAt).not.toBeNull();

    // A passkey is a second factor: the password now leads to the second step, answered with the passkey.
    await context.clearCookies();
    await signInWithPassword(page, user.email);
    await page.getByRole('button', { name: 'Подтвердить ключом доступа' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // Removing it asks for a step-up, which the passkey itself confirms.
    await visit(page, '/profile/settings');
    e2e.allowConsoleErrors(/403 \(Forbidden\) \[http:\/\/[^\]]+\/api\/auth\/passkeys\/[^\]]+\]/);
    await card.getByRole('button', { name: 'Удалить ключ доступа «Ноутбук»' }).click();
    const dialog = page.getByRole('dialog', { name: 'Подтвердите действие' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Подтвердить ключом доступа' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => card.getByTestId('passkey').count()).toBe(0);
    expect(await e2e.server.database.db.select().from(passkeys).where(eq(passkeys.userId, user.id))).toEqual([]);
  });
});
