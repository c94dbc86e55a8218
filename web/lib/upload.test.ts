import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '#contract/messages';
import { setApiBase } from './api.ts';
import { MAX_FILE_BYTES, UPLOAD_MESSAGES, refuseFile, uploadFile } from './upload.ts';

vi.mock('./token.ts', () => ({ getToken: () => 'tok' }));

/** The part of XMLHttpRequest the upload uses; each test answers the last one opened. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  responseType = '';
  response: unknown = null;
  status = 0;
  sent: unknown;
  aborted = false;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.onload?.();
  }
}

const file = (size = 3, type = 'image/png') => new File([new Uint8Array(size)], 'a.png', { type });
const stored = { _id: 'f1', filePath: 'u/f.png', url: '/uploads/u/f.png', name: 'a.png', mime: 'image/png', size: 3 };

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  setApiBase('');
});
afterEach(() => vi.unstubAllGlobals());

describe('uploadFile', () => {
  it('posts the file as multipart to the files API with the bearer token, reporting progress', async () => {
    setApiBase('https://api.example.org');
    const progress: number[] = [];
    const done = uploadFile(file(), { onProgress: (f) => progress.push(f) });
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url]).toEqual(['POST', 'https://api.example.org/api/files/single']);
    expect(xhr.headers.authorization).toBe('Bearer tok');
    expect((xhr.sent as FormData).get('file')).toBeInstanceOf(File);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
    xhr.answer(200, { status: 200, result: stored });
    expect(await done).toEqual({ file: stored });
    expect(progress).toEqual([0.25]);
  });

  it("answers the server's message, else a 413's own, else the generic one; a lost connection has its own", async () => {
    const refused = uploadFile(file());
    FakeXhr.last.answer(400, { status: 400, message: 'Недопустимый тип файла' });
    expect(await refused).toEqual({ error: 'Недопустимый тип файла' });

    const tooLarge = uploadFile(file());
    FakeXhr.last.answer(413, null);
    expect(await tooLarge).toEqual({ error: UPLOAD_MESSAGES.tooLarge });

    const broken = uploadFile(file());
    FakeXhr.last.answer(502, null);
    expect(await broken).toEqual({ error: MESSAGES.unexpected });

    const offline = uploadFile(file());
    FakeXhr.last.onerror?.();
    expect(await offline).toEqual({ error: UPLOAD_MESSAGES.offline });
  });

  it('is cancelled by its signal, also before it starts', async () => {
    const controller = new AbortController();
    const running = uploadFile(file(), { signal: controller.signal });
    const xhr = FakeXhr.last;
    controller.abort();
    expect(xhr.aborted).toBe(true);
    expect(await running).toEqual({ error: UPLOAD_MESSAGES.aborted, aborted: true });
    expect(await uploadFile(file(), { signal: controller.signal })).toEqual({ error: UPLOAD_MESSAGES.aborted, aborted: true });
    expect(FakeXhr.last).toBe(xhr);
  });
});

describe('refuseFile', () => {
  it('refuses empty and too large files, and anything but pictures where only pictures go', () => {
    expect(refuseFile(file(0))).toBe(UPLOAD_MESSAGES.empty);
    expect(refuseFile({ size: MAX_FILE_BYTES + 1, type: 'image/png' } as File)).toBe(UPLOAD_MESSAGES.tooLarge);
    expect(refuseFile(file(3, 'application/pdf'))).toBeNull();
    expect(refuseFile(file(3, 'application/pdf'), true)).toBe(UPLOAD_MESSAGES.notImage);
    expect(refuseFile(file(3, 'image/webp'), true)).toBeNull();
  });
});
