import { useEffect, useId, useRef, useState } from 'react';
import { FileText, ImagePlus, Paperclip, Star, X } from '../../components/ui/icons.tsx';
import { ATTACHMENT_ACCEPT, IMAGE_TYPES, refuseFile, uploadFile } from '../../lib/upload.ts';
import { fileLabel } from './format.ts';

interface Pending {
  key: number;
  name: string;
  /** Object URL of an image being uploaded, for its preview. */
  preview: string | null;
  progress: number;
  error: string | null;
}

export interface FileUploaderProps {
  /** 'images': previews in a grid, the first is the cover; 'files': a list of attachments of any allowed type. */
  mode: 'images' | 'files';
  label: string;
  hint: string;
  value: string[];
  /** Gets an update function: uploads finish at their own pace and must not overwrite each other. */
  onChange: (update: (urls: string[]) => string[]) => void;
  max: number;
  /** The message for the whole list ('images') and per item ('images.3'). */
  error?: string;
  itemError?: (index: number) => string | undefined;
  /** Told whether an upload is in progress (the form waits for it before saving). */
  onBusyChange?: (busy: boolean) => void;
  /** False: files can be removed and reordered but not added (an administrator's edit keeps the owner's files). */
  canAdd?: boolean;
}

let nextKey = 0;

export function FileUploader({
  mode,
  label,
  hint,
  value,
  onChange,
  max,
  error,
  itemError,
  onBusyChange,
  canAdd = true,
}: FileUploaderProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  /** Original names of the files uploaded here (a stored address carries none). */
  const [names, setNames] = useState<Record<string, string>>({});
  const images = mode === 'images';
  const uploading = pending.filter((p) => !p.error).length;
  const room = max - value.length - uploading;

  useEffect(() => onBusyChange?.(uploading > 0), [uploading, onBusyChange]);
  // Previews of files still in flight are released when the form goes away.
  const previews = useRef(new Set<string>());
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    const set = previews.current;
    return () => set.forEach((url) => URL.revokeObjectURL(url));
  }, []);
  // Uploads still running when the form goes away are cancelled.
  const uploads = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = (uploads.current = new AbortController());
    return () => controller.abort();
  }, []);

  const patch = (key: number, change: Partial<Pending>) =>
    setPending((list) => list.map((p) => (p.key === key ? { ...p, ...change } : p)));
  const drop = (key: number) =>
    setPending((list) => {
      const gone = list.find((p) => p.key === key);
      if (gone?.preview) {
        URL.revokeObjectURL(gone.preview);
        previews.current.delete(gone.preview);
      }
      return list.filter((p) => p.key !== key);
    });

  async function send(file: File, key: number) {
    const result = await uploadFile(file, { onProgress: (fraction) => patch(key, { progress: fraction }), signal: uploads.current?.signal });
    if (result.aborted) return;
    if (result.error !== undefined) return patch(key, { error: result.error, progress: 0 });
    setNames((n) => ({ ...n, [result.file.url]: result.file.name }));
    onChange((urls) => (urls.includes(result.file.url) ? urls : [...urls, result.file.url]));
    drop(key);
  }

  function pick(files: FileList | null) {
    if (!files) return;
    const chosen = [...files];
    const accepted = chosen.slice(0, Math.max(0, room));
    const added: Pending[] = [];
    for (const file of accepted) {
      const refused = refuseFile(file, images);
      const preview = images && !refused ? URL.createObjectURL(file) : null;
      if (preview) previews.current.add(preview);
      const item: Pending = { key: ++nextKey, name: file.name, preview, progress: 0, error: refused };
      added.push(item);
      // One at a time: the files keep the order they were picked in (the first is the cover).
      if (!refused) queue.current = queue.current.then(() => send(file, item.key));
    }
    if (chosen.length > accepted.length) {
      added.push({
        key: ++nextKey,
        name: `${chosen.length - accepted.length} шт.`,
        preview: null,
        progress: 0,
        error: `Можно загрузить не больше ${max}`,
      });
    }
    setPending((list) => [...list, ...added]);
    if (input.current) input.current.value = '';
  }

  const remove = (url: string) => onChange((urls) => urls.filter((u) => u !== url));
  const makeCover = (url: string) => onChange((urls) => [url, ...urls.filter((u) => u !== url)]);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  return (
    <div
      className={`field uploader uploader--${mode}${error ? ' field--invalid' : ''}`}
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <span id={`${id}-label`} className="field__label">
        {label}
      </span>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
      {(value.length > 0 || pending.length > 0 || canAdd) && (
        <ul className="uploader__list">
          {value.map((url, i) => {
            const problem = itemError?.(i);
            const name = names[url] ?? (images ? `Изображение ${i + 1}` : fileLabel(url));
            return (
              <li key={url} className={`uploader__item${problem ? ' uploader__item--error' : ''}`}>
                {images ? (
                  <img
                    className="uploader__preview"
                    src={url}
                    alt={i === 0 ? `Обложка: ${name}` : name}
                    loading="lazy"
                  />
                ) : (
                  <a className="uploader__file" href={url} target="_blank" rel="noreferrer">
                    <FileText size={18} aria-hidden="true" />
                    <span>{name}</span>
                  </a>
                )}
                {images && i === 0 && <span className="uploader__cover badge">Обложка</span>}
                <div className="uploader__tools">
                  {images && i > 0 && (
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Сделать обложкой: ${name}`}
                      title="Сделать обложкой"
                      onClick={() => makeCover(url)}
                    >
                      <Star size={16} aria-hidden="true" />
                    </button>
                  )}
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Удалить: ${name}`}
                    title="Удалить"
                    onClick={() => remove(url)}
                  >
                    <X size={16} aria-hidden="true" />
                  </button>
                </div>
                {problem && <p className="field__error uploader__problem">{problem}</p>}
              </li>
            );
          })}
          {pending.map((p) => (
            <li
              key={p.key}
              className={`uploader__item uploader__item--pending${p.error ? ' uploader__item--error' : ''}`}
            >
              {p.preview ? (
                <img className="uploader__preview" src={p.preview} alt="" />
              ) : (
                <span className="uploader__file">{p.name}</span>
              )}
              {p.error ? (
                <>
                  <p className="field__error uploader__problem" role="alert">
                    {p.name}: {p.error}
                  </p>
                  <div className="uploader__tools">
                    <button
                      type="button"
                      className="icon-btn"
                      aria-label={`Убрать сообщение об ошибке: ${p.name}`}
                      onClick={() => drop(p.key)}
                    >
                      <X size={16} aria-hidden="true" />
                    </button>
                  </div>
                </>
              ) : (
                <div className="uploader__progress">
                  <progress max={1} value={p.progress} aria-label={`Загрузка ${p.name}`} />
                  <span aria-hidden="true">{Math.round(p.progress * 100)}%</span>
                </div>
              )}
            </li>
          ))}
          {canAdd && room > 0 && (
            <li className="uploader__add-item">
              <label className={`uploader__add${images ? ' uploader__add--tile' : ' btn btn--ghost'}`}>
                {images ? <ImagePlus size={24} aria-hidden="true" /> : <Paperclip size={18} aria-hidden="true" />}
                <span>{images ? 'Добавить изображения' : 'Прикрепить файлы'}</span>
                <input
                  ref={input}
                  type="file"
                  multiple
                  className="visually-hidden"
                  accept={images ? IMAGE_TYPES.join(',') : ATTACHMENT_ACCEPT}
                  aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
                  aria-invalid={error ? true : undefined}
                  onChange={(e) => pick(e.target.files)}
                />
              </label>
            </li>
          )}
        </ul>
      )}
      {!canAdd && value.length === 0 && <p className="field__hint">Файлов нет.</p>}
      {uploading > 0 && (
        <p className="field__hint" aria-live="polite">
          Загружается файлов: {uploading}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
