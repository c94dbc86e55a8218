/** The server's environment: the operator's, plus the demo settings when NODE_ENV is not set. */
export function serverEnv(operator: Record<string, string | undefined>): Record<string, string | undefined>;
/** The newest modification time (ms) of the files the server bundle is made of, under `base`. */
export function newestSource(base?: string, entries?: string[]): number;
/** Whether the server bundle is missing or older than a file it is made of. */
export function bundleStale(file?: string, base?: string): boolean;
