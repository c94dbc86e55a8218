/**
 * The JavaScript a first-time guest downloads (issue 11: ≤ 120 KiB gzip for the files; issue 31 counts the HTML's
 * inline scripts too), per page: `/`, a service page and `/projects`.
 * Builds nothing: run `npm run build && node --import tsx bench/js-budget.ts`. Starts the production server on the
 * demo data, opens each page in a fresh chromium context (no cookies, empty cache), and sums the gzip -9 size of every
 * JavaScript response the page fetched until the network went idle (entry, modulepreloads, lazy chunks) and of each
 * inline script of its HTML (e2e/js-budget.ts: JSON-LD is not counted), at load and again once a pointer over the
 * page has started the app (web/lib/boot-on-intent.ts), then prints a table per page, the biggest files and the
 * inline scripts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ScriptSize } from '../e2e/js-budget.ts';

// React picks its production build from this when first imported: set it before anything loads React.
process.env.NODE_ENV = 'production';

const root = path.resolve(import.meta.dirname, '..');
if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  console.error('No build: run `npm run build` first.');
  process.exit(1);
}

const { startDemoServer } = await import('./demo-server.ts');
const { launchBrowser } = await import('../e2e/fixtures.ts');
const { guestScripts, totalKib } = await import('../e2e/js-budget.ts');

const demo = await startDemoServer();
const server = demo.server;
const browser = await launchBrowser('chromium');
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

try {
  const listed = (await (await fetch(`${server.url}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  const first = listed.result[0];
  if (!first) throw new Error('no demo service to open');
  const pages = { '/': '/', 'a service page': `/services/${first.category}/${first._id}`, '/projects': '/projects' };

  const all = new Map<string, ScriptSize>();
  const inline: string[] = [];
  console.log(
    '| Page | JS files | raw KiB | gzip KiB | inline scripts | inline gzip KiB | total gzip KiB | HTML KiB | HTML gzip KiB | inline <svg> |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [label, url] of Object.entries(pages)) {
    const { atLoad, withApp } = await guestScripts(browser, server.url, url);
    // The guest's HTML as the server renders it: its size, and how many inline <svg> elements it carries.
    const html = Buffer.from(await (await fetch(server.url + url)).arrayBuffer());
    const svgs = html.toString().match(/<svg\b/g)?.length ?? 0;
    for (const s of withApp.filter((s) => s.inline)) inline.push(`- ${label}: ${kib(s.gzip).padStart(5)}  ${s.url}`);
    for (const [phase, scripts] of [['at load', atLoad], ['with the app', withApp]] as const) {
      const files = scripts.filter((s) => !s.inline);
      for (const s of files) all.set(s.url, s);
      const raw = files.reduce((sum, s) => sum + s.raw, 0);
      const inlineCount = scripts.length - files.length;
      console.log(
        `| ${label}, ${phase} | ${files.length} | ${kib(raw)} | ${totalKib(scripts, false).toFixed(1)} | ${inlineCount} | ${totalKib(scripts, true).toFixed(1)} | ${totalKib(scripts).toFixed(1)} | ${kib(html.length)} | ${kib(gzipSync(html, { level: 9 }).length)} | ${svgs} |`,
      );
    }
  }
  console.log('\nBiggest files (gzip KiB) over the three pages:\n');
  const biggest = [...all.values()].sort((a, b) => b.gzip - a.gzip);
  for (const s of biggest.slice(0, 15)) console.log(`- ${kib(s.gzip).padStart(6)}  ${s.url}`);
  const small = biggest.filter((s) => s.gzip < 2048);
  console.log(`\nInline scripts (gzip KiB each):\n\n${inline.join('\n')}`);
  console.log(`\n${small.length} file(s) under 2 KiB gzip: ${small.map((s) => `${s.url.replace('/assets/', '')} (${kib(s.gzip)})`).join(', ') || '–'}`);
} finally {
  await browser.close();
  await demo.close();
}
