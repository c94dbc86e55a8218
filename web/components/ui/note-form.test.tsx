import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { NoteForm, type NoteFormProps } from './note-form.tsx';

const props: NoteFormProps = {
  text: 'Причину получит владелец.',
  label: 'Причина',
  placeholder: 'Например: спам',
  maxLength: 500,
  confirmLabel: 'Отклонить',
  tone: 'danger',
  check: () => null,
  onConfirm: async () => null,
  onClose: () => {},
};

describe('NoteForm', () => {
  it('labels its one field, bounds it, describes it by the sentence above, and tones its button', () => {
    const html = renderToStaticMarkup(<NoteForm {...props} />);
    expect(html).toContain('<p class="modal__text" id="');
    expect(html).toContain('Причину получит владелец.');
    expect(html).toMatch(/<label for="([^"]+)" class="field__label">Причина<\/label><textarea id="\1"/);
    expect(html).toContain('maxLength="500"');
    expect(html).toContain('placeholder="Например: спам"');
    expect(html).toMatch(/aria-describedby="[^"]+-text"/);
    expect(html).toContain('class="btn btn--danger">Отклонить</button>');
    expect(renderToStaticMarkup(<NoteForm {...props} tone="primary" confirmLabel="Отметить решённым" />)).toContain('class="btn btn--primary">Отметить решённым</button>');
  });
});
