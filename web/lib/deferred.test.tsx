import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { deferred, deferredReady } from './deferred.tsx';

// The server side of web/lib/deferred.tsx: the part is imported at start and rendered at once, inside its wrapper
// (the browser's side, the kept HTML and the load on first use, is covered by e2e/budget.e2e.ts and home-hero).

function Search({ q }: { q: string }) {
  return (
    <form method="get" action="/services/all">
      <input name="q" defaultValue={q} />
    </form>
  );
}

const Deferred = deferred<{ q: string }>('test-search', () => Promise.resolve(Search), '.search');

describe('deferred()', () => {
  it('renders the part on the server inside its wrapper once deferredReady() has settled, without suspending', async () => {
    await deferredReady();
    const html = renderToString(<Deferred q="логотип" />);
    expect(html).toBe(
      '<div class="deferred" data-deferred="test-search"><form action="/services/all" method="get"><input name="q" value="логотип"/></form></div>',
    );
    // No Suspense boundary in the markup: nothing is streamed later (ADR 021's hashed inline scripts stay valid).
    expect(html).not.toContain('<!--$');
  });

  it('exposes load() for callers that know the part is about to be used', () => {
    expect(typeof Deferred.load).toBe('function');
  });
});
