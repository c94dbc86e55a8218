import { randomUUID } from 'node:crypto';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './vite.boot.ts';
import { guestChunks } from './vite.chunking.ts';
import { iconSprite } from './vite.sprite.ts';

/** Emits builds/latest.json with this build's id; the client polls it to notice a new version (SPEC §7). */
function buildInfo(): Plugin {
  const id = process.env.BUILD_ID ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
  return {
    name: 'podryad-build-info',
    config: () => ({ define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(id) } }),
    generateBundle() {
      if (this.environment.name !== 'client') return;
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: JSON.stringify({ id }) });
    },
  };
}

export default defineConfig({
  plugins: [reactRouter(), buildInfo(), guestChunks(), iconSprite(), bootScript()],
  build: {
    target: 'es2022',
    rollupOptions: {
      // A web feature's index.ts re-exports its public face (docs/decisions/017). Its modules run nothing when they
      // load, so a module none of whose exports a page uses is left out of that page: a page that takes one part of
      // a feature through the index does not download the whole feature.
      treeshake: { moduleSideEffects: (id) => !id.includes('/web/features/') },
    },
  },
});
