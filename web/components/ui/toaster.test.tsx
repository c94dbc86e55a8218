import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Toast } from '../../lib/toast-store.ts';
import { createToastStore } from '../../lib/toast-store.ts';
import { Toaster } from './toaster.tsx';
import { ToastList } from './toast-list.tsx';

const base: Toast = { id: 1, message: 'Не удалось сохранить', type: 'error', duration: 3000, state: 'open', paused: false };

describe('ToastList', () => {
  it('renders one toast with a close button each', () => {
    const html = renderToStaticMarkup(
      <ToastList toasts={[base, { ...base, id: 2, message: 'Сохранено', type: 'success', state: 'closing' }]} />,
    );
    expect(html).toContain('class="toast toast--error"');
    expect(html).toContain('class="toast toast--success toast--closing"');
    expect(html).toContain('Не удалось сохранить');
    expect(html).toContain('Сохранено');
    expect(html.match(/aria-label="Закрыть"/g)).toHaveLength(2);
  });

  it('escapes messages', () => {
    const html = renderToStaticMarkup(<ToastList toasts={[{ ...base, message: '<b>x</b>' }]} />);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});

describe('Toaster', () => {
  it('renders an empty polite live region on the server (server snapshot): the toasts come with the first one', () => {
    const store = createToastStore();
    store.show('only on the client', { duration: 0 });
    const html = renderToStaticMarkup(<Toaster store={store} />);
    expect(html).toContain('class="toaster"');
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-live="polite"');
    expect(html).not.toContain('only on the client');
    store.clear();
  });
});
