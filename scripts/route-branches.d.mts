/** A route branch as React Router flattens one: its routes' paths relative to each other, root first. */
export interface RouteBranch {
  routesMeta: { relativePath: string; caseSensitive?: boolean }[];
}
/** The test a path's first segment must pass for the branch to match, or null when its first segment is not a fixed word. */
export function firstWordTest(branch: RouteBranch): RegExp | null;
/** React Router's `matchRouteBranch`, with a branch of another first word turned down before it is tried. */
export function skipBranchesOfOtherWords<B extends RouteBranch, T>(
  match: (branch: B, pathname: string, allowPartial?: boolean) => T,
): (branch: B, pathname: string, allowPartial?: boolean) => T | null;
/** React Router's module text with `matchRouteBranch` wrapped, or the text as it was. */
export function withBranchesSkipped(source: string, wrapperUrl: string): string;
