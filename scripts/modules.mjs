import { readdirSync } from 'node:fs';

/** The folders directly under `dir` (a path from the repository's root), sorted. */
export function folders(dir) {
  return readdirSync(new URL(`../${dir}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The server's modules: every folder of `server/modules/` is one, inside the lint boundary from its creation. */
export const serverModules = () => folders('server/modules');

/** The web's features: every folder of `web/features/`. */
export const webFeatures = () => folders('web/features');
