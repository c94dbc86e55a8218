import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DateCell } from './date-cell.tsx';

describe('DateCell', () => {
  it('shows the short date on one line, the long one on hover, and its label for the cards below 900 px', () => {
    const html = renderToStaticMarkup(
      <table>
        <tbody>
          <tr>
            <DateCell label="Дата" date={new Date(2026, 11, 1)} />
          </tr>
        </tbody>
      </table>,
    );
    expect(html).toContain('<td data-label="Дата" class="table__date" title="1 декабря 2026 г.">01.12.2026</td>');
  });
});
