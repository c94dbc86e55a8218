/** React Router's `createServerRoutes(manifest, routeModules, future, isSpaMode)` remembered per build. */
export function memoizeServerRoutes<A extends unknown[], T>(create: (...args: A) => T): (...args: A) => T;
/** React Router's `convertRoutesToDataRoutes` remembered for the route trees of the server-routes memo. */
export function memoizeStaticDataRoutes<A extends unknown[], T>(convert: (...args: A) => T): (...args: A) => T;
/** React Router's module text with both functions memoized, or the text as it was. */
export function withMemoizedStaticRoutes(source: string, memoUrl: string): string;
