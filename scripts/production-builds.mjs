// Module hooks for the production server (issue 31), registered by scripts/start.mjs when NODE_ENV is production.
//
// resolve: React Router's package exports give Node its development build whatever NODE_ENV says (its production
// build differs only in its development warnings being off, and its exports name no "production" condition), so the
// server rendered with the warnings' checks on. Every import of React Router (the server's, the built app's,
// @react-router/node's) is sent to the production build beside it: still one copy of the router, now the right one.
//
// load: the production build's partial manifest, computed on every render, is memoized (partial-manifest.mjs).

import { withMemoizedPartialManifest } from './partial-manifest.mjs';

const PACKAGES = new Set(['react-router', 'react-router/dom']);
const PRODUCTION_BUILD = '/react-router/dist/production/';
const MEMO_URL = new URL('./partial-manifest.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!PACKAGES.has(specifier)) return resolved;
  return { ...resolved, url: resolved.url.replace('/dist/development/', '/dist/production/') };
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.includes(PRODUCTION_BUILD) || loaded.format !== 'module' || loaded.source == null) return loaded;
  const source = Buffer.from(loaded.source).toString('utf8');
  const rewritten = withMemoizedPartialManifest(source, MEMO_URL);
  return rewritten === source ? loaded : { ...loaded, source: rewritten };
}
