import { createHash } from 'node:crypto';
import type { OutboxWriter } from './outbox.ts';
import type { Precompressed } from '../lib/precompressed.ts';

// Pages a guest sees are the same for every guest: the HTML of one render is kept for a few seconds, compressed once,
// and sent as it is (ADR 021). Changes that must show at once (a moderator's decision) clear it on every instance
// through the outbox; anything else shows when its pages expire.

/** How long a render is sent as it is; after that the next request gets it once more while it is rendered again. */
export const PAGE_CACHE_TTL_MS = 10_000;
/** A render older than this is not sent any more, even while its replacement renders. */
export const PAGE_CACHE_STALE_MS = 60_000;
/** The number of pages kept (least recently rendered dropped first): junk URLs cannot grow the memory. */
export const PAGE_CACHE_MAX_PAGES = 500;

/** The outbox job that clears every instance's rendered pages once its transaction commits. */
export const PAGES_CHANGED_JOB = 'pages-changed';

/** Queues the clearing of the rendered pages, once however many changes the transaction makes. */
export function pagesChanged(outbox: OutboxWriter) {
  outbox.job(PAGES_CHANGED_JOB, {}, { dedupeKey: PAGES_CHANGED_JOB });
}

/** A read done while rendering whose effect (a view counted) each visitor must still have when the page is reused. */
export interface VisitRead {
  name: string;
  input: unknown;
}

export interface CachedPage {
  status: number;
  /** The render's own headers (content type, cache control), without its per-response ones. */
  headers: Record<string, string>;
  body: Precompressed;
  /** The inline scripts' hashes, for a Content-Security-Policy that needs no per-response nonce. */
  scriptHashes: string[];
  visits: VisitRead[];
  renderedAt: number;
}

/**
 * `'sha256-…'` of every inline `<script>` of a page (CSP Level 2 hash sources): the same bytes go to everybody, so the
 * scripts are allowed by what they are instead of by a nonce. A plain scan, not a regular expression: the HTML holds
 * user text, and this stays linear whatever it is.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf('<script', at);
    if (open < 0) break;
    const tagEnd = html.indexOf('>', open);
    const close = html.indexOf('</script>', tagEnd);
    if (tagEnd < 0 || close < 0) break;
    const attributes = html.slice(open + 7, tagEnd);
    if (!/\ssrc=/.test(attributes)) {
      hashes.push(`'sha256-${createHash('sha256').update(html.slice(tagEnd + 1, close)).digest('base64')}'`);
    }
    at = close + 9;
  }
  return hashes;
}

export class PageCache {
  private readonly pages = new Map<string, CachedPage>();
  private readonly rendering = new Map<string, Promise<CachedPage | null>>();

  constructor(
    private readonly ttlMs = PAGE_CACHE_TTL_MS,
    private readonly maxPages = PAGE_CACHE_MAX_PAGES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept page and whether it is past its time (then render it again, and send this one meanwhile). */
  get(key: string): { page: CachedPage; stale: boolean } | undefined {
    const page = this.pages.get(key);
    if (!page) return undefined;
    const age = this.now() - page.renderedAt;
    if (age > PAGE_CACHE_STALE_MS || age < 0) {
      this.pages.delete(key);
      return undefined;
    }
    return { page, stale: age > this.ttlMs };
  }

  /**
   * Renders `key` once however many requests ask for it at the same time, and keeps the page when `render` gives one
   * (null: not a page to keep, each request renders its own).
   */
  fill(key: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
    let flight = this.rendering.get(key);
    if (!flight) {
      flight = render()
        .then((page) => {
          if (page) this.keep(key, page);
          return page;
        })
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, flight);
    }
    return flight;
  }

  /** Drops every page: the next request of each renders it again. */
  clear() {
    this.pages.clear();
  }

  get size() {
    return this.pages.size;
  }

  private keep(key: string, page: CachedPage) {
    this.pages.delete(key);
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, page);
  }
}
