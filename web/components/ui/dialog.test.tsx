import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ConfirmDialog, Modal } from './dialog.tsx';

const noop = () => {};

describe('Modal', () => {
  it('is named by its heading and renders its content only while open', () => {
    const closed = renderToStaticMarkup(
      <Modal open={false} title="Удалить чат?" onClose={noop}>
        <p>содержимое</p>
      </Modal>,
    );
    expect(closed).toMatch(/^<dialog class="modal" aria-labelledby="([^"]+)"><h2 id="\1" class="modal__title">Удалить чат\?<\/h2><\/dialog>$/);
    const open = renderToStaticMarkup(
      <Modal open title="Удалить чат?" onClose={noop} describedBy="text-1">
        <p>содержимое</p>
      </Modal>,
    );
    expect(open).toContain('aria-describedby="text-1"');
    expect(open).toContain('<p>содержимое</p>');
  });

  it('is never rendered open on the server: the browser opens it as a modal', () => {
    expect(renderToStaticMarkup(<Modal open title="T" onClose={noop}>x</Modal>)).not.toMatch(/<dialog[^>]* open/);
  });
});

describe('ConfirmDialog', () => {
  const render = (props: Partial<React.ComponentProps<typeof ConfirmDialog>> = {}) =>
    renderToStaticMarkup(
      <ConfirmDialog open title="Отменить заказ?" text="Деньги вернутся покупателю." confirmLabel="Отменить заказ" onConfirm={noop} onClose={noop} {...props} />,
    );

  it('puts «Отмена» first, focused, so Enter never confirms', () => {
    const html = render();
    const cancel = html.indexOf('>Отмена<');
    const confirm = html.indexOf('>Отменить заказ</button>');
    expect(cancel).toBeGreaterThan(-1);
    expect(confirm).toBeGreaterThan(cancel);
    expect(html).toMatch(/<button type="button" class="btn btn--ghost" autofocus="">Отмена<\/button>/);
  });

  it('describes itself by its text', () => {
    const html = render();
    const described = /aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(described).toBeTruthy();
    expect(html).toContain(`<p id="${described}" class="modal__text">Деньги вернутся покупателю.</p>`);
  });

  it.each([
    [{}, 'btn btn--primary'],
    [{ danger: true }, 'btn btn--danger'],
    [{ danger: false }, 'btn btn--primary'],
  ])('draws the confirm button of %j as %s', (props, className) => {
    expect(render(props)).toContain(`<button type="button" class="${className}">Отменить заказ</button>`);
  });

  it('disables only the confirm button while busy', () => {
    const html = render({ busy: true });
    expect(html).toContain('<button type="button" class="btn btn--primary" disabled="">Отменить заказ</button>');
    expect(html).not.toMatch(/btn--ghost"[^>]*disabled/);
  });

  it('renders no buttons while closed', () => {
    expect(render({ open: false })).not.toContain('<button');
  });
});
