import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { staticPages, type StaticPageSlug } from './content.ts';
import { resolvePage } from './resolve.ts';
import { StaticPageView } from './static-page-view.tsx';
import type { StaticPage } from './types.ts';

const slugs = Object.keys(staticPages) as StaticPageSlug[];
const render = (page: StaticPage, brand = 'Биржа') =>
  renderToStaticMarkup(
    <MemoryRouter>
      <StaticPageView page={page} brand={brand} />
    </MemoryRouter>,
  ).replace(/<!-- -->/g, '');

describe('the static pages', () => {
  it('are the five of the footer, each split into its own file', () => {
    expect(slugs).toEqual(['faq', 'help', 'about', 'contacts', 'conditions']);
  });

  it.each(slugs.map((s) => [s] as const))('%s has a title, a description with the brand, a lead and sections', (slug) => {
    const page = staticPages[slug];
    expect(page.title.length).toBeGreaterThan(3);
    expect(page.description).toContain('{brand}');
    expect(page.sections.length).toBeGreaterThan(0);
    expect(resolvePage(page, 'Биржа').lead.length).toBeGreaterThan(20);
  });

  it.each(slugs.map((s) => [s] as const))('%s shows with the brand put in everywhere', (slug) => {
    const html = render(staticPages[slug]);
    expect(html).not.toContain('{brand}');
    expect(html).toContain(`<h1 class="page__title">${staticPages[slug].title}</h1>`);
    expect(html).toContain('href="/"');
  });

  it('shows each section’s heading once, and questions as collapsible answers', () => {
    const html = render(staticPages.faq);
    const shown = resolvePage(staticPages.faq, 'Биржа');
    expect(html.match(/<details class="faq__item">/g)).toHaveLength(shown.faq.length);
    for (const s of shown.sections) expect(html.split(`<h2>${s.heading}</h2>`)).toHaveLength(2);
    expect(html).toContain('<summary class="faq__question">Что такое «Биржа»?</summary>');
  });
});

describe('StaticPageView', () => {
  const page: StaticPage = {
    title: 'Тест',
    description: '{brand}',
    lead: 'О сервисе «{brand}».',
    sections: [
      { heading: 'Абзацы', paragraphs: ['Первый', 'Второй'], link: { to: '/help', label: 'Помощь' } },
      { heading: 'Список', paragraphs: [], items: ['Раз', 'Два'] },
      { heading: 'Споры', paragraphs: [{ needs: 'disputes', text: 'скоро' }], items: [] },
    ],
  };

  it('renders paragraphs, lists and links, with no FAQ block when there are no questions', () => {
    const html = render(page, 'Подряд');
    expect(html).toContain('<p class="static-page__lead">О сервисе «Подряд».</p>');
    expect(html).toContain('<h2>Абзацы</h2><p>Первый</p><p>Второй</p><p class="static-page__link"><a href="/help"');
    expect(html).toContain('Помощь →</a>');
    expect(html).toContain('<h2>Список</h2><ul><li>Раз</li><li>Два</li></ul>');
    expect(html).not.toContain('class="faq"');
    // Disputes are live (LIVE_FEATURES): a text waiting for them is shown.
    expect(html).toContain('<h2>Споры</h2><p>скоро</p>');
  });
});
