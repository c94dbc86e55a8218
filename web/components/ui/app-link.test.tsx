import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { AppLink, resolvePrefetch } from './app-link.tsx';

describe('resolvePrefetch', () => {
  it('defaults to intent and honours an explicit mode', () => {
    expect(resolvePrefetch(true, undefined)).toBe('intent');
    expect(resolvePrefetch(true, 'render')).toBe('render');
    expect(resolvePrefetch(true, 'none')).toBe('none');
  });
  it('turns prefetch off on slow connections', () => {
    expect(resolvePrefetch(false, undefined)).toBe('none');
    expect(resolvePrefetch(false, 'render')).toBe('none');
  });
});

describe('AppLink', () => {
  it('renders like a Link on the server', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <AppLink to="/orders" className="nav">
          Заказы
        </AppLink>
      </MemoryRouter>,
    );
    expect(html).toMatch(/^<a class="nav" href="\/orders"[^>]*>Заказы<\/a>$/);
  });
});
