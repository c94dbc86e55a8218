import net from 'node:net';

/** Whether a TCP service answers on host:port (used to decide whether a test can run here). */
export function reachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The URL of a service a test needs, or null to skip. Outside CI a missing service skips the test
 * with a clear message; in CI it fails, so a green run never hides an untested part.
 */
export async function serviceUrl(name: string, envVar: string, fallback: string): Promise<string | null> {
  const url = process.env[envVar] || fallback;
  if (await reachable(url)) return url;
  const message = `${name} is not reachable at ${url} (set ${envVar})`;
  if (process.env.CI) throw new Error(`${message}: CI must run this test`);
  console.warn(`skipping: ${message}`);
  return null;
}
