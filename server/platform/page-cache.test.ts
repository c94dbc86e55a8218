import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Precompressed } from '../lib/precompressed.ts';
import { inlineScriptHashes, PAGE_CACHE_STALE_MS, PageCache, type CachedPage } from './page-cache.ts';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes every inline script as the browser does, and skips scripts loaded by src', () => {
    const a = 'window.__ctx = {"a":"\\u003c/script>"};';
    const b = 'import("/assets/entry.js");';
    const html = `<html><head><script nonce="x">${a}</script><script type="module" src="/assets/x.js"></script></head><body><script type="module" nonce="x">${b}</script><script></script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha(a), sha(b), sha('')]);
  });

  it('stops at a script that is not closed, and stays linear on a hostile page', () => {
    expect(inlineScriptHashes('<script>never closed')).toEqual([]);
    const hostile = '<script'.repeat(50_000);
    const started = performance.now();
    expect(inlineScriptHashes(hostile)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

function page(at: number, text = 'x'): CachedPage {
  return { status: 200, headers: {}, body: new Precompressed(text, 'text/html'), scriptHashes: [], visits: [], renderedAt: at };
}

describe('PageCache', () => {
  it('sends a page fresh for its time, then stale while it renders again, then not at all', async () => {
    let now = 1_000_000;
    const cache = new PageCache(10_000, 10, () => now);
    await cache.fill('/', async () => page(now));
    expect(cache.get('/')?.stale).toBe(false);
    now += 10_001;
    expect(cache.get('/')?.stale).toBe(true);
    now += PAGE_CACHE_STALE_MS;
    expect(cache.get('/')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('renders a page once however many requests ask for it at the same time', async () => {
    const cache = new PageCache();
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 10));
      return page(Date.now());
    };
    const pages = await Promise.all(Array.from({ length: 20 }, () => cache.fill('/', render)));
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
    // A render that is not a page to keep (a 404) is not kept: the next request renders again.
    expect(await cache.fill('/missing', async () => null)).toBeNull();
    expect(cache.get('/missing')).toBeUndefined();
  });

  it('keeps at most its number of pages, dropping the least recently rendered, and clears', async () => {
    const cache = new PageCache(10_000, 3);
    for (const key of ['/a', '/b', '/c', '/d']) await cache.fill(key, async () => page(Date.now()));
    expect([cache.size, cache.get('/a'), cache.get('/d') !== undefined]).toEqual([3, undefined, true]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
