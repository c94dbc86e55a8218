import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Link, MemoryRouter, Outlet, StaticRouterProvider, createStaticHandler, createStaticRouter } from 'react-router';
import { AppLink, NavLink, resolvePrefetch, serverAnchor, type AppLinkProps } from './app-link.tsx';

/** `content` rendered as the server renders a page: a static router, at a nested route of `at`. */
async function onServer(content: () => ReactNode, at = '/services/design/1') {
  const routes = [{ path: '/', Component: Outlet, children: [{ path: 'services/:slug/:id', Component: content }, { path: '*', Component: content }] }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${at}`));
  if (context instanceof Response) throw new Error('no page');
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />);
}

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

describe('serverAnchor', () => {
  const paths = ['/', '/orders', '/profile/', '/services/design/0b6c2f1e-1b7e-4c55-9d7e-3f1c2a9b8d10', '/search?q=логотип&page=2', '/blog/post#comments', '/a/b?x=1&y=/z#h', '/%D0%BB%D0%BE', '/files/a.b/c', '/projects?from=%2Fprofile'];
  const propSets: Omit<AppLinkProps, 'to'>[] = [
    {},
    { className: 'btn btn--ghost' },
    { className: 'tabs__link', 'aria-current': 'page', rel: 'next', title: 'Дальше' },
    { target: '_blank', rel: 'noopener noreferrer' },
    { discover: 'none' },
    { prefetch: 'intent' },
    { prefetch: 'viewport', id: 'x' },
    { reloadDocument: true },
    { preventScrollReset: true, replace: true, state: { from: 'list' }, viewTransition: true },
    { onClick: () => {}, 'data-testid': 'link' } as Omit<AppLinkProps, 'to'>,
  ];

  it('draws what React Router’s <Link> draws on the server, byte for byte', async () => {
    for (const to of paths) {
      for (const props of propSets) {
        const theirs = await onServer(() => <Link to={to} {...props}>Текст</Link>);
        const ours = await onServer(() => serverAnchor({ to, ...props, children: 'Текст' }));
        expect(ours, `${to} ${JSON.stringify(props)}`).toBe(theirs);
      }
    }
  });

  it('leaves to <Link> what it would resolve, drop or draw more of', () => {
    for (const to of ['', 'orders', './orders', '../orders', '?q=1', '#top', '//evil.example/x', 'https://example.com/', '/a//b', '/a/./b', '/a/../b', '/x?', '/x#', '/a\\b']) {
      expect(serverAnchor({ to }), to).toBeNull();
    }
    expect(serverAnchor({ to: { pathname: '/orders' } })).toBeNull();
    expect(serverAnchor({ to: '/orders', prefetch: 'render' })).toBeNull();
    expect(serverAnchor({ to: '/orders', relative: 'path' })).toBeNull();
    expect(serverAnchor({ to: '/orders', mask: '/x' })).toBeNull();
  });

  it('is what AppLink and NavLink draw on the server, where React Router’s would draw the same', async () => {
    const ours = await onServer(() => (
      <>
        <AppLink to="/orders" className="nav">Заказы</AppLink>
        <AppLink to="orders">Заказы</AppLink>
        <NavLink to="/services/design">Дизайн</NavLink>
        <NavLink to="..">Раздел</NavLink>
      </>
    ));
    expect(ours).toBe(
      '<a class="nav" href="/orders" data-discover="true">Заказы</a>' +
        '<a href="/services/design/1/orders" data-discover="true">Заказы</a>' +
        '<a aria-current="page" class="active" href="/services/design" data-discover="true">Дизайн</a>' +
        // `..` is a route up, not a segment: React Router's to resolve (the page's route is the root's child).
        '<a href="/" data-discover="true">Раздел</a>',
    );
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
