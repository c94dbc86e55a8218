import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|xml|webmanifest|map)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a `.br` (quality 11) and a `.gz` (level 9) beside every compressible file of 1 KiB or more under `dir`, when
 * it is smaller: the server sends them as they are (@fastify/static `preCompressed`, ADR 019), so no request
 * compresses a static file, and nginx sends the same files (`gzip_static`, docs/deploy.md). Run at the end of
 * `npm run build` (react-router.config.ts).
 */
export async function precompress(dir: string): Promise<number> {
  const files = (await readdir(dir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
  let written = 0;
  // zlib's async calls run on libuv's threads: every core compresses.
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(path.join(dir, file));
      if (source.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
        gzipAsync(source, { level: 9 }),
      ]);
      if (br.length < source.length) await writeFile(path.join(dir, `${file}.br`), br);
      if (gz.length < source.length) await writeFile(path.join(dir, `${file}.gz`), gz);
      written++;
    }),
  );
  return written;
}
