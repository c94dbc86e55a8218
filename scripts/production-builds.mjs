// Module hooks for the production server (issue 31), registered by scripts/start.mjs when NODE_ENV is production.
//
// resolve: React Router's package exports give Node its development build whatever NODE_ENV says (its production
// build differs only in its development warnings being off, and its exports name no "production" condition), so the
// server rendered with the warnings' checks on. Every import of React Router (the server's, the built app's,
// @react-router/node's) is sent to the production build beside it: still one copy of the router, now the right one.
//
// load: what the production build computes on every render from the build alone is memoized: the partial manifest
// (partial-manifest.mjs, ADR 074) and the route trees of the static router (static-routes.mjs, ADR 079). And a route
// branch that cannot match a path is turned down before it is tried (route-branches.mjs, ADR 085).

import { withMemoizedPartialManifest } from './partial-manifest.mjs';
import { withBranchesSkipped } from './route-branches.mjs';
import { withMemoizedStaticRoutes } from './static-routes.mjs';

const PACKAGES = new Set(['react-router', 'react-router/dom']);
const PRODUCTION_BUILD = '/react-router/dist/production/';
const MEMO_URL = new URL('./partial-manifest.mjs', import.meta.url).href;
const ROUTES_MEMO_URL = new URL('./static-routes.mjs', import.meta.url).href;
const BRANCHES_URL = new URL('./route-branches.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!PACKAGES.has(specifier)) return resolved;
  return { ...resolved, url: resolved.url.replace('/dist/development/', '/dist/production/') };
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.includes(PRODUCTION_BUILD) || loaded.format !== 'module' || loaded.source == null) return loaded;
  const source = Buffer.from(loaded.source).toString('utf8');
  // The branches first: both look for `function createServerRoutes(`, which the route trees' memo renames.
  const branches = withBranchesSkipped(source, BRANCHES_URL);
  const rewritten = withMemoizedStaticRoutes(withMemoizedPartialManifest(branches, MEMO_URL), ROUTES_MEMO_URL);
  return rewritten === source ? loaded : { ...loaded, source: rewritten };
}
