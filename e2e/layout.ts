import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// The page-width check of the phone layouts (issue 25): a page must not swipe sideways. Measure it once the page has
// settled into what a person sees — after the live counters (badges) have arrived, not at load: a badge that came a
// second later once made every profile page 1,300 px wide at 375 px.

interface Offender {
  what: string;
  right: number;
}

/**
 * Fails when the page is wider than its window: the document scrolls sideways, or an element's box reaches past the
 * window's right edge without an ancestor that clips it (a strip that scrolls on its own is fine). The failure lists
 * the offending elements, outermost first.
 */
export async function expectFitsViewport(page: Page): Promise<void> {
  const viewport = page.viewportSize()?.width ?? Infinity;
  const { scrollWidth, innerWidth, offenders } = await page.evaluate(() => {
    const limit = Math.min(window.innerWidth, document.documentElement.clientWidth || window.innerWidth);
    const clips = (style: CSSStyleDeclaration) => style.overflowX !== 'visible';
    // Whether a box positioned like this is clipped by an ancestor's overflow: an absolute box only by its containing
    // block and what is above it, a fixed one by nothing (the cases that let a box escape a scroll container).
    const clipped = (el: Element): boolean => {
      let position = getComputedStyle(el).position;
      for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (position === 'fixed') return false;
        const containing = position !== 'absolute' || style.position !== 'static' || style.transform !== 'none';
        if (!containing) continue;
        if (p !== document.body && clips(style)) return true;
        position = style.position;
      }
      return false;
    };
    const describe = (el: Element) => {
      const classes =
        typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${classes}>${text ? ` «${text}»` : ''}`;
    };
    const found: { el: Element; right: number }[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      // A toast slides in from the edge by design: a transient overlay, not the page's layout.
      if (el.closest('.toast')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const right = box.right + window.scrollX;
      if (right > limit + 0.5 && !clipped(el)) found.push({ el, right });
    }
    // An offender inside another is the same problem: the outermost ones say where it starts.
    const outermost = found.filter(({ el }) => !found.some((o) => o.el !== el && o.el.contains(el)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: limit,
      offenders: outermost.map(({ el, right }): Offender => ({ what: describe(el), right: Math.round(right) })),
    };
  });
  const width = Math.min(viewport, innerWidth);
  const where = new URL(page.url()).pathname;
  const list = offenders
    .slice(0, 15)
    .map((o) => `  - ${o.what} reaches ${o.right} px`)
    .join('\n');
  expect(
    offenders.length === 0 && scrollWidth <= width,
    `${where} is ${scrollWidth} px wide on a ${width} px screen; past its right edge:\n${list || '  (no element: overflowing text)'}`,
  ).toBe(true);
}

/**
 * Fails when a table reaches past the column that holds it (ADR 091). The screen-width check cannot see it while the
 * page has room to the right: the seller's statement ran 33 px under the finance page's side panel at 1,280 px.
 */
export async function expectTablesWithinColumns(page: Page): Promise<void> {
  const overhangs = await page.evaluate(() =>
    [...document.querySelectorAll('table')]
      .filter((table) => table.getClientRects().length > 0 && table.parentElement)
      .map((table) => ({
        caption: (table.querySelector('th')?.textContent ?? '').trim(),
        by: table.getBoundingClientRect().right - table.parentElement!.getBoundingClientRect().right,
      }))
      .filter((t) => t.by > 0.5),
  );
  const where = new URL(page.url()).pathname;
  expect(overhangs.map((t) => `table «${t.caption}…» by ${Math.round(t.by)} px`), `${where}: tables wider than their column`).toEqual([]);
}
