import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy to a service that a test can cut and restore: an outage of Redis or PostgreSQL for one app without
 * stopping the machine's server, which other tests share; or point elsewhere, as a load balancer does when the
 * instance behind it stops.
 */
export async function cuttableProxy(
  target: string,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; retarget(next: string): void; close(): Promise<void> }> {
  let to = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: to.hostname, port: Number(to.port) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      // A reset on one side resets the other, as nginx fails a request whose upstream died (a SIGKILLed instance's
      // connections are reset): otherwise the client would wait on a connection that leads nowhere.
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  let open = true;
  return {
    url: url.toString(),
    /** Every connection dropped, and new ones refused, until `restore`. */
    async cut() {
      if (!open) return;
      open = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    async restore() {
      if (open) return;
      open = true;
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    /** New connections go to `next` (another instance, as a load balancer moves a client); open ones are dropped. */
    retarget(next: string) {
      to = new URL(next);
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (open) await new Promise<void>((resolve) => server.close(() => resolve()));
      open = false;
    },
  };
}
