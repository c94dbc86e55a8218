/**
 * Lighthouse (mobile, the default form factor and throttling) on the guest's pages, against the production start:
 * `node --import tsx bench/lighthouse.ts`. Builds when no build exists, starts `node scripts/start.mjs` (the demo's
 * data) on a free port, runs LIGHTHOUSE_RUNS (3) runs per page in Debian's Chromium and prints the median of each
 * category with the largest contentful paint. LIGHTHOUSE_DETAILS=<audit id> prints an audit's details;
 * LIGHTHOUSE_SAVE=<dir> writes each run's full report there as JSON. Lighthouse 12.8 is the last line that runs on Node 20.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.LIGHTHOUSE_RUNS) || 3;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

if (!existsSync(path.join(root, 'build', 'server', 'index.js'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The median of the runs that measured it (a run can lack a metric: Lighthouse once gave `/` no LCP). */
const median = (values: number[]) => {
  const measured = values.filter(Number.isFinite).sort((a, b) => a - b);
  return measured.length ? measured[Math.floor(measured.length / 2)]! : NaN;
};

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'podryad-lighthouse-'));
const server = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  env: { ...process.env, NODE_ENV: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RATES_URL: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error('the server did not start in 60 s');
    if (await fetch(`${origin}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const services = (await (await fetch(`${origin}/api/services?limit=1`)).json()) as { result: { _id: string; category: string }[] };
  const first = services.result[0];
  const pages = ['/', ...(first ? [`/services/${first.category}/${first._id}`] : []), '/projects'];

  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  console.log(`## Lighthouse ${runs}× per page (mobile), median\n`);
  console.log('| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const page of pages) {
    const scores: Record<string, number[]> = { lcp: [], tbt: [], cls: [] };
    const failing = new Map<string, string>();
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(origin + page, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] });
      const lhr = result!.lhr;
      for (const c of categories) (scores[c] ??= []).push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
      scores.lcp!.push(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN);
      scores.tbt!.push(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
      scores.cls!.push(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN);
      if (process.env.LIGHTHOUSE_SAVE) {
        const name = `${page.replace(/\W+/g, '_') || 'home'}-${i + 1}.json`;
        writeFileSync(path.join(process.env.LIGHTHOUSE_SAVE, name), JSON.stringify(lhr));
      }
      if (process.env.LIGHTHOUSE_DETAILS) console.error(JSON.stringify(lhr.audits[process.env.LIGHTHOUSE_DETAILS]?.details, null, 1));
      for (const c of categories) {
        for (const ref of lhr.categories[c]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) failing.set(`${c}: ${ref.id}`, String(audit.displayValue ?? audit.score));
        }
      }
    }
    const m = (k: string) => median(scores[k]!);
    console.log(
      `| ${page} | ${m('performance')} | ${m('accessibility')} | ${m('best-practices')} | ${m('seo')} | ${Math.round(m('lcp'))} | ${Math.round(m('tbt'))} | ${m('cls').toFixed(3)} |`,
    );
    if (failing.size) console.error(`  below 0.9 on ${page} (last run's value): ${[...failing].map(([k, v]) => `${k} ${v}`).join('; ')}`);
  }
} finally {
  await chrome?.kill();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
