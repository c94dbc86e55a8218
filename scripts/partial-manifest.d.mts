/** `build(manifest, router)` remembered per manifest and per the router's basename, matched route ids and ancestors. */
export function memoizePartialManifest<M extends object, R extends PartialManifestRouter, T>(build: (manifest: M, router: R) => T): (manifest: M, router: R) => T;
/** React Router's module text with its `getPartialManifest` memoized, or the text as it was when it has no such function. */
export function withMemoizedPartialManifest(source: string, memoUrl: string): string;

/** What the memo reads of React Router's router. */
export interface PartialManifestRouter {
  basename: string;
  state: { location: { pathname: string }; matches: { route: { id: string } }[] };
}
