// On the server, React Router's <ServerRouter> builds the app's whole route tree at every render, twice: once as
// route objects with their components (createServerRoutes), once as the static router's data routes
// (convertRoutesToDataRoutes, from createStaticRouter). For ~100 routes that was 9 % of the render thread's time on a
// service page rendered every time (issue 31). Both trees depend only on the build. production-builds.mjs wraps the
// two functions with these memos on the server (ADR 079).

import { wrapDeclaration, declarations } from './wrap-declaration.mjs';

/** The route trees the server-routes memo handed out: only they are given to the static router, whose copy is kept. */
const served = new WeakSet();

/** Whether two `routeModules` objects (React Router makes one per request) hold the same module for every route. */
function sameModules(kept, keptCount, given) {
  let count = 0;
  for (const id in given) {
    if (kept[id] !== given[id]) return false;
    count++;
  }
  return count === keptCount;
}

/**
 * `create(manifest, routeModules, future, isSpaMode)` remembered per manifest object (one build), while the route
 * modules, the future flags and SPA mode are the same. The calls with more arguments are React Router's own, for a
 * route's children, inside the first call: they are passed through.
 */
export function memoizeServerRoutes(create) {
  const byManifest = new WeakMap();
  return function createServerRoutes(manifest, routeModules, future, isSpaMode, ...children) {
    if (children.length > 0) return create(manifest, routeModules, future, isSpaMode, ...children);
    const kept = byManifest.get(manifest);
    if (kept && kept.future === future && kept.isSpaMode === isSpaMode && sameModules(kept.modules, kept.moduleCount, routeModules)) return kept.routes;
    const routes = create(manifest, routeModules, future, isSpaMode);
    served.add(routes);
    byManifest.set(manifest, { routes, future, isSpaMode, modules: { ...routeModules }, moduleCount: Object.keys(routeModules).length });
    return routes;
  };
}

/**
 * `convert(routes, mapRouteProperties, undefined, manifest)` remembered for a route tree of the server-routes memo:
 * the data routes are kept, and the ids' map React Router fills in the caller's `manifest` is copied into it. Any
 * other call (another tree, a child's subtree, the client's router) is passed through.
 */
export function memoizeStaticDataRoutes(convert) {
  const converted = new WeakMap();
  return function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest, ...rest) {
    if (!served.has(routes) || parentPath !== undefined || rest.length > 0) return convert(routes, mapRouteProperties, parentPath, manifest, ...rest);
    let kept = converted.get(routes);
    if (!kept || kept.mapRouteProperties !== mapRouteProperties) {
      const ids = {};
      kept = { mapRouteProperties, dataRoutes: convert(routes, mapRouteProperties, undefined, ids), ids };
      converted.set(routes, kept);
    }
    if (manifest) Object.assign(manifest, kept.ids);
    return kept.dataRoutes;
  };
}

/**
 * React Router's module text with both functions memoized (wrap-declaration.mjs), when it declares each exactly
 * once: the module of the framework's server routes and static router. Any other text is returned as it was
 * (React Router's server-components build declares its own convertRoutesToDataRoutes, and no createServerRoutes).
 */
export function withMemoizedStaticRoutes(source, memoUrl) {
  if (declarations(source, 'createServerRoutes') !== 1 || declarations(source, 'convertRoutesToDataRoutes') !== 1) return source;
  const withServerRoutes = wrapDeclaration(source, 'createServerRoutes', memoUrl, 'memoizeServerRoutes');
  return wrapDeclaration(withServerRoutes, 'convertRoutesToDataRoutes', memoUrl, 'memoizeStaticDataRoutes');
}
