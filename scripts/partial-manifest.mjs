// React Router inlines in every page it renders a partial route manifest (lazy route discovery): the page's own
// routes and those matching each of its path's ancestors ("/", "/services", "/services/design" for a service page),
// found by matching those paths against every route of the app, on every render. That was 5.6 % of a rendered
// service page's CPU (bench/profile.ts, issue 31) for an answer that depends only on the build, the page's matched
// routes and the ancestors. production-builds.mjs wraps React Router's function with this memo on the server (ADR 074).

import { wrapDeclaration } from './wrap-declaration.mjs';

/** Distinct pages' keys kept per build: the app's route shapes times the ancestors people visit, and a bound. */
const MAX_KEYS = 512;

/**
 * `build(manifest, router)` remembered per manifest object (one build) and per what it reads of the router: its
 * basename, the ids of the page's matched routes and the path's ancestors (every segment but the last). A key never
 * seen before costs what it did; past MAX_KEYS the memo starts again, so random paths cannot grow it.
 */
export function memoizePartialManifest(build) {
  const byManifest = new WeakMap();
  return function getPartialManifest(manifest, router) {
    const segments = router.state.location.pathname.split('/').filter(Boolean);
    segments.pop();
    // Route ids have no newline and segments no slash: equal keys mean equal inputs.
    const key = `${router.basename}\n${router.state.matches.map((match) => match.route.id).join('\n')}\n\n${segments.join('/')}`;
    let memo = byManifest.get(manifest);
    if (!memo) byManifest.set(manifest, (memo = new Map()));
    let partial = memo.get(key);
    if (partial === undefined) {
      if (memo.size >= MAX_KEYS) memo.clear();
      partial = build(manifest, router);
      memo.set(key, partial);
    }
    return partial;
  };
}

/**
 * React Router's module text with its `getPartialManifest` memoized (wrap-declaration.mjs). A text without the
 * function, or with it more than once (another version of React Router), is returned as it was;
 * server/react-router-partial-manifest.test.ts fails then, so an upgrade that drops the memo is noticed.
 */
export function withMemoizedPartialManifest(source, memoUrl) {
  return wrapDeclaration(source, 'getPartialManifest', memoUrl, 'memoizePartialManifest');
}
