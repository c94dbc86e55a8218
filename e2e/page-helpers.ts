// Page helpers of the end-to-end specs: waiting for the app, navigating, holding files back, reading a page's
// boot data. Re-exported by e2e/fixtures.ts, which the specs import.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page's pathname + search, e.g. "/login?from=%2Fprofile". */
export const pathOf = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};


/** An API call as another person's browser would make it, against a server's `baseUrl`; asserts a 200. */
export async function apiCall(baseUrl: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${url}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as { result: Record<string, unknown> };
}
/**
 * Waits until the page is interactive: React Router is idle, React has put its location on screen (React commits
 * navigations in transitions, after the URL changes), hydrated and run the shell's effects (they register the window
 * listeners; both seen through the init script of `newContext`), and the DOM has stopped changing.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const w = window as unknown as {
      __reactRouterDataRouter?: {
        state: { initialized: boolean; navigation: { state: string }; errors: Record<string, unknown> | null; location: { key: string } };
      };
      __e2eWindowListeners?: Set<string>;
      __e2eCommitted?: { key: string | null };
    };
    const router = w.__reactRouterDataRouter;
    // A guest's reading page starts the app on the first sign of intent (web/lib/boot-on-intent.ts): a pointer over it.
    if (!router && document.getElementById('app-modules')) document.body.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    if (!router || !router.state.initialized || router.state.navigation.state !== 'idle') return false;
    // The URL changes before React commits the page (in a transition): the page on screen must be the router's.
    if (w.__e2eCommitted && w.__e2eCommitted.key !== router.state.location.key) return false;
    // The root's own error boundary renders without the shell (and its effects).
    return !!w.__e2eWindowListeners?.has('vite:preloadError') || !!router.state.errors?.root;
  }, undefined, { timeout: 20_000 });
  await domQuiet(page);
}

/** Resolves once the DOM has not changed for `quietMs` (at most `maxMs`). */
export function domQuiet(page: Page, quietMs = 100, maxMs = 3000) {
  return page.evaluate(
    ([quiet, max]) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          observer.disconnect();
          clearTimeout(timer);
          clearTimeout(cap);
          resolve();
        };
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(finish, quiet);
        });
        let timer = setTimeout(finish, quiet);
        const cap = setTimeout(finish, max);
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
    [quietMs, maxMs] as const,
  );
}

/** The signed-in user's menu toggle in the header (its accessible name ends with "меню пользователя"). */
export const userMenuToggle = (page: Page) => page.locator('header summary[aria-label*="меню пользователя" i]');

/** The text of the page's main heading. */
export const h1Of = async (page: Page) => ((await page.locator('main h1').first().textContent()) ?? '').trim();

/** Opens a path as a full document load, waits for hydration and returns the HTTP status. */
export async function visit(page: Page, pathname: string): Promise<number> {
  const response = await page.goto(pathname);
  await hydrated(page);
  return response?.status() ?? 0;
}

/** A client-side navigation through React Router (no document load), resolved once it has settled. */
export async function clientNavigate(page: Page, to: string) {
  await page.evaluate(async (target) => {
    const router = (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter;
    await router.navigate(target);
  }, to);
  await hydrated(page);
}

/** Holds back the files whose address matches until open() is called. */
export async function hold(page: Page, pattern: RegExp) {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate = { asked: false, open: () => open() };
  await page.route(pattern, async (route) => {
    gate.asked = true;
    await opened;
    await route.continue();
  });
  return gate;
}

/** The preloads a guest's reading page hands to its boot script (web/lib/boot-on-intent.ts), as HTML. */
export function bootLinks(html: string): string {
  const attribute = /<script[^>]* data-boot="([^"]*)"/.exec(html)?.[1];
  if (!attribute) return '';
  return (JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { links: string }).links;
}

/** Puts a marker on window: it survives client navigations and disappears with a document load. */
export const setMarker = (page: Page) => page.evaluate(() => void ((window as unknown as { __e2eMarker?: number }).__e2eMarker = 1));
export const hasMarker = (page: Page) => page.evaluate(() => (window as unknown as { __e2eMarker?: number }).__e2eMarker === 1);
