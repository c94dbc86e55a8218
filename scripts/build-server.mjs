// The server, precompiled for production: server/main.ts and what it imports bundled into build/server-app/main.mjs,
// so that a start loads one file through plain node instead of transforming TypeScript through tsx (ADR 018).
// Packages stay external (node_modules is resolved at run time). SERVER_SOURCEMAP=1 writes a source map.
import { build } from 'esbuild';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = path.resolve(import.meta.dirname, '..');
// A start rebuilds it when a file it is made of is newer (scripts/start.mjs, bundleStale).
export const bundleFile = path.join(root, 'build', 'server-app', 'main.mjs');

export async function buildServer() {
  const started = Date.now();
  await build({
    entryPoints: [path.join(root, 'server', 'main.ts')],
    outfile: bundleFile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: process.env.SERVER_SOURCEMAP === '1' ? 'linked' : false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  console.log(`server bundle: ${path.relative(root, bundleFile)} in ${Date.now() - started} ms`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await buildServer();
