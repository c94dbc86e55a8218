import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { AppLink, NavLink, resolvePrefetch } from './app-link.tsx';

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

describe('NavLink', () => {
  const links = (at: string) =>
    renderToStaticMarkup(
      <MemoryRouter initialEntries={[at]}>
        <NavLink to="/projects">Проекты</NavLink>
        <NavLink to="/profile" end className={({ isActive }) => `menu${isActive ? ' menu--active' : ''}`}>
          Профиль
        </NavLink>
        <NavLink to="/" className="home">
          Главная
        </NavLink>
      </MemoryRouter>,
    ).replaceAll(' data-discover="true"', '');

  it('marks the link of the address, or of one under it, as React Router’s NavLink does', () => {
    expect(links('/Projects/all')).toBe(
      '<a aria-current="page" class="active" href="/projects">Проекты</a><a class="menu" href="/profile">Профиль</a><a class="home" href="/">Главная</a>',
    );
  });

  it('with `end`, only the link’s own address; `/` only on the home page', () => {
    expect(links('/profile')).toContain('<a aria-current="page" class="menu menu--active" href="/profile">');
    expect(links('/profile/orders')).toContain('<a class="menu" href="/profile">');
    expect(links('/projectsx')).toContain('<a href="/projects">');
    expect(links('/')).toContain('<a aria-current="page" class="home active" href="/">');
  });
});
