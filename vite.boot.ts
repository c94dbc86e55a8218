// The boot script of a guest's reading page (web/lib/boot-script.ts, docs/decisions/076) as one minified inline
// script: `import bootCode from 'virtual:boot-script'` is its text, which calls bootWhenAsked with the JSON of its
// own `data-boot` attribute. esbuild (already the server bundle's compiler) compiles and minifies it at build time;
// the same text goes on every page, so a kept page's CSP hash of it is always the same too.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import type { Plugin } from 'vite';

const SOURCE = fileURLToPath(new URL('./web/lib/boot-script.ts', import.meta.url));
const ID = 'virtual:boot-script';

export function compileBootScript(): string {
  const source = `${readFileSync(SOURCE, 'utf8')}\nbootWhenAsked(JSON.parse(document.currentScript.dataset.boot));\n`;
  return transformSync(source, { loader: 'ts', format: 'iife', minify: true, target: 'es2022' }).code.trim();
}

export function bootScript(): Plugin {
  return {
    name: 'podryad-boot-script',
    resolveId: (id) => (id === ID ? `\0${ID}` : null),
    load(id) {
      if (id !== `\0${ID}`) return null;
      this.addWatchFile(SOURCE);
      return `export default ${JSON.stringify(compileBootScript())};`;
    },
  };
}
