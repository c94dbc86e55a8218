import type { BlogAdminPost } from '#contract/blog';

// The blog editor's values and words (ADR 037): what the form opens with and what each save says.

export type PostValues = { title: string; description: string; body: string; cover: string | null };

/** The fields of a post being edited, or an empty new one. */
export const postValues = (post: BlogAdminPost | null): PostValues => ({
  title: post?.title ?? '',
  description: post?.description ?? '',
  body: post?.body ?? '',
  cover: post?.cover ?? null,
});

/** What a save says: a published post's changes go live at once, anything else stays a draft. */
export const savedText = (status: BlogAdminPost['status']) => (status === 'published' ? 'Изменения опубликованы' : 'Черновик сохранён');

/** What publishing or unpublishing says. */
export const statusText = (status: 'published' | 'draft') => (status === 'published' ? 'Статья опубликована' : 'Статья снята с публикации');

/** The cover button's words. */
export const coverButtonText = (uploading: boolean, cover: string | null) =>
  uploading ? 'Загрузка…' : cover ? 'Заменить обложку' : 'Загрузить обложку';
