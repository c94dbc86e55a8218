import { MESSAGES } from '#contract/messages';
import type { UploadedFile } from '#contract/files';
import { routeOf } from '#contract/routes';
import { apiBaseUrl } from './api.ts';
import { getToken } from './token.ts';

// One file through the files API (POST /api/files/single, `files.upload`), with upload progress: fetch cannot report
// it, XMLHttpRequest can. The bearer token goes along as with every API call; the answer never throws.

/** The files API takes up to 20 MB per file. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** What the files API accepts, for the picker's filter (the server checks the content itself). */
export const ATTACHMENT_ACCEPT =
  '.jpg,.jpeg,.png,.gif,.webp,.svg,.pdf,.txt,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp,.rtf,.zip,.rar,.7z,.gz,.tgz,.tar';

export type UploadResult =
  | { file: UploadedFile; error?: undefined; aborted?: undefined }
  /** `error` in Russian, for the person; `aborted` when the caller cancelled it (nothing to show then). */
  | { file?: undefined; error: string; aborted?: boolean };

export interface UploadOptions {
  /** The share sent so far, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Cancels the upload: the answer is then `{ error, aborted: true }`. */
  signal?: AbortSignal;
}

export const UPLOAD_MESSAGES = {
  empty: 'Файл пустой',
  tooLarge: 'Файл больше 20 МБ',
  notImage: 'Загрузите изображение PNG, JPEG, WebP или GIF',
  offline: 'Не удалось загрузить файл: нет связи с сервером',
  aborted: 'Загрузка отменена',
} as const;

/** Why a file cannot be sent at all, or null. */
export function refuseFile(file: File, imagesOnly = false): string | null {
  if (file.size === 0) return UPLOAD_MESSAGES.empty;
  if (file.size > MAX_FILE_BYTES) return UPLOAD_MESSAGES.tooLarge;
  if (imagesOnly && !(IMAGE_TYPES as readonly string[]).includes(file.type)) return UPLOAD_MESSAGES.notImage;
  return null;
}

/** Uploads one file; resolves with the stored file or a Russian error (the server's message when it gave one). */
export function uploadFile(file: File, { onProgress, signal }: UploadOptions = {}): Promise<UploadResult> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ error: UPLOAD_MESSAGES.aborted, aborted: true });
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const finish = (result: UploadResult) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    xhr.open('POST', `${apiBaseUrl()}${routeOf('files.upload').path}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      // The API's answer, as every call's: { result } or { message } (null when the body was not JSON).
      const body: { result?: UploadedFile; message?: unknown } | null = xhr.response;
      if (xhr.status >= 200 && xhr.status < 300 && body?.result) return finish({ file: body.result });
      const message = typeof body?.message === 'string' && body.message ? body.message : null;
      finish({ error: message ?? (xhr.status === 413 ? UPLOAD_MESSAGES.tooLarge : MESSAGES.unexpected) });
    };
    xhr.onerror = () => finish({ error: UPLOAD_MESSAGES.offline });
    xhr.onabort = () => finish({ error: UPLOAD_MESSAGES.aborted, aborted: true });
    signal?.addEventListener('abort', onAbort);
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** A readable name for an attachment we only know by its address: "a1b2…e9.pdf" → "Файл PDF". */
export function fileLabel(url: string): string {
  const ext = url.split('.').pop()?.toUpperCase();
  return ext && ext.length <= 5 ? `Файл ${ext}` : 'Файл';
}
