import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { FiltersDays, FiltersPrice } from './filter-fields.tsx';

const html = (node: React.ReactNode) => renderToStaticMarkup(node).replace(/<!-- -->/g, '');

describe('the filter panel’s fields', () => {
  it('names the price a budget on the project exchange and keys it by the listing’s own address names', () => {
    const projects = html(<FiltersPrice kind="projects" from="1000" to="" onChange={() => {}} />);
    expect(projects).toContain('<legend class="filters__label">Бюджет, руб.</legend>');
    expect(projects).toContain('<span class="visually-hidden">Бюджет, руб. от</span>');
    expect(projects).toContain('placeholder="от" name="budget_from" value="1000"/>');
    expect(projects).toContain('placeholder="до" name="budget_to" value=""/>');
    expect(html(<FiltersPrice kind="services" from="" to="" onChange={() => {}} />)).toContain('Цена, руб.</legend>');
  });

  it('keeps a delivery time from the address that is not among the choices', () => {
    const odd = html(<FiltersDays value={17} set={() => {}} />);
    expect(odd).toContain('<option value="17" selected="">До 17 дн.</option>');
    const none = html(<FiltersDays set={() => {}} />);
    expect(none).toContain('<option value="" selected="">Любой</option>');
    expect(none).not.toContain('До 17 дн.');
  });
});
