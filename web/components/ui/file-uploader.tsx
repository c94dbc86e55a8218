import { useEffect, useId, useRef, useState } from 'react';
import { FileText, ImagePlus, Paperclip, Star, X } from './icons.tsx';
import { ATTACHMENT_ACCEPT, fileLabel, IMAGE_TYPES, refuseFile, uploadFile } from '../../lib/upload.ts';

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

/**
 * What ends with the form: previews of files still in flight are released, and uploads still running cancelled.
 */
function useUploadLifetime() {
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const set = previews.current;
    return () => set.forEach((url) => URL.revokeObjectURL(url));
  }, []);
  const uploads = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = (uploads.current = new AbortController());
    return () => controller.abort();
  }, []);
  return { previews, uploads };
}

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
  const { previews, uploads } = useUploadLifetime();
  const queue = useRef<Promise<unknown>>(Promise.resolve());

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
    const left = overflowNote(chosen.length - accepted.length, max);
    if (left) added.push({ key: ++nextKey, preview: null, progress: 0, ...left });
    setPending((list) => [...list, ...added]);
    if (input.current) input.current.value = '';
  }

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
          {value.map((url, i) => (
            <StoredFile
              key={url}
              url={url}
              index={i}
              images={images}
              name={storedFileName(url, i, names, images)}
              problem={itemError?.(i)}
              onCover={() => onChange((urls) => withCover(urls, url))}
              onRemove={() => onChange((urls) => urls.filter((u) => u !== url))}
            />
          ))}
          {pending.map((p) => (
            <PendingFile key={p.key} item={p} onDismiss={() => drop(p.key)} />
          ))}
          {canAdd && room > 0 && (
            <AddFiles
              images={images}
              inputRef={input}
              describedBy={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
              invalid={!!error}
              onPick={pick}
            />
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

/** A stored file's name: the one it was uploaded with here, else «Изображение 2» or «Файл PDF». */
export const storedFileName = (url: string, index: number, names: Record<string, string>, images: boolean) =>
  names[url] ?? (images ? `Изображение ${index + 1}` : fileLabel(url));

/** The images with `url` first (the cover), the others in their order. */
export const withCover = (urls: string[], url: string) => [url, ...urls.filter((u) => u !== url)];

interface StoredFileProps {
  url: string;
  index: number;
  images: boolean;
  name: string;
  problem: string | undefined;
  onCover: () => void;
  onRemove: () => void;
}

/** An uploaded file: its preview or link, the cover's badge, «make cover» and «remove», and its own error. */
function StoredFile({ url, index, images, name, problem, onCover, onRemove }: StoredFileProps) {
  return (
    <li className={`uploader__item${problem ? ' uploader__item--error' : ''}`}>
      {images ? (
        <img className="uploader__preview" src={url} alt={index === 0 ? `Обложка: ${name}` : name} loading="lazy" />
      ) : (
        <a className="uploader__file" href={url} target="_blank" rel="noreferrer">
          <FileText size={18} aria-hidden="true" />
          <span>{name}</span>
        </a>
      )}
      {images && index === 0 && <span className="uploader__cover badge">Обложка</span>}
      <div className="uploader__tools">
        {images && index > 0 && (
          <button type="button" className="icon-btn" aria-label={`Сделать обложкой: ${name}`} title="Сделать обложкой" onClick={onCover}>
            <Star size={16} aria-hidden="true" />
          </button>
        )}
        <button type="button" className="icon-btn" aria-label={`Удалить: ${name}`} title="Удалить" onClick={onRemove}>
          <X size={16} aria-hidden="true" />
        </button>
      </div>
      {problem && <p className="field__error uploader__problem">{problem}</p>}
    </li>
  );
}

/** A file on its way: its progress, or why it was refused (with a button to dismiss the message). */
function PendingFile({ item: p, onDismiss }: { item: Pending; onDismiss: () => void }) {
  return (
    <li className={`uploader__item uploader__item--pending${p.error ? ' uploader__item--error' : ''}`}>
      {p.preview ? <img className="uploader__preview" src={p.preview} alt="" /> : <span className="uploader__file">{p.name}</span>}
      {p.error ? (
        <>
          <p className="field__error uploader__problem" role="alert">
            {p.name}: {p.error}
          </p>
          <div className="uploader__tools">
            <button type="button" className="icon-btn" aria-label={`Убрать сообщение об ошибке: ${p.name}`} onClick={onDismiss}>
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
  );
}

/** The files picked beyond the limit, said once as an item of its own («3 шт.: можно загрузить не больше 10»). */
export const overflowNote = (over: number, max: number): { name: string; error: string } | null =>
  over > 0 ? { name: `${over} шт.`, error: `Можно загрузить не больше ${max}` } : null;

interface AddFilesProps {
  images: boolean;
  inputRef: React.RefObject<HTMLInputElement | null>;
  describedBy: string;
  invalid: boolean;
  onPick: (files: FileList | null) => void;
}

/** The add tile (images) or button (files) with its hidden file input. */
function AddFiles({ images, inputRef, describedBy, invalid, onPick }: AddFilesProps) {
  return (
    <li className="uploader__add-item">
      <label className={`uploader__add${images ? ' uploader__add--tile' : ' btn btn--ghost'}`}>
        {images ? <ImagePlus size={24} aria-hidden="true" /> : <Paperclip size={18} aria-hidden="true" />}
        <span>{images ? 'Добавить изображения' : 'Прикрепить файлы'}</span>
        <input
          ref={inputRef}
          type="file"
          multiple
          className="visually-hidden"
          accept={images ? IMAGE_TYPES.join(',') : ATTACHMENT_ACCEPT}
          aria-describedby={describedBy}
          aria-invalid={invalid ? true : undefined}
          onChange={(e) => onPick(e.target.files)}
        />
      </label>
    </li>
  );
}
