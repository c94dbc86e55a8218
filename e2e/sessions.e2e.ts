import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../server/db/factories.ts';
import { testCityDatabase } from '../server/test/mmdb-writer.ts';
import { DESKTOP_USER_AGENT, MOBILE_USER_AGENT, device, hydrated, norm, pageCheck, shotsDir, useE2E, visit, widthsFor } from './fixtures.ts';

// Issue 28's sessions in Chromium (ADR 055): /profile/settings lists the person's devices with this one marked;
// ending another one refuses its token at once and signs its open tab out (its socket is cut); «Завершить все, кроме
// этого» leaves this browser signed in.
// The server reads a GeoIP City database the test writes (ADR 059) and trusts this machine's X-Forwarded-For: one
// device signs in «from Saint Petersburg», the longest place of the fixture, and the list shows it beside the network.
// On a 375 px phone (at 1280 px too with E2E_WIDTHS=both, ADR 095); screenshots in /tmp/sessions-shots/.

const geoipDb = path.join(mkdtempSync(path.join(tmpdir(), 'podryad-e2e-geoip-')), 'city.mmdb');
writeFileSync(geoipDb, testCityDatabase());
const e2e = useE2E({ GEOIP_DB: geoipDb, TRUST_PROXY: '127.0.0.1' });
const checkPage = pageCheck(shotsDir('sessions'), { settle: true });

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** A sign-in by password from a browser with this User-Agent (from `from`, as a proxy says): its session's token. */
async function signInAs(email: string, userAgent: string, from?: string): Promise<string> {
  const res = await fetch(`${e2e.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...(from ? { 'x-forwarded-for': from } : {}) },
    body: JSON.stringify({ email, password: DEFAULT_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: string }).result;
}

const meStatus = async (token: string) => (await fetch(`${e2e.url}/api/users/me/`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('sessions', { timeout: 180_000 }, () => {
  it.each(widthsFor(375))('lists the devices, ends another one, then all but this one (%i px)', async (width) => {
    const { user } = await e2e.user();
    const own = await signInAs(user.email, width === 375 ? MOBILE_USER_AGENT : DESKTOP_USER_AGENT);
    const phone = await signInAs(user.email, IPHONE);
    const windows = await signInAs(user.email, WINDOWS, '95.165.200.10');
    // The phone's tab is open: ending its session signs it out there and then, through its cut socket.
    const { page: phoneTab } = await e2e.open({ token: phone, ...device(width) });
    // The cut socket's pending poll (400) and the signed-out tab's last call (401) are the browser's console lines.
    e2e.allowConsoleErrors(/status of 401/, /status of 400 \(Bad Request\) \[[^\]]+\/socket\.io\//);
    await visit(phoneTab, '/faq');
    await hydrated(phoneTab);
    const { page } = await e2e.open({ token: own, ...device(width) });
    await visit(page, '/profile/settings');
    await hydrated(page);

    const items = page.getByTestId('session');
    expect(await items.count()).toBe(3);
    const current = items.filter({ hasText: 'Это устройство' });
    expect(await current.count()).toBe(1);
    expect(await current.getByRole('button', { name: /Завершить/ }).count()).toBe(0);
    const iphone = items.filter({ hasText: 'Apple iPhone' });
    expect(await iphone.textContent()).toContain('Safari 17');
    // The city beside the network where the database knows the address; the network alone where not (loopback).
    expect(norm(await items.filter({ hasText: 'Windows' }).textContent())).toContain('Санкт-Петербург, Россия · сеть 95.165.200.0/24 · был активен');
    expect(norm(await iphone.textContent())).toContain('Сеть 127.0.0.0/24');
    await checkPage(page, 'sessions');

    // Ending the phone's session: gone from the list, its token refused at once.
    await iphone.getByRole('button', { name: /Завершить/ }).click();
    await expect.poll(() => items.count()).toBe(2);
    expect(await meStatus(phone)).toBe(401);
    await phoneTab.waitForURL('**/login', { timeout: 15_000 });
    expect(await meStatus(windows)).toBe(200);

    // All but this one: this browser stays signed in (with a fresh token), the Windows one is out.
    await page.getByRole('button', { name: 'Завершить все, кроме этого' }).click();
    await expect.poll(() => items.count()).toBe(1);
    expect(await meStatus(windows)).toBe(401);
    await visit(page, '/profile/settings');
    await hydrated(page);
    expect(await items.count()).toBe(1);
    expect(await items.first().textContent()).toContain('Это устройство');
    expect(await page.getByRole('button', { name: 'Завершить все, кроме этого' }).count()).toBe(0);
    await checkPage(page, 'sessions-only-this');
  });
});
