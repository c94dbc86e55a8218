import { describe, expect, it } from 'vitest';
import type { BlogAdminPost } from '#contract/blog';
import { coverButtonText, postValues, savedText, statusText } from './editor-values.ts';

const post = (over: Partial<BlogAdminPost> = {}): BlogAdminPost => ({
  _id: 'p1',
  title: 'Как выбрать исполнителя',
  description: 'Пять вопросов до оплаты',
  cover: '/uploads/cover.webp',
  status: 'draft',
  published_at: null,
  updated_at: '2026-11-24T10:00:00.000Z',
  html: '<p>Текст</p>',
  created_at: '2026-11-20T10:00:00.000Z',
  author: null,
  body: 'Текст',
  ...over,
});

describe('postValues', () => {
  it('opens a new post empty, without a cover', () => {
    expect(postValues(null)).toEqual({ title: '', description: '', body: '', cover: null });
  });
  it('opens a post with its fields and its Markdown, not its HTML', () => {
    expect(postValues(post())).toEqual({
      title: 'Как выбрать исполнителя',
      description: 'Пять вопросов до оплаты',
      body: 'Текст',
      cover: '/uploads/cover.webp',
    });
  });
  it('keeps a post without a cover without one', () => {
    expect(postValues(post({ cover: null })).cover).toBeNull();
  });
});

describe('the editor’s words', () => {
  it.each([
    ['published', 'Изменения опубликованы'],
    ['draft', 'Черновик сохранён'],
  ] as const)('saving a %s post says «%s»', (status, text) => {
    expect(savedText(status)).toBe(text);
  });
  it.each([
    ['published', 'Статья опубликована'],
    ['draft', 'Статья снята с публикации'],
  ] as const)('setting %s says «%s»', (status, text) => {
    expect(statusText(status)).toBe(text);
  });
  it.each([
    [true, null, 'Загрузка…'],
    [true, '/uploads/c.png', 'Загрузка…'],
    [false, null, 'Загрузить обложку'],
    [false, '/uploads/c.png', 'Заменить обложку'],
  ])('the cover button while uploading %s with cover %j reads «%s»', (uploading, cover, text) => {
    expect(coverButtonText(uploading, cover)).toBe(text);
  });
});
