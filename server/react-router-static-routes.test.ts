import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoizeServerRoutes, memoizeStaticDataRoutes, withMemoizedStaticRoutes } from '../scripts/static-routes.mjs';

// The static router's route trees, built once per build on the production server (scripts/static-routes.mjs, ADR 079).

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
  it('has exactly one module whose route trees are memoized (an upgrade that moves them fails here)', () => {
    const rewritten = readdirSync(productionBuild)
      .filter((file) => file.endsWith('.mjs'))
      .filter((file) => {
        const source = readFileSync(path.join(productionBuild, file), 'utf8');
        return withMemoizedStaticRoutes(source, 'file:///memo.mjs') !== source;
      });
    expect(rewritten).toHaveLength(1);
  });

  it('renders, page after page, what React Router renders building the trees every time', () => {
    // The same production build without the load hook: only React Router's resolution to it.
    const everyTime = renderPages(
      'data:text/javascript,' +
        encodeURIComponent(
          "export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); return ['react-router', 'react-router/dom'].includes(specifier) ? { ...resolved, url: resolved.url.replace('/dist/development/', '/dist/production/') } : resolved; }",
        ),
    );
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
