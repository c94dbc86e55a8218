import { routeOf } from '#contract/routes';
import { getToken } from '../../lib/token.ts';

// POST /api/files/single with upload progress (ofetch has none): XMLHttpRequest with the bearer token.

export interface UploadedFile {
  _id: string;
  filePath: string;
  url: string;
  name: string;
  mime: string;
  size: number;
}

export function uploadFile(apiBase: string, file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase}${routeOf('files.upload').path}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      const body = xhr.response as { result?: UploadedFile; message?: string } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.result) resolve(body.result);
      else reject(new Error(body?.message ?? 'Не удалось загрузить файл'));
    };
    xhr.onerror = () => reject(new Error('Не удалось загрузить файл'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
