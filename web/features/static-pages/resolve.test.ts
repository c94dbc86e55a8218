import { describe, expect, it } from 'vitest';
import routes from '../../routes.ts';
import { LIVE_FEATURES, SUPPORT_EMAIL, staticPages, type StaticPageSlug } from './content.ts';
import { resolvePage, type ShownPage } from './resolve.ts';

// Issue 15, item 14: the help pages promise only what exists; a promise of a feature still to come waits, and the
// texts about what exists lead to its page.

const textOf = (page: ShownPage) =>
  [page.lead, ...page.faq.flatMap((q) => [q.question, q.answer]), ...page.sections.flatMap((s) => [s.heading, ...s.paragraphs, ...s.items])].join('\n');
const supportPages: StaticPageSlug[] = ['faq', 'help', 'contacts'];

/** Every path of the route config, with its parameters as written (`user/:id`). */
function routePaths(entries: readonly { path?: string; index?: boolean; children?: unknown }[], parent = ''): string[] {
  return entries.flatMap((r) => {
    const here = r.path ? `${parent}/${r.path}`.replace(/\/+/g, '/') : parent || '/';
    const children = Array.isArray(r.children) ? routePaths(r.children, here) : [];
    return r.path || r.index ? [here, ...children] : children;
  });
}

describe('the support pages’ promises', () => {
  it('say nothing of disputes, arbitration, appeals or complaints while those do not exist', () => {
    for (const slug of supportPages) {
      // The level rule («ни одного проигранного спора») holds whether disputes exist or not.
      const text = textOf(resolvePage(staticPages[slug], 'Подряд', { disputes: false, appeals: false })).replaceAll('проигранного спора', '');
      expect(text, slug).not.toMatch(/спор|арбитр|обращени[ея] в профиле|«Обращения»|Пожаловаться/i);
      expect(text, slug).toContain(slug === 'contacts' ? SUPPORT_EMAIL : '«Контакты»');
    }
  });

  it('today: disputes and appeals are both live (issue 14), the help page leads to the appeals tab', () => {
    expect(LIVE_FEATURES).toEqual({ disputes: true, appeals: true });
    const faq = resolvePage(staticPages.faq, 'Подряд');
    expect(faq.faq.map((q) => q.question)).toContain('Как решаются споры?');
    for (const slug of supportPages) expect(textOf(resolvePage(staticPages[slug], 'Подряд')), slug).toMatch(/«Обращения»/);
    const help = resolvePage(staticPages.help, 'Подряд');
    expect(textOf(help)).toContain('«Пожаловаться»');
    expect(help.sections.find((s) => s.heading === 'Как обратиться в поддержку')?.link).toEqual({ to: '/profile/disputes?tab=appeals', label: 'Обращения' });
    // No promise of what is not built: complaints are made from pages and order cards, not from single messages.
    expect(textOf(help)).not.toContain('у конкретного сообщения');
  });

  it('show the full texts once disputes and appeals are live', () => {
    const faq = resolvePage(staticPages.faq, 'Подряд', { disputes: true, appeals: true });
    expect(faq.faq.map((q) => q.question)).toContain('Как решаются споры?');
    expect(textOf(faq)).toContain('откройте спор');
    const help = resolvePage(staticPages.help, 'Подряд', { disputes: true, appeals: true });
    expect(help.sections.map((s) => s.heading)).toContain('Споры и арбитраж');
    expect(textOf(help)).toContain('«Пожаловаться»');
  });

  it('keep every answer: a waiting text without a meanwhile form is the only thing left out', () => {
    const today = resolvePage(staticPages.faq, 'Подряд', { disputes: false, appeals: false });
    const live = resolvePage(staticPages.faq, 'Подряд', { disputes: true, appeals: true });
    expect(live.faq.length - today.faq.length).toBe(1);
    expect(today.faq.every((q) => q.answer.length > 40)).toBe(true);
  });

  it('link to pages that exist', () => {
    const paths = new Set(routePaths(routes as never));
    const links = Object.values(staticPages).flatMap((page) => [
      ...(page.faq ?? []).flatMap((q) => (q.link ? [q.link.to] : [])),
      ...page.sections.flatMap((s) => (s.link ? [s.link.to] : [])),
    ]);
    expect(links.length).toBeGreaterThan(5);
    for (const to of links) expect(paths, to).toContain(to.split('?')[0]);
  });

  it('put the brand in', () => {
    expect(resolvePage(staticPages.faq, 'Биржа').faq[0]!.question).toBe('Что такое «Биржа»?');
  });
});

describe('the brand in the texts (ADR 046)', () => {
  it('stands first or in «quotes» after a noun: the operator sets it, so it is never declined («на Подряд»)', () => {
    const texts = JSON.stringify(staticPages);
    const before = [...texts.matchAll(/\{brand\}/g)].map((m) => texts[m.index - 1]);
    expect(before.length).toBeGreaterThan(10);
    for (const char of before) expect(['"', '«']).toContain(char);
  });
});
