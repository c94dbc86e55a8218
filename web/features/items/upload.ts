import { MESSAGES } from '#contract/messages';
import { routeOf } from '#contract/routes';
import { getToken } from '../../lib/token.ts';

// One file through POST /api/files/single, with upload progress (fetch cannot report it, XMLHttpRequest can).

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** What the files API accepts, for the picker's filter (the server checks the content itself). */
export const ATTACHMENT_ACCEPT =
  '.jpg,.jpeg,.png,.gif,.webp,.svg,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.odp,.rtf,.zip,.rar,.7z,.gz,.tgz,.tar';

export interface UploadedFile {
  url: string;
  name: string;
  mime: string;
  size: number;
}

export type UploadResult = { file: UploadedFile; error?: undefined } | { file?: undefined; error: string };

/** Why a file cannot be sent at all, or null. */
export function refuseFile(file: File, imagesOnly: boolean): string | null {
  if (file.size === 0) return 'Файл пустой';
  if (file.size > MAX_FILE_BYTES) return 'Файл больше 20 МБ';
  if (imagesOnly && !(IMAGE_TYPES as readonly string[]).includes(file.type))
    return 'Загрузите изображение PNG, JPEG, WebP или GIF';
  return null;
}

export function uploadFile(apiBase: string, file: File, onProgress: (fraction: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase}${routeOf('files.upload').path}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as { result?: UploadedFile; message?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.result) resolve({ file: body.result });
      else resolve({ error: body?.message ?? (xhr.status === 413 ? 'Файл больше 20 МБ' : MESSAGES.unexpected) });
    };
    xhr.onerror = () => resolve({ error: 'Не удалось загрузить файл: нет связи с сервером' });
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
