import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect } from 'vitest';
import { pathOf } from './page-helpers.ts';
import { expectTablesWithinColumns } from './layout.ts';

// The e2e flows' checks of a page: accessibility (axe-core), width, screenshots.

/**
 * axe-core's minified build: a check in a fresh document sends axe's source through the DevTools protocol and
 * compiles it there, 0.55 s for the 1.5 MB `axe.source`, 0.4 s for this 0.65 MB file (ADR 093).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The page's serious and critical axe violations as it is now. axe-core is put into a document once and run there
 * for each check (a client-side navigation keeps it). @axe-core/playwright's AxeBuilder evaluated axe's 1.5 MB
 * source twice per check, some 0.3 s each: two thirds of a check's time, and a quarter of some files' (session 54).
 * It runs in the page itself, as AxeBuilder's legacy mode did: our pages have no frames of their own.
 * Only the rules that can fail the check run: a rule whose own impact and every check's are below serious can find
 * nothing that counts, and is turned off, read from axe's own metadata in the page (ADR 093).
 */
async function violations(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => {
    type Check = string | { id: string };
    type Rule = { id: string; impact?: string; any: Check[]; all: Check[]; none: Check[] };
    type Audit = { rules: Rule[]; data: { checks: Record<string, { impact?: string }> } };
    type Axe = { run: (context: Document, options: RunOptions) => Promise<AxeResults>; _audit: Audit };
    const { axe } = window as unknown as { axe: Axe };
    const failing = new Set(['serious', 'critical']);
    const impactOf = (check: Check) => axe._audit.data.checks[typeof check === 'string' ? check : check.id]?.impact;
    const impacts = (rule: Rule) => [rule.impact, ...[...rule.any, ...rule.all, ...rule.none].map(impactOf)];
    const harmless = axe._audit.rules.filter((rule) => !impacts(rule).some((impact) => failing.has(impact ?? '')));
    const rules = Object.fromEntries(harmless.map((rule) => [rule.id, { enabled: false }]));
    return axe.run(document, { resultTypes: ['violations'], rules });
  });
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Until no animation runs on the page (at most 5 s). */
const animationsEnded = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5_000 }).catch(() => {});

/**
 * Fails on any serious or critical axe violation on the page as it is now.
 * A violation must still be there once the animations have ended: a toast that began to fade out while axe ran
 * (its auto-close) was measured at a colour nobody reads it in.
 */
export async function checkA11y(page: Page) {
  let bad = await violations(page);
  if (bad.length) {
    await animationsEnded(page);
    bad = await violations(page);
  }
  if (bad.length) {
    const list = bad
      .map((v) => `  - ${v.id} (${v.impact}): ${v.help} — ${JSON.stringify(v.nodes[0]?.target ?? [])} (${v.nodes.length} node(s))`)
      .join('\n');
    throw new Error(`Accessibility violations on ${page.url()}:\n${list}`);
  }
}

/**
 * Whether flows are photographed: for a person to look at, not in CI, where nobody does and a full page's picture
 * costs some 0.4 s of a shared core (ADR 093). E2E_SHOTS=1 takes them in CI too, E2E_SHOTS=0 nowhere.
 */
const PHOTOGRAPHED = process.env.E2E_SHOTS ? process.env.E2E_SHOTS !== '0' : !process.env.CI;

/** A screenshot of the page into `file` (the whole page with `fullPage`), when flows are photographed. */
export async function photograph(page: Page, file: string, { fullPage = false } = {}) {
  if (PHOTOGRAPHED) await page.screenshot({ path: file, fullPage });
}

/** A flow's folder of screenshots: E2E_SHOTS_DIR, else /tmp/{flow}-shots. */
export function shotsDir(flow: string): string {
  const dir = process.env.E2E_SHOTS_DIR ?? `/tmp/${flow}-shots`;
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A flow's page check: photographed into `dir` as {name}-{width}.png (not in CI: `photograph()`), no wider than its
 * screen, no serious accessibility problem. `settle`: once the animations have ended (a toast fading in has not its
 * final colour yet).
 */
export function pageCheck(dir: string, { settle = false } = {}) {
  return async (page: Page, name: string) => {
    const width = page.viewportSize()!.width;
    if (settle) await animationsEnded(page);
    await photograph(page, path.join(dir, `${name}-${width}.png`), { fullPage: true });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${pathOf(page)} is wider than the ${width} px screen`).toBeLessThanOrEqual(width);
    await expectTablesWithinColumns(page);
    await checkA11y(page);
  };
}
