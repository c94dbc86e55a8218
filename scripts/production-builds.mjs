// A module resolve hook for the production server (issue 31), registered by scripts/start.mjs when NODE_ENV is
// production. React Router's package exports give Node its development build whatever NODE_ENV says (its production
// build differs only in its development warnings being off, and its exports name no "production" condition), so the
// server rendered with the warnings' checks on. Every import of React Router (the server's, the built app's,
// @react-router/node's) is sent to the production build beside it: still one copy of the router, now the right one.

const PACKAGES = new Set(['react-router', 'react-router/dom']);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!PACKAGES.has(specifier)) return resolved;
  return { ...resolved, url: resolved.url.replace('/dist/development/', '/dist/production/') };
}
