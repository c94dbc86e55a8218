import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { FileUploader, type FileUploaderProps, overflowNote, storedFileName, withCover } from './file-uploader.tsx';

const render = (props: Partial<FileUploaderProps>) =>
  renderToStaticMarkup(<FileUploader mode="images" label="Изображения" hint="До 10 файлов" value={[]} onChange={() => {}} max={10} {...props} />);

describe('storedFileName', () => {
  it.each([
    ['/uploads/a.png', 0, { '/uploads/a.png': 'кот.png' }, true, 'кот.png'],
    ['/uploads/a.png', 0, {}, true, 'Изображение 1'],
    ['/uploads/b.png', 4, {}, true, 'Изображение 5'],
    ['/uploads/c.pdf', 0, {}, false, 'Файл PDF'],
    ['/uploads/c.docx', 2, { '/uploads/c.docx': 'Договор.docx' }, false, 'Договор.docx'],
    ['/uploads/noext', 0, {}, false, 'Файл'],
    ['/uploads/a.jpeg', 1, {}, false, 'Файл JPEG'],
    ['/uploads/x.verylongext', 0, {}, false, 'Файл'],
  ])('%s (#%i, names %j, images %s) → %s', (url, index, names, images, name) => {
    expect(storedFileName(url, index, names, images)).toBe(name);
  });
});

describe('withCover', () => {
  it.each([
    [['a', 'b', 'c'], 'c', ['c', 'a', 'b']],
    [['a', 'b', 'c'], 'b', ['b', 'a', 'c']],
    [['a', 'b', 'c'], 'a', ['a', 'b', 'c']],
    [['a'], 'a', ['a']],
    // An address the list does not have becomes the cover (the uploader only offers those it shows).
    [['a', 'b'], 'z', ['z', 'a', 'b']],
  ])('%j with %s first → %j', (urls, url, result) => {
    expect(withCover(urls, url)).toEqual(result);
  });
});

describe('overflowNote', () => {
  it.each([
    [0, 10, null],
    [-1, 10, null],
    [1, 10, { name: '1 шт.', error: 'Можно загрузить не больше 10' }],
    [3, 5, { name: '3 шт.', error: 'Можно загрузить не больше 5' }],
  ])('%i over a limit of %i → %j', (over, max, note) => {
    expect(overflowNote(over, max)).toEqual(note);
  });
});

describe('FileUploader', () => {
  it('marks the first image as the cover and offers the others to become it', () => {
    const html = render({ value: ['/uploads/a.png', '/uploads/b.png'] });
    expect(html).toContain('alt="Обложка: Изображение 1"');
    expect(html).toContain('alt="Изображение 2"');
    expect(html.match(/uploader__cover badge/g)).toHaveLength(1);
    expect(html).not.toContain('aria-label="Сделать обложкой: Изображение 1"');
    expect(html).toContain('aria-label="Сделать обложкой: Изображение 2"');
    expect(html).toContain('aria-label="Удалить: Изображение 1"');
    expect(html).toContain('aria-label="Удалить: Изображение 2"');
  });

  it('lists attachments as links that open apart, with no cover', () => {
    const html = render({ mode: 'files', value: ['/uploads/c.pdf'] });
    expect(html).toContain('<a class="uploader__file" href="/uploads/c.pdf" target="_blank" rel="noreferrer">');
    expect(html).toContain('<span>Файл PDF</span>');
    expect(html).not.toContain('Обложка');
    expect(html).toContain('Прикрепить файлы');
    expect(html).not.toContain('Добавить изображения');
  });

  it('offers to add while there is room, and not once the limit is reached', () => {
    expect(render({ value: ['/uploads/a.png'], max: 2 })).toContain('Добавить изображения');
    expect(render({ value: ['/uploads/a.png', '/uploads/b.png'], max: 2 })).not.toContain('uploader__add-item');
  });

  it('accepts only images in the images mode', () => {
    expect(render({})).toMatch(/accept="image\/png,image\/jpeg,image\/webp,image\/gif"/);
  });

  it('shows an item’s own error under it', () => {
    const html = render({ value: ['/uploads/a.png', '/uploads/b.png'], itemError: (i) => (i === 1 ? 'Слишком маленькое' : undefined) });
    expect(html.match(/uploader__item--error/g)).toHaveLength(1);
    expect(html).toContain('<p class="field__error uploader__problem">Слишком маленькое</p>');
  });

  it('ties the field’s error to the input and marks the group invalid', () => {
    const html = render({ error: 'Добавьте хотя бы одно изображение' });
    expect(html).toContain('field--invalid');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toMatch(/<p id="[^"]+-error" class="field__error" role="alert">Добавьте хотя бы одно изображение<\/p>/);
  });

  it('says there are no files when nothing may be added', () => {
    const html = render({ canAdd: false });
    expect(html).toContain('Файлов нет.');
    expect(html).not.toContain('uploader__list');
  });

  it('shows the files it has without the add button when adding is off', () => {
    const html = render({ canAdd: false, value: ['/uploads/a.png'] });
    expect(html).toContain('uploader__list');
    expect(html).not.toContain('Файлов нет.');
    expect(html).not.toContain('uploader__add-item');
  });
});
