import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { DESKTOP_USER_AGENT, newContext } from './fixtures.ts';

/**
 * Issue 31's ceiling for what a first-time guest downloads with a page, gzip: the files the page fetches plus the
 * inline scripts of its HTML. The app itself starts when they reach for the page (web/lib/boot-on-intent.ts).
 */
export const JS_BUDGET_KIB = 110;
/**
 * The ceiling once the app has started: everything above plus React, React Router and the page's code (issue 11
 * aimed at 120 for the files alone; 123 with the inline scripts since issue 31, and the boot script's 1.2 KiB).
 */
export const APP_JS_BUDGET_KIB = 125;

export interface ScriptSize {
  /** The path, e.g. /assets/root-abc123.js; for an inline script `inline #n: <its first characters>`. */
  url: string;
  /** An inline <script> of the page's HTML rather than a file. */
  inline: boolean;
  raw: number;
  /** gzip -9 of the bytes, whatever coding the server chose to send (an inline script on its own). */
  gzip: number;
}

const size = (url: string, inline: boolean, body: Buffer): ScriptSize => ({
  url,
  inline,
  raw: body.length,
  gzip: gzipSync(body, { level: 9 }).length,
});

/**
 * The inline scripts a browser runs in `html`: every `<script>` without `src` whose type is JavaScript (none,
 * `module`, `text/javascript`, and the inert module script a guest's reading page runs later). JSON-LD (`application/ld+json`) is data for search engines, not code: left out.
 */
export function inlineScripts(html: string): ScriptSize[] {
  const found: ScriptSize[] = [];
  // Linear: the attributes stop at the first `>`, the body at the first `</script`.
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([^]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(attrs!)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs!)?.[1]?.toLowerCase();
    // React Router's module script kept inert until the app starts (web/lib/boot-on-intent.ts) counts: it is code.
    if (
      type &&
      type !== 'module' &&
      type !== 'text/x-app-modules' &&
      !/^(text|application)\/(java|ecma)script$/.test(type)
    )
      continue;
    const text = body!.trim();
    if (text)
      found.push(
        size(`inline #${found.length + 1}: ${text.slice(0, 40).replace(/\s+/g, ' ')}`, true, Buffer.from(body!)),
      );
  }
  return found;
}

/** What a guest downloads: at load, and once the app has started (web/lib/boot-on-intent.ts). */
export interface GuestScripts {
  /** The files fetched until the network went idle, untouched, and the HTML's inline scripts. */
  atLoad: ScriptSize[];
  /** The same after the first sign of intent (a pointer over the page) started the app and it hydrated. */
  withApp: ScriptSize[];
}

/**
 * Every JavaScript a guest's browser gets for `pathname` (a fresh context: no cookies, no cache): the files (the
 * entry, its modulepreloads and whatever the page imports until the network is idle) and the inline scripts of the
 * HTML the server sent; then the same once a pointer over the page has started the app.
 */
export async function guestScripts(browser: Browser, origin: string, pathname: string): Promise<GuestScripts> {
  const context = await newContext(browser, { baseURL: origin, userAgent: DESKTOP_USER_AGENT });
  try {
    const page = await context.newPage();
    const pending: Promise<ScriptSize | null>[] = [];
    page.on('response', (res) => {
      const type = res.headers()['content-type'] ?? '';
      if (!/javascript/.test(type) && !res.url().endsWith('.js')) return;
      pending.push(
        res.body().then(
          (body) => size(new URL(res.url()).pathname, false, body),
          () => null,
        ),
      );
    });
    const files = async () => {
      const seen = (await Promise.all(pending)).filter((s): s is ScriptSize => s !== null);
      return [...new Map(seen.map((s) => [s.url, s])).values()];
    };
    const response = await page.goto(pathname, { waitUntil: 'networkidle' });
    if (!response?.ok()) throw new Error(`GET ${pathname}: ${response?.status()}`);
    const inline = inlineScripts(await response.text());
    const atLoad = [...(await files()), ...inline];
    await page.mouse.move(100, 100);
    await page.mouse.move(300, 200);
    // Not hydrated(): its init script does not survive tsx's transform (bench/js-budget.ts runs this too).
    await page.waitForFunction(
      () =>
        (window as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state
          .initialized,
      undefined,
      {
        timeout: 20_000,
      },
    );
    // Until no script has come for half a second: the lazy parts a page imports as it hydrates.
    for (let count = -1; count !== pending.length;) {
      count = pending.length;
      await page.waitForTimeout(500);
    }
    return { atLoad, withApp: [...(await files()), ...inline] };
  } finally {
    await context.close();
  }
}

/** KiB gzip of `scripts`: all of them, or only the files (`inline: false`) or only the inline ones (`true`). */
export const totalKib = (scripts: ScriptSize[], inline?: boolean) =>
  scripts.filter((s) => inline === undefined || s.inline === inline).reduce((sum, s) => sum + s.gzip, 0) / 1024;
