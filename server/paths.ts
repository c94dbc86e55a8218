import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's root folder (where package.json is), found by walking up from this module: the same from the sources
 * (server/) and from the server bundle (build/server-app/), so that files kept beside the code (migrations, demo
 * covers, the web build) resolve in both.
 */
export const projectRoot = findRoot(import.meta.dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
