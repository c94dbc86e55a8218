import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { checkA11y, clientNavigate, h1Of, hasMarker, hydrated, pathOf, setMarker, useE2E, visit } from './fixtures.ts';

// With the development flag on (PUBLIC_DEV): the /test diagnostics page and its socket transport
// (SPEC §2, §4); keeping open tabs current: the build id and the new-version check
// (builds/latest.json), the chunk-load reload guard (SPEC §9: at most once in 10 s); and link
// prefetching that skips slow connections (SPEC §9).

const latestFile = path.resolve(import.meta.dirname, '..', 'build', 'client', 'builds', 'latest.json');

/** Dispatches vite:preloadError as Vite does when a chunk fails to load; true when the app handled it. */
const dispatchPreloadError = (page: Page) =>
  page.evaluate(() => !window.dispatchEvent(new Event('vite:preloadError', { cancelable: true })));

/** React Router's <link rel="prefetch"> for a hovered <Link>'s data (React hoists them into <head>). */
const prefetchLinks = (page: Page) => page.evaluate(() => document.querySelectorAll('link[rel="prefetch"]').length);

/** Waits long enough for React Router's intent prefetch (100 ms after hover) to have rendered. */
const settle = (page: Page) => page.waitForTimeout(600);

const TWO_G = { offline: false, latency: 2000, downloadThroughput: 5000, uploadThroughput: 5000, connectionType: 'cellular2g' } as const;
const NO_THROTTLING = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 } as const;

async function emulate(cdp: CDPSession, page: Page, conditions: typeof TWO_G | typeof NO_THROTTLING, effectiveType: string) {
  await cdp.send('Network.emulateNetworkConditions', conditions);
  await expect.poll(() => page.evaluate(() => (navigator as unknown as { connection?: { effectiveType?: string } }).connection?.effectiveType)).toBe(effectiveType);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

describe('development flag, versions, reloads and prefetch', () => {
  const e2e = useE2E({ PUBLIC_DEV: '1' });

  it('shows /test, and the socket transport of a signed-in user until the server drops it', async () => {
    const guest = await e2e.open();
    expect(await visit(guest.page, '/test')).toBe(200);
    expect(await h1Of(guest.page)).toBe('Диагностика');
    expect(await guest.page.title()).toBe('Диагностика - Подряд');
    expect(await guest.page.getByTestId('socket-transport').textContent()).toBe('N/A');
    await checkA11y(guest.page);

    const { user, token } = await e2e.user();
    const { page } = await e2e.open({ token });
    expect(await visit(page, '/test')).toBe(200);
    // The socket connects with the token from the cookie, over long polling only.
    const transport = page.getByTestId('socket-transport');
    await expect.poll(() => transport.textContent(), { timeout: 15_000 }).toBe('polling');
    await checkA11y(page);

    // The poll still in flight when the server drops the session answers 400 (unknown session id).
    e2e.allowConsoleErrors(/status of 400 \(Bad Request\) \[[^\]]*\/socket\.io\//);
    e2e.server.realtime.disconnectUser(user.id);
    await expect.poll(() => transport.textContent(), { timeout: 15_000 }).toBe('N/A');
  });

  it('serves builds/latest.json, whose id the page was built with', async () => {
    const { id } = JSON.parse(readFileSync(latestFile, 'utf8')) as { id: string };
    expect(id).toMatch(/\S/);

    const response = await fetch(`${e2e.url}/builds/latest.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(((await response.json()) as { id: string }).id).toBe(id);

    const { page } = await e2e.open();
    await visit(page, '/test');
    expect(await page.getByTestId('build-id').textContent()).toBe(id);
    await checkA11y(page);
  });

  it('loads the new version in full on the next navigation once builds/latest.json changes', async () => {
    const { page, context } = await e2e.open();
    await context.clock.install();
    let polled = 0;
    await context.route('**/builds/latest.json', (route) => {
      polled++;
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ id: 'a-newer-build' }) });
    });
    await visit(page, '/faq');
    await setMarker(page);

    // Before the check is due nothing happens: a client navigation stays client-side.
    await clientNavigate(page, '/about');
    expect(await hasMarker(page)).toBe(true);
    expect(polled).toBe(0);

    // The check runs every 5 minutes.
    await page.clock.fastForward('05:01');
    await expect.poll(() => polled).toBeGreaterThan(0);
    expect(await hasMarker(page), 'no reload by itself').toBe(true);

    const loaded = page.waitForEvent('load');
    await page.evaluate(() => {
      void (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate('/contacts');
    });
    await loaded;
    await hydrated(page);
    expect(pathOf(page)).toBe('/contacts');
    expect(await hasMarker(page), 'the navigation reloaded the page').toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('reloadedAt'))).toMatch(/^\d+$/);
    await checkA11y(page);
  });

  it('reloads once on a chunk-load error, and not again within 10 s', async () => {
    const { page, context } = await e2e.open();
    // A controllable clock (it runs in real time until told otherwise).
    await context.clock.install();
    await visit(page, '/help');
    await setMarker(page);
    expect(await page.evaluate(() => sessionStorage.getItem('reloadedAt'))).toBeNull();

    const reloaded = page.waitForEvent('load');
    expect(await dispatchPreloadError(page), 'the app handles the event').toBe(true);
    await reloaded;
    await hydrated(page);
    expect(pathOf(page)).toBe('/help');
    expect(await hasMarker(page), 'the page reloaded').toBe(false);
    const reloadedAt = Number(await page.evaluate(() => sessionStorage.getItem('reloadedAt')));
    expect(Math.abs(Date.now() - reloadedAt)).toBeLessThan(30_000);

    // Again right away: no reload loop.
    await setMarker(page);
    let navigations = 0;
    page.on('framenavigated', (frame) => void (frame === page.mainFrame() && navigations++));
    expect(await page.evaluate(() => Date.now()) - reloadedAt, 'still inside the 10 s window').toBeLessThan(10_000);
    expect(await dispatchPreloadError(page)).toBe(true);
    await page.waitForTimeout(1500);
    expect(navigations).toBe(0);
    expect(await hasMarker(page), 'no second reload within 10 s').toBe(true);
    expect(Number(await page.evaluate(() => sessionStorage.getItem('reloadedAt')))).toBe(reloadedAt);
    await checkA11y(page);

    // Once the window has passed, a new failure reloads again.
    await page.clock.fastForward(10_000);
    const reloadedAgain = page.waitForEvent('load');
    expect(await dispatchPreloadError(page)).toBe(true);
    await reloadedAgain;
    await hydrated(page);
    expect(await hasMarker(page), 'reloaded after the window').toBe(false);
    expect(Number(await page.evaluate(() => sessionStorage.getItem('reloadedAt')))).toBeGreaterThan(reloadedAt + 10_000);
  });

  it('prefetches a hovered link on a normal connection', async () => {
    const { page } = await e2e.open();
    await visit(page, '/');
    expect(await prefetchLinks(page)).toBe(0);
    const prefetched = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/faq'));
    await page.locator('footer a[href="/faq"]').hover();
    await expect.poll(() => prefetchLinks(page)).toBeGreaterThan(0);
    // The browser fetches the page's data ahead of the click.
    await prefetched;
    await checkA11y(page);
  });

  it('does not prefetch on a 2G connection, and prefetches again once it is fast', async () => {
    const { page, context } = await e2e.open();
    await visit(page, '/');
    const cdp = await context.newCDPSession(page);
    await emulate(cdp, page, TWO_G, '2g');

    await page.locator('footer a[href="/faq"]').hover();
    await settle(page);
    expect(await prefetchLinks(page), 'no prefetch on 2g').toBe(0);

    await emulate(cdp, page, NO_THROTTLING, '4g');
    await page.mouse.move(0, 0);
    await page.locator('footer a[href="/help"]').hover();
    await expect.poll(() => prefetchLinks(page)).toBeGreaterThan(0);
    await checkA11y(page);
  });

  it('does not prefetch with data saver on', async () => {
    const { page, context } = await e2e.open();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
    // Data saver has no 'change' event: the page reads it when it starts.
    await visit(page, '/');
    expect(await page.evaluate(() => (navigator as unknown as { connection?: { saveData?: boolean } }).connection?.saveData)).toBe(true);
    // React Router skips eager route discovery with data saver on; a visit makes /about's route
    // known, so only the app's own check can keep the hovered link from prefetching.
    await clientNavigate(page, '/about');
    await clientNavigate(page, '/');
    await page.locator('footer a[href="/about"]').hover();
    await settle(page);
    expect(await prefetchLinks(page), 'no prefetch with data saver').toBe(0);
    await checkA11y(page);
  });
});
