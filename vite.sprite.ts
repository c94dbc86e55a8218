// The icons as one SVG sprite (issue 11, docs/decisions/020): built from lucide's own icon data for the names in
// web/components/ui/icon-names.ts, emitted into the client build as assets/icons-<hash>.svg (long-cached, precompressed
// with the other assets), and referenced by <use href>. A page carries a reference per icon instead of its paths, and
// the browser runs no icon code. Its URL is a build-time constant, the same in the client and the server build.
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';
import { ICONS } from './web/components/ui/icon-names.ts';

type IconNode = [tag: string, attrs: Record<string, string | number>][];

const STROKE = ' stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * One <symbol> per icon with lucide's stroke (2 units, round, the text colour), so that a page's <svg> carries only its
 * size and fill: the fill is left to the <svg> that uses the symbol (a chosen heart is filled, most icons are not).
 */
export async function buildSprite(): Promise<string> {
  const symbols: string[] = [];
  for (const name of [...new Set(Object.values(ICONS))].sort()) {
    const { __iconData } = (await import(`lucide-react/icons/${name}`)) as { __iconData: { node: IconNode } };
    const shapes = __iconData.node.map(([tag, attrs]) => {
      const list = Object.entries(attrs)
        .filter(([key]) => key !== 'key')
        .map(([key, value]) => ` ${key}="${escape(String(value))}"`)
        .join('');
      return `<${tag}${list}/>`;
    });
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24"${STROKE}>${shapes.join('')}</symbol>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>\n`;
}

export function iconSprite(): Plugin {
  let sprite: { source: string; url: string } | undefined;
  const load = async () => {
    if (sprite) return sprite;
    const source = await buildSprite();
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
    return (sprite = { source, url: `/assets/icons-${hash}.svg` });
  };
  return {
    name: 'podryad-icon-sprite',
    async config() {
      const { url } = await load();
      return { define: { 'import.meta.env.VITE_ICON_SPRITE': JSON.stringify(url) } };
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const built = sprite;
        if (!built || req.url !== built.url) return next();
        res.setHeader('content-type', 'image/svg+xml');
        res.end(built.source);
      });
    },
    async generateBundle() {
      if (this.environment.name !== 'client') return;
      const { source, url } = await load();
      this.emitFile({ type: 'asset', fileName: url.slice(1), source });
    },
  };
}
