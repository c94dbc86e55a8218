import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { ListingEmpty, projectFromSearch } from './listing-results.tsx';

// What an empty listing says: why there is nothing, and a way on (issue 25).

type Props = Parameters<typeof ListingEmpty>[0];

function render(over: Partial<Props>) {
  const props: Props = { filtered: false, allPath: '/services/all', empty: { text: 'Услуг пока нет' }, reset: () => {}, ...over };
  const Stub = createRoutesStub([{ path: '/services/all', Component: () => <ListingEmpty {...props} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={['/services/all']} />).replace(/<!-- -->/g, '');
}

describe('ListingEmpty', () => {
  it('offers to reset the filters, and to post a project for what was searched', () => {
    const html = render({ filtered: true, searched: 'логотип' });
    expect(html).toContain('<p class="empty-state__title">Ничего не нашлось</p>');
    expect(html).toContain('Попробуйте убрать часть фильтров или изменить запрос.');
    expect(html).toContain(`href="${projectFromSearch('логотип').replace(/&/g, '&amp;')}"`);
    expect(html).toContain('Сбросить фильтры</button>');
  });

  it('sends an empty category to all categories', () => {
    const html = render({ category: 'Дизайн' });
    expect(html).toContain('В категории «Дизайн» пока пусто — загляните в соседние категории.');
    expect(html).toContain('Все категории</a>');
    expect(html).not.toContain('Разместите проект');
  });

  it('says what the listing itself says when it has nothing at all', () => {
    const html = render({ empty: { text: 'Услуг пока нет', action: { to: '/become-seller', label: 'Стать продавцом' } } });
    expect(html).toContain('<p>Услуг пока нет</p>');
    expect(html).toContain('Стать продавцом</a>');
    expect(html).not.toContain('Ничего не нашлось');
  });

  it('cuts a long search to a project title’s length', () => {
    expect(new URLSearchParams(projectFromSearch('а'.repeat(200)).split('?')[1]).get('title')).toHaveLength(120);
  });
});
