import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ProgressBar, ProgressBarView } from './progress-bar.tsx';
import { createProgressStore } from '../../lib/progress-store.ts';

describe('ProgressBarView', () => {
  it('is hidden at 0', () => {
    const html = renderToStaticMarkup(<ProgressBarView value={0} />);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-label="Загрузка"');
    expect(html).toContain('aria-hidden="true"');
    expect(html).toContain('progress-bar--hidden');
    expect(html).toContain('aria-valuenow="0"');
  });

  it('shows the value as width', () => {
    const html = renderToStaticMarkup(<ProgressBarView value={38.8} />);
    expect(html).not.toContain('aria-hidden');
    expect(html).not.toContain('progress-bar--hidden');
    expect(html).toContain('aria-valuenow="39"');
    expect(html).toContain('width:38.8%');
  });
});

describe('ProgressBar', () => {
  it('renders hidden on the server', () => {
    const store = createProgressStore();
    store.start();
    const html = renderToStaticMarkup(<ProgressBar store={store} />);
    expect(html).toContain('aria-hidden="true"');
    store.reset();
  });
});
