import { useState, type FormEvent } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { BLOG_LIMITS, blogPath, type BlogAdminPost } from '#contract/blog';
import type { ApiError } from '#contract/api';
import { api } from '../../lib/api.ts';
import { refuseFile, uploadFile } from '../../lib/upload.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Picture } from '../../components/ui/picture.tsx';
import { FormError, TextAreaField, TextField } from '../../components/ui/form.tsx';
import { coverButtonText, postValues, type PostValues as Values, savedText, statusText } from './editor-values.ts';

const COVER_TYPES = 'image/jpeg,image/png,image/webp';

/** Saving the fields, and the errors of the last call (a save, a state change, a preview or a removal). */
function usePostSave(post: BlogAdminPost | null, values: Values) {
  const [errors, setErrors] = useState<Record<string, string[]>>();
  const [formError, setFormError] = useState<string | null>(null);
  const fail = (error: ApiError) => {
    setErrors(error.errors);
    setFormError(error.message);
  };
  /** Saves the fields; answers the post as saved, or null when refused (the errors are shown). */
  async function save(): Promise<BlogAdminPost | null> {
    setErrors(undefined);
    setFormError(null);
    const sent = post
      ? await api.write('admin.blog.update', { params: { id: post._id }, body: values })
      : await api.write('admin.blog.create', { body: values });
    if (sent.error) {
      fail(sent.error);
      return null;
    }
    return sent.data.result;
  }
  return { errors, formError, fail, save };
}

/** The cover's upload: one image, refused or failed uploads said in a toast, the stored address handed on. */
function useCoverUpload(onUploaded: (url: string) => void) {
  const [uploading, setUploading] = useState(false);
  async function onCover(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const refused = refuseFile(file, true);
    if (refused) return void toast(refused);
    setUploading(true);
    const { file: stored, error } = await uploadFile(file);
    setUploading(false);
    if (error) return void toast(error);
    onUploaded(stored!.url);
  }
  return { uploading, onCover };
}

/**
 * The admin's post form: title, description, cover upload, Markdown, a preview rendered by the server (the same
 * sanitiser as the saved article), save, publish or unpublish, delete.
 */
export function BlogEditor({ post }: { post: BlogAdminPost | null }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [values, setValues] = useState<Values>(() => postValues(post));
  const { errors, formError, fail, save } = usePostSave(post, values);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const { uploading, onCover } = useCoverUpload((cover) => setValues((v) => ({ ...v, cover })));
  const set = (key: keyof Values) => (e: { currentTarget: { value: string } }) => {
    // Read now: React's event is gone by the time the updater runs.
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  const afterSave = async (saved: BlogAdminPost, message: string) => {
    toast(message, { type: 'success' });
    if (post) await revalidator.revalidate();
    else await navigate(`/admin/blog/${saved._id}/edit`, { replace: true });
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const saved = await save();
      if (saved) await afterSave(saved, savedText(saved.status));
    });
  }

  const setStatus = (status: 'published' | 'draft') =>
    run(async () => {
      const saved = status === 'published' ? await save() : post;
      if (!saved) return;
      const sent = await api.write('admin.blog.setStatus', { params: { id: saved._id }, body: { status } });
      if (sent.error) return fail(sent.error);
      await afterSave(saved, statusText(status));
    });

  const remove = () =>
    run(async () => {
      if (!post || !window.confirm('Удалить статью? Её нельзя будет восстановить.')) return;
      const sent = await api.write('admin.blog.remove', { params: { id: post._id } });
      if (sent.error) return fail(sent.error);
      toast('Статья удалена', { type: 'success' });
      await navigate('/admin/blog');
    });

  const showPreview = () =>
    run(async () => {
      const sent = await api.write('admin.blog.preview', { body: { body: values.body } });
      if (sent.error) return fail(sent.error);
      setPreview(sent.data.result.html);
    });

  return (
    <form className="form blog-editor" onSubmit={onSubmit} noValidate>
      <div className="card form">
        <TextField label="Заголовок" name="title" value={values.title} onChange={set('title')} errors={errors} maxLength={BLOG_LIMITS.title.max} required />
        <TextAreaField
          label="Краткое описание (для списка статей и поисковиков)"
          name="description"
          rows={3}
          value={values.description}
          onChange={set('description')}
          errors={errors}
          maxLength={BLOG_LIMITS.description.max}
        />
        <CoverField
          cover={values.cover}
          uploading={uploading}
          error={errors?.cover}
          onUpload={(e) => void onCover(e)}
          onClear={() => setValues((v) => ({ ...v, cover: null }))}
        />
        <TextAreaField
          label="Текст статьи (Markdown)"
          name="body"
          rows={18}
          className="input input--area blog-editor__markdown"
          value={values.body}
          onChange={set('body')}
          errors={errors}
          maxLength={BLOG_LIMITS.body.max}
          spellCheck
        />
        <p className="field__hint">
          Заголовки — <code>##</code>, списки — <code>-</code>, ссылки — <code>[текст](https://…)</code>, картинки — только
          загруженные на сайт. HTML-теги и скрипты вырезаются.
        </p>
        <FormError message={formError} />
        <EditorActions
          post={post}
          busy={busy}
          onStatus={(status) => void setStatus(status)}
          onPreview={() => void showPreview()}
          onRemove={() => void remove()}
        />
      </div>
      {preview !== null && <PreviewSection html={preview} />}
    </form>
  );
}

interface CoverFieldProps {
  cover: string | null;
  uploading: boolean;
  error: string[] | undefined;
  onUpload: (event: React.ChangeEvent<HTMLInputElement>) => void;
  onClear: () => void;
}

/** The cover: the picture or what to upload, the upload and removal buttons, and the cover's own error. */
function CoverField({ cover, uploading, error, onUpload, onClear }: CoverFieldProps) {
  return (
    <div className="blog-editor__cover">
      <span className="field__label">Обложка</span>
      {cover ? (
        <div className="blog-editor__cover-image">
          <Picture src={cover} alt="Обложка статьи" sizes="320px" width={320} height={240} />
        </div>
      ) : (
        <p className="field__hint">Картинка JPEG, PNG или WebP, лучше 4:3 — как у обложек услуг.</p>
      )}
      <div className="blog-editor__cover-actions">
        <label className="btn btn--ghost">
          {coverButtonText(uploading, cover)}
          <input type="file" accept={COVER_TYPES} className="visually-hidden" onChange={onUpload} disabled={uploading} />
        </label>
        {cover && (
          <button type="button" className="btn btn--quiet" onClick={onClear}>
            Убрать обложку
          </button>
        )}
      </div>
      {error && <p className="field__error">{error.join(' ')}</p>}
    </div>
  );
}

interface EditorActionsProps {
  post: BlogAdminPost | null;
  busy: boolean;
  onStatus: (status: 'published' | 'draft') => void;
  onPreview: () => void;
  onRemove: () => void;
}

/** Save, publish or unpublish, preview, open the article and delete (the last two once the post exists). */
function EditorActions({ post, busy, onStatus, onPreview, onRemove }: EditorActionsProps) {
  const published = post?.status === 'published';
  return (
    <div className="blog-editor__actions">
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {published ? 'Сохранить' : 'Сохранить черновик'}
      </button>
      {!published && (
        <button type="button" className="btn btn--primary" disabled={busy} onClick={() => onStatus('published')}>
          Опубликовать
        </button>
      )}
      {published && (
        <button type="button" className="btn btn--ghost" disabled={busy} onClick={() => onStatus('draft')}>
          Снять с публикации
        </button>
      )}
      <button type="button" className="btn btn--ghost" disabled={busy} onClick={onPreview}>
        Предпросмотр
      </button>
      {post && (
        <AppLink to={blogPath(post._id)} className="btn btn--quiet">
          {published ? 'Открыть статью' : 'Посмотреть черновик'}
        </AppLink>
      )}
      {post && (
        <button type="button" className="btn btn--quiet blog-editor__delete" disabled={busy} onClick={onRemove}>
          Удалить
        </button>
      )}
    </div>
  );
}

function PreviewSection({ html }: { html: string }) {
  return (
    <section className="card" aria-labelledby="blog-preview-title">
      <h2 id="blog-preview-title" className="card__title">
        Предпросмотр
      </h2>
      {/* Server HTML, sanitised by the same allow-list as the article (ADR 037). */}
      <div className="article-body" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}
