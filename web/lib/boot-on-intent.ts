// A guest's reading pages start the app on the first sign that the visitor wants more than to read (issue 31,
// docs/decisions/076). The server's HTML of these pages works without scripts: links are links, the search and the
// filters are GET forms. So a guest's document carries React Router's modules inert, without their preloads, and a
// small inline script (web/lib/boot-script.ts) starts them on the first pointer over the page, touch, key, focus or
// change. A guest who only reads downloads no application code; one who reaches for the page has it as they move.

import { DEFAULT_CURRENCY, STORAGE_KEYS } from '#contract/constants';
import bootCode from 'virtual:boot-script';
import { APP_MODULES_ID, HYDRATED_EVENT, HYDRATING_EVENT, REPLAYED } from './boot-names.ts';
import type { BootConfig } from './boot-script.ts';

/** Route ids whose page a guest can read and use as server HTML (the catalogue, profiles, the blog, texts). */
export const BOOT_ON_INTENT_ROUTES: ReadonlySet<string> = new Set([
  'home',
  'services-root',
  'services',
  'service',
  'projects-root',
  'projects',
  'project',
  'freelancers',
  'user',
  'blog',
  'blog-post',
  ...['faq', 'help', 'about', 'contacts', 'conditions'].map((slug) => `static-${slug}`),
  'privacy',
  'consent',
]);

/** What the boot script is told, but the preloads (JSON in its `data-boot`). */
const BOOT = {
  id: APP_MODULES_ID,
  currency: DEFAULT_CURRENCY,
  currencyKey: STORAGE_KEYS.selectedCurrency,
  referralParam: 'referralCode',
  hydrating: HYDRATING_EVENT,
  hydrated: HYDRATED_EVENT,
  replayed: REPLAYED,
};

const MODULE_TYPE = ' type="module" async=""';
const MODULE_PRELOAD = '<link rel="modulepreload"';
const FETCH_PRELOAD = '<link rel="preload" as="fetch"';
const INERT_TYPE = Buffer.from(` type="text/x-app-modules" id="${APP_MODULES_ID}"`);
const BOOT_CODE = Buffer.from(`${bootCode}</script>`);

const startsAt = (html: Buffer, at: number, text: string) => html.toString('latin1', at, at + text.length) === text;

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The document with React Router's module script made inert (`type="text/x-app-modules"`, same text: a kept page's
 * CSP hash of it allows the copy that runs later) and its head's preloads (the modules', the catalogue's) taken out;
 * bootWhenAsked puts them back. React writes every `<` of text and attributes as an entity and React Router's
 * inline JSON escapes it, so `<link` and `<script` occur only as tags here: plain scans, linear whatever the page
 * holds. A document without the module script (an error) is left as it is.
 */
export function bootOnIntent(html: Buffer<ArrayBuffer>, nonce: string): Buffer<ArrayBuffer> {
  const head = html.indexOf('</head>');
  const moduleAt = html.indexOf(MODULE_TYPE, head);
  const scriptAt = html.lastIndexOf('<script', moduleAt);
  if (head < 0 || moduleAt < 0 || scriptAt < 0 || html.indexOf('>', scriptAt) < moduleAt) return html;

  // Bytes, not text: decoding the page and encoding it again would cost more than the scans (issue 31).
  const parts: Buffer[] = [];
  const moved: Buffer[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf('<link rel="', at);
    if (open < 0 || open > head) break;
    const end = html.indexOf('>', open) + 1;
    const preload = startsAt(html, open, MODULE_PRELOAD) || startsAt(html, open, FETCH_PRELOAD);
    parts.push(html.subarray(at, preload ? open : end));
    if (preload) moved.push(html.subarray(open, end));
    at = end;
  }
  const closeAt = html.indexOf('</script>', moduleAt) + '</script>'.length;
  // No `<` nor `>` in the attribute, even decoded: Chromium takes no nonce from a script with `<` in an attribute
  // (dangling markup), and the kept pages' CSP scan (inlineScriptHashes) ends a tag at its first `>`.
  const config = JSON.stringify({ ...BOOT, links: Buffer.concat(moved).toString() } satisfies BootConfig)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e');
  parts.push(
    html.subarray(at, moduleAt),
    INERT_TYPE,
    html.subarray(moduleAt + MODULE_TYPE.length, closeAt),
    Buffer.from(`<script nonce="${nonce}" data-boot="${attribute(config)}">`),
    BOOT_CODE,
    html.subarray(closeAt),
  );
  return Buffer.concat(parts);
}
