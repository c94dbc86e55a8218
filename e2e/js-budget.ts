import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { DESKTOP_USER_AGENT, newContext } from './fixtures.ts';

/** The test suite's ceiling for a first-time guest's JavaScript per page, gzip (issue 11 aims at 120). */
export const JS_BUDGET_KIB = 120;

export interface ScriptSize {
  /** The path, e.g. /assets/root-abc123.js. */
  url: string;
  raw: number;
  /** gzip -9 of the bytes, whatever coding the server chose to send. */
  gzip: number;
}

/**
 * Every JavaScript file a guest's browser fetches for `pathname` (a fresh context: no cookies, no cache): the entry,
 * its modulepreloads and whatever the page imports until the network is idle.
 */
export async function guestScripts(browser: Browser, origin: string, pathname: string): Promise<ScriptSize[]> {
  const context = await newContext(browser, { baseURL: origin, userAgent: DESKTOP_USER_AGENT });
  try {
    const page = await context.newPage();
    const pending: Promise<ScriptSize | null>[] = [];
    page.on('response', (res) => {
      const type = res.headers()['content-type'] ?? '';
      if (!/javascript/.test(type) && !res.url().endsWith('.js')) return;
      pending.push(
        res.body().then(
          (body) => ({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          () => null,
        ),
      );
    });
    const response = await page.goto(pathname, { waitUntil: 'networkidle' });
    if (!response?.ok()) throw new Error(`GET ${pathname}: ${response?.status()}`);
    const sizes = (await Promise.all(pending)).filter((s): s is ScriptSize => s !== null);
    return [...new Map(sizes.map((s) => [s.url, s])).values()];
  } finally {
    await context.close();
  }
}

export const totalKib = (scripts: ScriptSize[]) => scripts.reduce((sum, s) => sum + s.gzip, 0) / 1024;
