// What the boot script of a guest's reading page (web/lib/boot-on-intent.ts) and the app say to each other: a module
// of its own, so that the browser's bundle takes these names and not the server's side of it.

/** The id the inert copy of React Router's module script carries. */
export const APP_MODULES_ID = 'app-modules';
/** Dispatched on window by web/entry.client.tsx as it starts hydrating: React answers the page's events from then on. */
export const HYDRATING_EVENT = 'app:hydrating';
/** Dispatched on window by web/entry.client.tsx once the document is hydrated and its effects have run. */
export const HYDRATED_EVENT = 'app:hydrated';
/** Set on a click made again after hydration, so that web/lib/deferred.tsx holds it as it holds a person's. */
export const REPLAYED = 'appReplayed';
