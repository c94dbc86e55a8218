// React Router matches a page's path against the app's route branches one after another, in rank order, and every try
// builds the parts it has matched before it fails at a later segment. A service page tried some 35 branches twice per
// render (the request handler's match and the static handler's), and those tries were 13 % of what the render thread
// allocated (issue 31). A branch whose path begins with a fixed word matches only a path that begins with that word:
// production-builds.mjs wraps `matchRouteBranch` on the server so that such a branch turns any other path down at once,
// before React Router's own try (ADR 085).

import { declarations, wrapDeclaration } from './wrap-declaration.mjs';

/** A first segment that is a fixed word: no parameter (`:id`), splat (`*`), optional mark (`?`) or regex metacharacter but the dot. */
const FIXED_WORD = /^[A-Za-z0-9_~.-]+$/u;

/**
 * The test a path must pass for `branch` to match it: its first segment is the branch's first fixed word, compared as
 * React Router's own matcher compares it (a whole segment, case-insensitive unless the route says otherwise). Null when
 * the branch begins with anything else (a parameter, a splat, nothing at all).
 */
export function firstWordTest(branch) {
  // Pathless and index routes match nothing of the path: the first route with a path of its own says where it begins.
  const meta = branch.routesMeta.find((m) => m.relativePath !== '');
  if (!meta) return null;
  const word = meta.relativePath.replace(/^\/+/u, '').split('/', 1)[0];
  if (!FIXED_WORD.test(word)) return null;
  return new RegExp(`^/${word.replaceAll('.', '\\.')}(?=/|$)`, meta.caseSensitive ? '' : 'i');
}

/** `match(branch, pathname, allowPartial)`, with a branch that cannot match the path turned down before it is tried. */
export function skipBranchesOfOtherWords(match) {
  /** Per branch (React Router's, built once per route tree): its first word's test, or null. */
  const tests = new WeakMap();
  return function matchRouteBranch(branch, pathname, allowPartial) {
    let test = tests.get(branch);
    if (test === undefined) {
      test = firstWordTest(branch);
      tests.set(branch, test);
    }
    if (test && !test.test(pathname)) return null;
    return match(branch, pathname, allowPartial);
  };
}

/**
 * React Router's module text with `matchRouteBranch` wrapped (wrap-declaration.mjs), for the module of the framework's
 * static router, which declares it once beside `createServerRoutes`. Any other text is returned as it was.
 */
export function withBranchesSkipped(source, wrapperUrl) {
  if (declarations(source, 'createServerRoutes') !== 1) return source;
  return wrapDeclaration(source, 'matchRouteBranch', wrapperUrl, 'skipBranchesOfOtherWords');
}
