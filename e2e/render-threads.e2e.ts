import { describe, expect, it } from 'vitest';
import { createService } from '../server/db/catalog-factories.ts';
import { AUTH_TOKEN_KEY } from '../contract/constants.ts';
import { DESKTOP_USER_AGENT, h1Of, hydrated, useE2E } from './fixtures.ts';

// ADR 077: once renders keep the server busy, pages are rendered in a worker thread. The real app's pages must come
// out of the thread as they come out of the server's own thread, and work in a browser.

describe('pages rendered in a thread', () => {
  const e2e = useE2E({ RENDER_THREADS: '1' });
  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(e2e.url + url, { headers: { 'user-agent': DESKTOP_USER_AGENT, ...headers }, redirect: 'manual' });
  /** A page's status and HTML, its per-response nonce taken out. */
  const rendered = async (url: string, headers?: Record<string, string>) => {
    const response = await get(url, headers);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    const body = await response.text();
    return { status: response.status, body: nonce ? body.replaceAll(nonce, 'NONCE') : body };
  };

  it('come out of the thread as they come out of the server’s thread, and work in a browser', async () => {
    const pool = e2e.server.app.renderPool!;
    const { user: seller } = await e2e.user({ role: 'seller', name: 'Вера' });
    const service = await createService(e2e.server.database.db, seller.id, { category: 'design', title: 'Логотип для пекарни у дома' });
    const { token } = await e2e.user({ name: 'Пётр' });
    const signedIn = { cookie: `${AUTH_TOKEN_KEY}=${encodeURIComponent(token)}` };
    const servicePage = `/services/design/${service.id}?q=logo`;
    // A guest's service page (a search's `?q=`: rendered every time), a signed-in visitor's profile, a client
    // navigation's data, the 404 page.
    const pages = async () => ({
      guest: await rendered(servicePage),
      signedIn: await rendered('/profile/settings', signedIn),
      data: await rendered(`/services/design/${service.id}.data?q=logo`),
      missing: await rendered('/no-such-page'),
    });

    expect(pool.threads()).toBe(0);
    const inProcess = await pages();
    expect(inProcess.guest.body).toContain('Логотип для пекарни у дома');
    expect(inProcess.signedIn.body).toContain('Пётр');
    expect([inProcess.guest.status, inProcess.signedIn.status, inProcess.data.status, inProcess.missing.status]).toEqual([200, 200, 200, 404]);

    // Renders taking a quarter of the server's time start the thread.
    const until = Date.now() + 20_000;
    while (pool.threads() === 0 && Date.now() < until) await (await get(`${servicePage}&load=${Date.now()}`)).arrayBuffer();
    expect(pool.threads()).toBe(1);
    expect(await pages()).toEqual(inProcess);

    // In a browser, the thread's page is allowed its scripts (the nonce), starts the app and finds its way.
    const { page } = await e2e.open();
    await page.goto(servicePage);
    await hydrated(page);
    expect(await h1Of(page)).toBe('Логотип для пекарни у дома');
    await page.getByRole('link', { name: 'Вера' }).first().click();
    await page.waitForURL(/\/user\//);
    // The address changes before React commits the new page: wait until the router's page is on screen.
    await hydrated(page);
    expect(await h1Of(page)).toContain('Вера');
    expect(pool.threads()).toBe(1);
  });
});
