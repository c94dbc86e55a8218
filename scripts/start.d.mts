/** The server's environment: the operator's, plus the demo settings when NODE_ENV is not set. */
export function serverEnv(operator: Record<string, string | undefined>): Record<string, string | undefined>;
