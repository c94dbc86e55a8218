import { createReadStream } from 'node:fs';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { files } from '../modules/files/schema.ts';
import type { FileInfo, UploadedFile } from '#contract/files';

// What every module knows of an uploaded file: its stored path and public url, its sniffed type, whose it is.
// The upload itself (quotas, storage, cleanup) is the files module's.

export type FileRow = typeof files.$inferSelect;

export const MAX_FILE_SIZE = 20 * 1024 * 1024;
/** How much of the start of a file the type detection looks at. */
export const SNIFF_BYTES = 4100;
export const MAX_ORIGINAL_NAME = 200;
/** Public address prefix of stored files. */
export const UPLOADS_PREFIX = '/uploads/';

// Candidates for contract/messages.ts once the web client shows them.
export const FILE_MESSAGES = {
  tooLarge: 'Файл больше 20 МБ',
  badType: 'Недопустимый тип файла',
  empty: 'Файл пустой',
  missing: 'Файл не передан',
  incomplete: 'Файл передан не полностью, загрузите его ещё раз',
  badPath: 'Некорректный путь к файлу',
  tooMany: 'Слишком много загрузок, попробуйте через час',
  quota: (free: string) => `Не хватает места для файлов: свободно ${free}. Удалите ненужные файлы`,
} as const;

/** The shape of a stored path: "<owner uuid>/<32 hex>.<ext>". Nothing else is ever served or deleted. */
export const STORED_PATH_RE = /^[0-9a-f-]{36}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

export interface DetectedType {
  ext: string;
  mime: string;
}

// Detected by content (file-type's ext → what we store). Anything not listed is refused.
const ALLOWED: Record<string, DetectedType> = {
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  apng: { ext: 'png', mime: 'image/png' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  docx: { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { ext: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { ext: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  odt: { ext: 'odt', mime: 'application/vnd.oasis.opendocument.text' },
  ods: { ext: 'ods', mime: 'application/vnd.oasis.opendocument.spreadsheet' },
  odp: { ext: 'odp', mime: 'application/vnd.oasis.opendocument.presentation' },
  rtf: { ext: 'rtf', mime: 'application/rtf' },
  // Legacy .doc/.xls/.ppt: Compound File Binary, not told apart further.
  cfb: { ext: 'cfb', mime: 'application/x-cfb' },
  zip: { ext: 'zip', mime: 'application/zip' },
  rar: { ext: 'rar', mime: 'application/vnd.rar' },
  '7z': { ext: '7z', mime: 'application/x-7z-compressed' },
  gz: { ext: 'gz', mime: 'application/gzip' },
  'tar.gz': { ext: 'tgz', mime: 'application/gzip' },
  tar: { ext: 'tar', mime: 'application/x-tar' },
};

const SVG: DetectedType = { ext: 'svg', mime: 'image/svg+xml' };
const TEXT: DetectedType = { ext: 'txt', mime: 'text/plain' };

/** Types a browser may show in place; everything else is served as a download. */
// PDFs download: browsers refuse to run their PDF viewer under the sandbox CSP that uploads get.
export const INLINE_MIMES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);

/**
 * file-type does not know SVG: text whose first tag (after a BOM, whitespace, an XML declaration,
 * comments and a doctype) is <svg.
 */
export function looksLikeSvg(head: Uint8Array): boolean {
  let text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const prolog = /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^>[]*(?:\[[^\]]*\][^>]*)?>)/i;
  for (let m = prolog.exec(text); m && m[0].length > 0; m = prolog.exec(text)) text = text.slice(m[0].length);
  return /^<svg[\s>/]/i.test(text);
}

/**
 * The type of an uploaded file by its content: `head` is its start (SNIFF_BYTES), `filePath` the whole
 * file, read only to tell zip-based documents (docx, odt, …) from plain zips. Null when not allowed.
 */
export async function detectFileType(head: Uint8Array, filePath?: string): Promise<DetectedType | null> {
  // Loaded at the first upload, not at every start (ADR 018).
  const { fileTypeFromBuffer, fileTypeFromFile } = await import('file-type');
  let found = await fileTypeFromBuffer(head);
  if (found?.ext === 'zip' && filePath) {
    // A broken archive stays a plain zip.
    found = (await fileTypeFromFile(filePath).catch(() => undefined)) ?? found;
  }
  if (found && found.ext !== 'xml') return ALLOWED[found.ext] ?? null;
  if (looksLikeSvg(head)) return SVG;
  return filePath && (await isPlainText(filePath)) ? TEXT : null;
}

/**
 * Plain text (issue 15: .txt attachments): UTF-8 throughout, no control characters but tab, line breaks and form
 * feed, and no markup: a page (HTML, XML) stays refused, whatever its name.
 */
export async function isPlainText(filePath: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  try {
    for await (const chunk of createReadStream(filePath, { highWaterMark: 64 * 1024 })) {
      const text = decoder.decode(chunk as Buffer, { stream: true });
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return false;
      if (first && /^\uFEFF?\s*</.test(text)) return false;
      first = false;
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The uploader's file name made harmless: no directories, control or bidi characters, at most 200 characters. */
export function sanitizeFileName(name: string | undefined | null): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff0-\uffff]/g, '')
    .trim()
    .replace(/^\.+/, '');
  const limited = Array.from(cleaned).slice(0, MAX_ORIGINAL_NAME).join('').trim();
  return limited || 'file';
}

/** A stored path from what a client sends: the stored path itself or its public url; null when it is neither. */
export function parseFilePath(input: string): string | null {
  const key = input.startsWith(UPLOADS_PREFIX) ? input.slice(UPLOADS_PREFIX.length) : input;
  return STORED_PATH_RE.test(key) ? key : null;
}

export const fileUrl = (storedPath: string) => `${UPLOADS_PREFIX}${storedPath}`;

/**
 * One way modules keep uploaded files (ADR 041): avatars, service images, chat attachments, appeal attachments … Each
 * module that stores file references declares its uses in its own folder (`file-uses.ts`, exported by its index.ts);
 * server/file-uses.ts lists them all. The files module keeps a file only while some use names it (the uploads
 * cleanup) and serves it only to whom a use that names it admits; server/file-uses.test.ts and file-uses.db.test.ts
 * fail for a column holding file references that no use declares.
 */
export interface FileUse {
  /** What these files are, for tests and the ADR: "appeal attachments". */
  what: string;
  /** The columns that hold the references (urls or stored paths). */
  columns: readonly AnyPgColumn[];
  /** An SQL condition, true when a row of this use names the file; `file` is its url and stored path (a text[]). */
  names(file: SQL): SQL;
  /**
   * Who may read a file this use names, besides its owner and admins (who always may): `everyone` (it is shown
   * on public pages: served cacheable), `owner` (nobody else), or an SQL condition true when `reader` (a user id)
   * may, e.g. a member of a chat it was sent in.
   */
  readers: 'everyone' | 'owner' | ((file: SQL, reader: string) => SQL);
}

export const defineFileUse = (use: FileUse): FileUse => use;

/** The forms a stored path is named by, as `FileUse` conditions take it: its url, or the bare path a client sent. */
export const fileForms = (storedPath: AnyPgColumn): SQL =>
  sql`array[${UPLOADS_PREFIX} || ${storedPath}, ${storedPath}]::text[]`;

/** A condition: the column (text[] or text) names the file (`fileForms`). */
export const namesFile = (column: AnyPgColumn, file: SQL): SQL =>
  column.columnType === 'PgArray' ? sql`${column} && ${file}` : sql`${column} = any(${file})`;

export function presentFile(row: FileRow): UploadedFile {
  return {
    _id: row.id,
    filePath: row.path,
    url: fileUrl(row.path),
    name: row.originalName,
    mime: row.mime,
    size: row.size,
  };
}

/**
 * The file row behind `filePath` (stored path or public url) when it belongs to `ownerId`, else null.
 * For other features that take a file from a user (avatars, service images, chat attachments).
 */
export async function ownedFile(db: Db, ownerId: string, filePath: string): Promise<FileRow | null> {
  const key = parseFilePath(filePath);
  if (!key) return null;
  const [row] = await db.select().from(files).where(eq(files.path, key)).limit(1);
  return row && row.ownerId === ownerId ? row : null;
}

/** The stored files named by these urls (or stored paths), by stored path: one query. */
export async function filesByPaths(db: Db, urls: readonly string[]): Promise<Map<string, FileRow>> {
  const keys = [...new Set(urls.map(parseFilePath).filter((k): k is string => k !== null))];
  if (keys.length === 0) return new Map();
  const found = await db.select().from(files).where(inArray(files.path, keys));
  return new Map(found.map((f) => [f.path, f]));
}

/** Files named by urls as pages show them, in the order given; a file its owner deleted since is left out. */
export function presentFiles(urls: readonly string[], rows: ReadonlyMap<string, FileRow>): FileInfo[] {
  return urls.flatMap((url) => {
    const key = parseFilePath(url);
    const row = key ? rows.get(key) : undefined;
    return row ? [{ url: fileUrl(row.path), name: row.originalName, mime: row.mime, size: row.size }] : [];
  });
}
