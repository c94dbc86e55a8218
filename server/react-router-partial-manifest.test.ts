import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoizePartialManifest, withMemoizedPartialManifest, type PartialManifestRouter } from '../scripts/partial-manifest.mjs';

// React Router's partial manifest, memoized on the production server (scripts/partial-manifest.mjs, issue 31).

const root = path.resolve(import.meta.dirname, '..');
const productionBuild = path.join(root, 'node_modules', 'react-router', 'dist', 'production');

const router = (pathname: string, ids: string[], basename = '/'): PartialManifestRouter => ({
  basename,
  state: { location: { pathname }, matches: ids.map((id) => ({ route: { id } })) },
});

describe('memoizePartialManifest', () => {
  it('computes once per build, matched routes and ancestors; the last segment does not matter', () => {
    const calls: string[] = [];
    const memo = memoizePartialManifest((_manifest: object, r: PartialManifestRouter) => {
      calls.push(r.state.location.pathname);
      return { for: r.state.location.pathname };
    });
    const build = {};
    const first = memo(build, router('/services/design/a', ['root', 'service']));
    expect(memo(build, router('/services/design/b', ['root', 'service']))).toBe(first);
    expect(calls).toEqual(['/services/design/a']);
    // Another ancestor, other matched routes, another basename, another build: computed again.
    memo(build, router('/services/code/a', ['root', 'service']));
    memo(build, router('/services/design/a', ['root', 'category']));
    memo(build, router('/services/design/a', ['root', 'service'], '/app'));
    memo({}, router('/services/design/a', ['root', 'service']));
    expect(calls).toHaveLength(5);
    // Ids and segments cannot run into each other.
    memo(build, router('/x/y', ['a', 'b']));
    memo(build, router('/y/z', ['a', 'b', 'x']));
    expect(calls).toHaveLength(7);
  });

  it('starts again past its bound, so random paths cannot grow it', () => {
    let calls = 0;
    const memo = memoizePartialManifest(() => ++calls);
    const build = {};
    for (let i = 0; i < 2000; i++) memo(build, router(`/nowhere/${i}/x`, ['root']));
    expect(calls).toBe(2000);
    // The last 2000 % 512 keys are still there; the first ones are not.
    memo(build, router('/nowhere/1999/y', ['root']));
    expect(calls).toBe(2000);
    memo(build, router('/nowhere/0/y', ['root']));
    expect(calls).toBe(2001);
  });
});

describe("React Router's production build through scripts/production-builds.mjs", () => {
  it('has exactly one getPartialManifest to memoize (an upgrade that moves it fails here)', () => {
    const rewritten = readdirSync(productionBuild)
      .filter((file) => file.endsWith('.mjs'))
      .filter((file) => {
        const source = readFileSync(path.join(productionBuild, file), 'utf8');
        return withMemoizedPartialManifest(source, 'file:///memo.mjs') !== source;
      });
    expect(rewritten).toHaveLength(1);
  });

  it('gives, memoized, what React Router computes every time, on its own route matching', () => {
    const chunk = readdirSync(productionBuild).find((file) => file.endsWith('.mjs') && readFileSync(path.join(productionBuild, file), 'utf8').includes('function getPartialManifest('));
    const script = `
      import { register } from 'node:module';
      import { pathToFileURL } from 'node:url';
      register('./scripts/production-builds.mjs', pathToFileURL(${JSON.stringify(root + '/')}));
      const { createRequestHandler } = await import('react-router');
      const chunk = await import(pathToFileURL(${JSON.stringify(path.join(productionBuild, chunk ?? 'missing.mjs'))}).href);
      const routes = [{ id: 'root', path: '', children: [
        { id: 'home', index: true },
        { id: 'services', path: 'services', children: [
          { id: 'services-index', index: true },
          { id: 'category', path: ':category', children: [{ id: 'category-index', index: true }, { id: 'service', path: ':id' }] },
        ] },
        { id: 'projects', path: 'projects' },
        { id: 'help', path: 'help/:page' },
      ] }];
      const ids = ['root', 'home', 'services', 'services-index', 'category', 'category-index', 'service', 'projects', 'help'];
      const manifest = { version: 'v1', url: '/manifest.js', entry: { module: '/entry.js', imports: [] }, sri: { '/entry.js': 'sha' },
        routes: Object.fromEntries(ids.map((id) => [id, { id, module: '/' + id + '.js' }])) };
      const router = (pathname, matches) => ({ basename: '/', routes, branches: undefined,
        state: { location: { pathname }, matches: matches.map((id) => ({ route: { id } })) } });
      const pages = [
        ['/services/design/a1', ['root', 'services', 'category', 'service']],
        ['/services/design/b2', ['root', 'services', 'category', 'service']],
        ['/services/design', ['root', 'services', 'category', 'category-index']],
        ['/help/faq', ['root', 'help']],
        ['/projects', ['root', 'projects']],
        ['/', ['root', 'home']],
        ['/services/design/a1', ['root', 'services', 'category', 'service']],
      ];
      const out = pages.map(([pathname, matches]) => {
        const memoized = chunk.__getPartialManifest(manifest, router(pathname, matches));
        const everyTime = chunk.__getPartialManifestEveryTime(manifest, router(pathname, matches));
        return { memoized, everyTime, routes: Object.keys(everyTime.routes).sort() };
      });
      const same = chunk.__getPartialManifest(manifest, router('/services/design/zz', ['root', 'services', 'category', 'service']))
        === chunk.__getPartialManifest(manifest, router('/services/design/a1', ['root', 'services', 'category', 'service']));
      console.log(JSON.stringify({ handler: typeof createRequestHandler, out, same }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const { handler, out, same } = JSON.parse(run.stdout) as {
      handler: string;
      same: boolean;
      out: { memoized: unknown; everyTime: unknown; routes: string[] }[];
    };
    expect(handler).toBe('function');
    for (const page of out) expect(page.memoized).toEqual(page.everyTime);
    // React Router's own answer: the page's routes and its ancestors' ("/", "/services" and "/services/design" here).
    expect(out[0]!.routes).toEqual(['category', 'category-index', 'home', 'root', 'service', 'services', 'services-index']);
    expect(out[3]!.routes).toEqual(['help', 'home', 'root']);
    expect(same).toBe(true);
  });
});
