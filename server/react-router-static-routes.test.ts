import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstWordTest, skipBranchesOfOtherWords, withBranchesSkipped } from '../scripts/route-branches.mjs';
import { memoizeServerRoutes, memoizeStaticDataRoutes, withMemoizedStaticRoutes } from '../scripts/static-routes.mjs';

// The static router's route trees, built once per build on the production server (scripts/static-routes.mjs, ADR 079),
// and its route branches turned down by their first word (scripts/route-branches.mjs, ADR 085).

const root = path.resolve(import.meta.dirname, '..');
const productionBuild = path.join(root, 'node_modules', 'react-router', 'dist', 'production');

describe('memoizeServerRoutes and memoizeStaticDataRoutes', () => {
  const manifest = { root: { id: 'root' } };
  const future = {};

  it('build the route tree once per build, while its route modules are the same', () => {
    const calls: unknown[][] = [];
    const create = memoizeServerRoutes((...args: unknown[]) => {
      calls.push(args);
      return [{ id: 'root' }];
    });
    const modules = { root: { default: 'Root' } };
    // React Router makes a new routeModules object for every request, with the same modules in it.
    const first = create(manifest, { ...modules }, future, false);
    expect(create(manifest, { ...modules }, future, false)).toBe(first);
    expect(calls).toHaveLength(1);
    // Another module, another route, other flags, another build: built again.
    expect(create(manifest, { root: { default: 'Changed' } }, future, false)).not.toBe(first);
    create(manifest, { ...modules, extra: {} }, future, false);
    create(manifest, { ...modules }, {}, false);
    create(manifest, { ...modules }, future, true);
    create({ root: { id: 'root' } }, { ...modules }, future, false);
    expect(calls).toHaveLength(6);
    // React Router's own calls for a route's children (a parent id and more) are passed through, every time.
    create(manifest, modules, future, false, 'root', {}, null);
    create(manifest, modules, future, false, 'root', {}, null);
    expect(calls).toHaveLength(8);
  });

  it("keep the static router's data routes of a tree of the memo only, and fill each caller's map of ids", () => {
    const routes = memoizeServerRoutes((..._args: unknown[]) => [{ id: 'root' }])(manifest, {}, future, false);
    const converted: unknown[] = [];
    const convert = memoizeStaticDataRoutes((tree: { id: string }[], _map: unknown, _parent: unknown, ids: Record<string, unknown> = {}) => {
      converted.push(tree);
      return tree.map((route) => (ids[route.id] = { ...route, data: true }));
    });
    const mapRouteProperties = () => ({});
    const first: Record<string, unknown> = {};
    const dataRoutes = convert(routes, mapRouteProperties, undefined, first);
    const second: Record<string, unknown> = {};
    expect(convert(routes, mapRouteProperties, undefined, second)).toBe(dataRoutes);
    expect(converted).toHaveLength(1);
    expect(second).toEqual({ root: { id: 'root', data: true } });
    expect(second.root).toBe(dataRoutes[0]);
    // A tree of somebody else (the client's router, a test's routes), a subtree, other route properties: every time.
    const theirs = [{ id: 'root' }];
    convert(theirs, mapRouteProperties, undefined, {});
    convert(theirs, mapRouteProperties, undefined, {});
    convert(routes, mapRouteProperties, ['0'], {});
    convert(routes, () => ({}), undefined, {});
    expect(converted).toHaveLength(5);
  });
});

describe('skipBranchesOfOtherWords', () => {
  /** A branch as React Router flattens one: its routes' paths relative to each other, root first. */
  const branch = (...paths: (string | { path: string; caseSensitive: boolean })[]) => ({
    routesMeta: paths.map((p) => (typeof p === 'string' ? { relativePath: p, caseSensitive: false } : { relativePath: p.path, caseSensitive: p.caseSensitive })),
  });

  it("tests a path's first segment against the first word of the branch, as React Router's matcher does", () => {
    const services = firstWordTest(branch('', '', 'services', ':id'))!;
    for (const path of ['/services', '/services/', '/services/abc', '/SERVICES/abc', '/Services']) expect(services.test(path), path).toBe(true);
    for (const path of ['/', '/servicesx', '/service', '/x/services', '/services-x', '//services']) expect(services.test(path), path).toBe(false);
    // A nested absolute path, several words in one route, a dot, case sensitivity.
    expect(firstWordTest(branch('', '/admin/users'))!.test('/admin/users')).toBe(true);
    expect(firstWordTest(branch('', 'sitemap.xml'))!.test('/sitemapxxml')).toBe(false);
    expect(firstWordTest(branch('', 'sitemap.xml'))!.test('/sitemap.xml')).toBe(true);
    expect(firstWordTest(branch({ path: 'Docs', caseSensitive: true }))!.test('/docs')).toBe(false);
    // Nothing to tell by: a parameter, a splat, an optional word, an index or pathless branch, a word beyond ASCII.
    for (const paths of [[':category', 'x'], ['*'], ['', 'lang?'], ['', ''], ['', 'услуги']]) expect(firstWordTest(branch(...paths)), paths.join('/')).toBeNull();
  });

  it('turns down a branch of another word before it is tried, and tries every other', () => {
    const tried: unknown[] = [];
    const match = skipBranchesOfOtherWords((b: unknown, pathname: string, allowPartial?: boolean) => {
      tried.push([b, pathname, allowPartial]);
      return ['matched'];
    });
    const services = branch('', 'services', ':id');
    const anything = branch('', ':slug');
    expect(match(services, '/projects/1')).toBeNull();
    expect(tried).toHaveLength(0);
    expect(match(services, '/services/1', true)).toEqual(['matched']);
    expect(match(anything, '/projects/1')).toEqual(['matched']);
    expect(tried).toEqual([
      [services, '/services/1', true],
      [anything, '/projects/1', undefined],
    ]);
  });
});

/** Each path's matched route ids, by React Router's `matchRoutes` on a route tree shaped like the app's, with the hooks. */
function matchPaths(hooks: string, paths: string[]): (string[] | null)[] {
  const script = `
    import { register } from 'node:module';
    import { pathToFileURL } from 'node:url';
    register(${JSON.stringify(hooks)}, pathToFileURL(${JSON.stringify(root + '/')}));
    const { matchRoutes } = await import('react-router');
    const layout = (id, children) => ({ id, children });
    const routes = [{ id: 'root', path: '', children: [
      { id: 'sitemap', path: 'sitemap.xml' },
      { id: 'api-like', path: '/api/health' },
      layout('default', [
        { id: 'home', index: true },
        { id: 'services', path: 'services', children: [
          { id: 'services-index', index: true },
          { id: 'category', path: ':category' },
          { id: 'service', path: ':category/:id' },
        ] },
        { id: 'projects', path: 'projects/:id?' },
        { id: 'docs', path: 'Docs', caseSensitive: true },
        { id: 'person', path: ':username' },
        layout('account', [{ id: 'orders', path: 'orders' }, { id: 'order', path: 'orders/:id' }]),
        { id: 'admin', path: 'admin', children: [{ id: 'admin-users', path: 'users' }, { id: 'admin-user', path: '/admin/users/:id' }] },
        { id: 'not-found', path: '*' },
      ]),
    ] }];
    console.log(JSON.stringify(${JSON.stringify(paths)}.map((path) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null)));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as (string[] | null)[];
}

/** React Router's production build, without the load hook: only its resolution to it. */
const PRODUCTION_ONLY =
  'data:text/javascript,' +
  encodeURIComponent(
    "export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); return ['react-router', 'react-router/dom'].includes(specifier) ? { ...resolved, url: resolved.url.replace('/dist/development/', '/dist/production/') } : resolved; }",
  );

/** Renders pages of a small app through React Router's request handler, with the given module hooks registered. */
function renderPages(hooks: string): { status: number; html: string }[] {
  const script = `
    import { register } from 'node:module';
    import { pathToFileURL } from 'node:url';
    register(${JSON.stringify(hooks)}, pathToFileURL(${JSON.stringify(root + '/')}));
    const React = await import('react');
    const { renderToPipeableStream } = await import('react-dom/server');
    const { PassThrough } = await import('node:stream');
    const { createRequestHandler, ServerRouter, Outlet, Link, Links, Meta, Scripts, useLoaderData, useRouteError, isRouteErrorResponse } = await import('react-router');
    const h = React.createElement;
    const modules = {
      root: {
        Layout: ({ children }) => h('html', null, h('head', null, h(Meta), h(Links)), h('body', null, children, h(Scripts))),
        default: () => h('main', null, useLoaderData().site, h(Outlet)),
        ErrorBoundary: () => { const error = useRouteError(); return h('p', null, 'error ' + (isRouteErrorResponse(error) ? error.status : '?')); },
        loader: () => ({ site: 'Подряд' }),
      },
      home: { default: () => h('p', null, 'home') },
      services: { default: () => h('section', null, h(Outlet)) },
      'services-index': { default: () => h('p', null, 'all services') },
      service: {
        default: () => h('article', null, 'service ' + useLoaderData().id, h(Link, { to: '/services' }, 'back')),
        loader: ({ params }) => ({ id: params.id }),
      },
    };
    const shape = {
      root: { path: '' }, home: { parentId: 'root', index: true }, services: { parentId: 'root', path: 'services' },
      'services-index': { parentId: 'services', index: true }, service: { parentId: 'services', path: ':id' },
    };
    const routes = {}, manifestRoutes = {};
    for (const [id, route] of Object.entries(shape)) {
      routes[id] = { id, ...route, module: modules[id] };
      manifestRoutes[id] = { id, ...route, module: '/' + id + '.js', imports: [], css: [], hasAction: false,
        hasLoader: !!modules[id].loader, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false,
        hasDefaultExport: true, hasErrorBoundary: !!modules[id].ErrorBoundary };
    }
    // As web/entry.server.tsx renders: the whole document once everything is ready.
    const render = (element) => new Promise((resolve, reject) => {
      const { pipe } = renderToPipeableStream(element, {
        onAllReady() {
          const chunks = [], body = new PassThrough();
          body.on('data', (chunk) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks).toString()));
          pipe(body);
        },
        onShellError: reject,
      });
    });
    const entry = { default: async (request, status, headers, context) =>
      new Response('<!DOCTYPE html>' + (await render(h(ServerRouter, { context, url: request.url }))), { status, headers }) };
    const build = { entry: { module: entry }, routes, publicPath: '/', assetsBuildDirectory: 'build/client', basename: '/',
      assets: { entry: { module: '/entry.js', imports: [], css: [] }, routes: manifestRoutes, url: '/manifest.js', version: 'v1' },
      future: {}, ssr: true, isSpaMode: false, prerender: [], routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
      allowedActionOrigins: false };
    const handle = createRequestHandler(build, 'production');
    const pages = ['/services/a1', '/services/b2', '/services', '/', '/nowhere', '/services/a1'];
    const out = [];
    for (const page of pages) {
      const response = await handle(new Request('http://localhost' + page));
      out.push({ status: response.status, html: await response.text() });
    }
    console.log(JSON.stringify(out));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { status: number; html: string }[];
}

describe("React Router's production build through scripts/production-builds.mjs", () => {
  it('has exactly one module whose route trees are memoized and branches skipped (an upgrade that moves them fails here)', () => {
    const rewrittenBy = (rewrite: (source: string, url: string) => string) =>
      readdirSync(productionBuild)
        .filter((file) => file.endsWith('.mjs'))
        .filter((file) => {
          const source = readFileSync(path.join(productionBuild, file), 'utf8');
          return rewrite(source, 'file:///memo.mjs') !== source;
        });
    const trees = rewrittenBy(withMemoizedStaticRoutes);
    expect(trees).toHaveLength(1);
    expect(rewrittenBy(withBranchesSkipped)).toEqual(trees);
  });

  it("matches every path to the routes React Router matches trying every branch (ADR 085)", () => {
    const paths = ['/', '/services', '/services/', '/SERVICES/design', '/services/design/1', '/services/design/1/extra', '/servicesx',
      '/projects', '/projects/7', '/docs', '/Docs', '/orders', '/orders/3', '/admin', '/admin/users', '/admin/users/5', '/ivan',
      '/sitemap.xml', '/sitemapXxml', '/api/health', '/api/other', '/%D1%83%D1%81%D0%BB%D1%83%D0%B3%D0%B8', '//services/x', '/a/b/c/d'];
    const skipped = matchPaths('./scripts/production-builds.mjs', paths);
    expect(skipped).toEqual(matchPaths(PRODUCTION_ONLY, paths));
    expect(skipped[paths.indexOf('/services/design/1')]).toEqual(['root', 'default', 'services', 'service']);
    expect(skipped[paths.indexOf('/Docs')]).toEqual(['root', 'default', 'docs']);
    expect(skipped[paths.indexOf('/docs')]).toEqual(['root', 'default', 'person']);
  });

  it('renders, page after page, what React Router renders building the trees every time', () => {
    const everyTime = renderPages(PRODUCTION_ONLY);
    const memoized = renderPages('./scripts/production-builds.mjs');
    expect(memoized).toEqual(everyTime);
    const [a1, b2, services, home, nowhere, again] = memoized;
    expect(a1!.html).toContain('<main>Подряд<section><article>service a1<a href="/services" data-discover="true">back</a></article></section></main>');
    expect(b2!.html).toContain('service b2');
    expect(b2!.html).not.toContain('a1');
    expect(services!.html).toContain('<section><p>all services</p></section>');
    expect(home!.html).toContain('<main>Подряд<p>home</p></main>');
    expect(nowhere).toMatchObject({ status: 404 });
    expect(nowhere!.html).toContain('<p>error 404</p>');
    expect(again).toEqual(a1);
  });
});
