import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Debian's nginx running docs/deploy.md's ```nginx block in front of test instances (the deploy tests).

export const NGINX = '/usr/sbin/nginx';

/** Whether nginx is here; outside CI a missing one skips the test with a warning, in CI it fails. */
export function nginxInstalled(): boolean {
  if (existsSync(NGINX)) return true;
  const message = `nginx is not installed at ${NGINX} (apt-get install nginx)`;
  if (process.env.CI) throw new Error(`${message}: CI must run this test`);
  console.warn(`skipping: ${message}`);
  return false;
}

/** The ```nginx block of docs/deploy.md, pointed at these ports and this build folder. */
export function deployConfig(listenPort: number, upstreamPorts: number[], clientBuild: string): string {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/deploy.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deploy.md has no nginx block');
  const upstreams = upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n');
  return block
    .replace(/(upstream podryad \{[\s\S]*?ip_hash;[^\n]*\n)([\s\S]*?)( {4}keepalive)/, `$1${upstreams}\n$3`)
    .replace(/listen 80;/, `listen 127.0.0.1:${listenPort};`)
    .replace(/root \/srv\/podryad\/build\/client;/, `root ${clientBuild};`);
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

export interface RunningNginx {
  /** http://127.0.0.1:<port> */
  url: string;
  process: ChildProcess;
  stop(): void;
}

/** nginx with the deploy block in front of the instances at these URLs, answering /api/health once it is up. */
export async function startNginx(instanceUrls: string[], clientBuild: string): Promise<RunningNginx> {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'podryad-nginx-conf-'));
  mkdirSync(path.join(prefix, 'logs'));
  const ports = instanceUrls.map((u) => Number(new URL(u).port));
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `daemon off;\nworker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log warn;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n  client_body_temp_path ${prefix}/body;\n  proxy_temp_path ${prefix}/proxy;\n  fastcgi_temp_path ${prefix}/fastcgi;\n  uwsgi_temp_path ${prefix}/uwsgi;\n  scgi_temp_path ${prefix}/scgi;\n${deployConfig(port, ports, clientBuild)}\n}\n`,
  );
  const child = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if ((await fetch(`${url}/api/health`).then((r) => r.status).catch(() => 0)) === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    stop() {
      child.kill('SIGQUIT');
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  body: string;
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** One request to `base` from a loopback address of its own (Linux routes all of 127/8 to lo). */
export function requestFrom(
  base: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: unknown; from: string; timeoutMs?: number },
): Promise<Answer> {
  const { port } = new URL(base);
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: opts.method ?? 'GET',
        path: opts.path,
        localAddress: opts.from,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: raw.toString('utf8'), raw, headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    if (opts.timeoutMs) req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
